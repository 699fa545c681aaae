"""users.info through the real client against the fake Slack: who someone is, or that Slack could
not say right now (which must not be mistaken for "unknown person")."""

from __future__ import annotations

import pytest

from smith.listening.identity import DirectoryUnavailable, SlackDirectory, SlackProfile
from smith.wiring import build_read_client
from tests.fakes.slack_api import FakeSlack
from tests.fakes.slack_state import User


async def test_profiles_unknown_people_and_outages() -> None:
    async with FakeSlack.running(users=[User("U1", "ana", email="Ana@Example.test")]) as fake:
        directory = SlackDirectory(build_read_client(fake.bot_token, base_url=fake.api_url))
        assert await directory.profile("U1") == SlackProfile(email="Ana@Example.test", is_bot=False)
        assert await directory.profile("U0SMITH") == SlackProfile(email=None, is_bot=True)
        assert await directory.profile("U404") is None  # user_not_found: a definite answer

        fake.fail_next("users.info", "http_500")
        with pytest.raises(DirectoryUnavailable):
            await directory.profile("U1")
        fake.fail_next("users.info", "fatal_error")
        with pytest.raises(DirectoryUnavailable):
            await directory.profile("U1")
