"""The Home tab's viewer locale: users.info with include_locale through the fake Slack, kept for an
hour per person, asked again after that, and never kept when Slack could not answer."""

from __future__ import annotations

from slack_sdk.web.async_client import AsyncWebClient

from smith.listening.viewer_locale import ViewerLocales
from tests.fakes.slack_api import FakeSlack, User


def _asked(fake: FakeSlack, user: str) -> int:
    return sum(
        1 for call in fake.calls_to("users.info") if call.get("user") == user and call.get("include_locale")
    )


async def test_the_locale_is_kept_for_an_hour_then_asked_again() -> None:
    lucia = User("U0LUCIA", "lucia", email="lucia@example.test", locale="es-MX")
    async with FakeSlack.running(channels=[], users=[lucia], post_window_s=0) as fake:
        client = AsyncWebClient(token=fake.bot_token, base_url=fake.api_url, retry_handlers=[])
        now = {"t": 0.0}
        locales = ViewerLocales(ttl=3600, clock=lambda: now["t"])

        assert await locales.locale_of(client, "U0LUCIA") == "es-MX"
        now["t"] = 3599
        assert await locales.locale_of(client, "U0LUCIA") == "es-MX"
        assert _asked(fake, "U0LUCIA") == 1  # from the cache

        lucia.locale = "en-GB"  # she changed her Slack language
        now["t"] = 3601
        assert await locales.locale_of(client, "U0LUCIA") == "en-GB"
        assert _asked(fake, "U0LUCIA") == 2


async def test_a_failed_look_up_is_not_kept() -> None:
    lucia = User("U0LUCIA", "lucia", email="lucia@example.test", locale="es-ES")
    async with FakeSlack.running(channels=[], users=[lucia], post_window_s=0) as fake:
        client = AsyncWebClient(token=fake.bot_token, base_url=fake.api_url, retry_handlers=[])
        locales = ViewerLocales()
        fake.fail_next("users.info", "fatal_error", times=1)
        assert await locales.locale_of(client, "U0LUCIA") is None  # the tab falls back to English
        assert await locales.locale_of(client, "U0LUCIA") == "es-ES"  # asked again, not cached
        assert await locales.locale_of(client, "U0NOBODY") is None  # user_not_found
