"""Issue 22, point 2: each person sees and grades only the properties whose channels they are in
(docs/verdicts.md, "Who sees and grades what"), through signed requests and the fake Slack's
`users.conversations`."""

from __future__ import annotations

import pytest
from slack_sdk.web.async_client import AsyncWebClient
from sqlalchemy import Engine

from blocks import texts
from gradecore.model.contract import parse_conversation
from smith.listening.batch import NOT_A_MEMBER
from smith.listening.membership import MembershipUnavailable, PeopleInChannels
from tests.conftest import load_demo
from tests.fakes.slack_api import FakeSlack
from tests.fakes.slack_state import User
from tests.scenarios.listening import CHANNEL, Scene, running_scene, wait_until
from tests.scenarios.test_home_tab import open_home, shown

OTHER = "C0APT2"


async def _seed_in(scene: Scene, demo: str, channel: str) -> None:
    conversation = parse_conversation(load_demo(demo))
    prop = conversation.property
    with scene.store.unit() as unit:
        unit.properties.set(prop.id, name=prop.name, timezone=prop.timezone, channel_id=channel)
    scene.smith.ingestor.ingest(conversation)
    await scene.drain()


async def _two_properties(scene: Scene) -> str:
    """Lampliter posts to CHANNEL, where Ana is; Camellia to OTHER, where Bea is. Returns Lampliter's
    parent ts."""
    scene.fake.add_channel(OTHER)
    lampliter = await scene.seed("lampliter-unbacked-promise.json")
    await _seed_in(scene, "camellia-wrong-language.json", OTHER)
    scene.add_grader("U0ANA", "ana@example.test")
    scene.add_grader("U0BEA", "bea@example.test")
    scene.add_grader("U0ADA", "ada@example.test", role="admin")
    scene.fake.workspace.set_people(CHANNEL, ["U0ANA"])
    scene.fake.workspace.set_people(OTHER, ["U0BEA"])
    return lampliter.parent_ts


async def test_the_home_tab_shows_only_the_properties_of_ones_channels_and_admins_see_all(
    engine: Engine,
) -> None:
    async with running_scene(engine) as scene:
        await _two_properties(scene)
        ana = shown(await open_home(scene, "U0ANA"))
        assert "unbacked promise" in ana and "wrong language" not in ana
        bea = shown(await open_home(scene, "U0BEA"))
        assert "wrong language" in bea and "unbacked promise" not in bea
        ada = shown(await open_home(scene, "U0ADA"))  # an admin, in neither channel
        assert "unbacked promise" in ada and "wrong language" in ada
        assert {call["user"] for call in scene.fake.calls_to("users.conversations")} == {"U0ANA", "U0BEA"}


async def test_stats_answer_only_the_channels_members(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        await _two_properties(scene)
        for user, expected in (("U0ANA", "Last 30 days:"), ("U0BEA", texts.stats_members_only())):
            before = len(scene.fake.responses)
            assert (await scene.command(user, "stats", key=user)).status == 200
            await wait_until(lambda seen=before: len(scene.fake.responses) > seen, what="the answer")
            assert str(scene.fake.responses[-1].body["text"]).startswith(expected), user


async def test_an_act_by_someone_not_in_the_posts_channel_is_ignored(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        parent = await _two_properties(scene)
        await scene.react("U0BEA", "+1", parent)  # Bea is not in CHANNEL
        await scene.react("U0ANA", "+1", parent)
        await scene.settle()
        by = {v.grader_user_id for v in scene.verdicts()}
        with scene.store.unit() as unit:
            ana = unit.users.by_email("ana@example.test")
            outcomes = [row.outcome for row in scene.inbox()]
        assert ana is not None and by == {ana.id}
        assert NOT_A_MEMBER in outcomes


async def test_membership_is_paged_cached_for_minutes_and_a_failure_is_not_an_empty_answer() -> None:
    async with FakeSlack.running() as fake:
        for index in range(5):
            fake.add_channel(f"C0MANY{index}")
        fake.add_user(User("U0ANA", "ana", "ana@example.test"))
        client = AsyncWebClient(token=fake.bot_token, base_url=fake.api_url)
        now = [0.0]
        people = PeopleInChannels(client, clock=lambda: now[0], page_size=2)

        first = await people.channels_of("U0ANA")
        assert {f"C0MANY{index}" for index in range(5)} <= first
        assert len(fake.calls_to("users.conversations")) >= 3  # pages of two
        asked = len(fake.calls_to("users.conversations"))
        fake.workspace.set_people("C0MANY0", [])
        assert await people.channels_of("U0ANA") == first  # cached: Slack is not asked again
        assert len(fake.calls_to("users.conversations")) == asked
        now[0] = 301.0
        assert "C0MANY0" not in await people.channels_of("U0ANA")  # asked again after five minutes
        fake.fail_next("users.conversations", "fatal_error", times=1)
        with pytest.raises(MembershipUnavailable):
            await people.channels_of("U0BO")  # an outage is not "a member of no channel"
        # Slack's own answer that there is no such person is one: no channel, not asked again.
        assert await people.channels_of("U0NOBODY") == frozenset()
        asked = len(fake.calls_to("users.conversations"))
        assert await people.channels_of("U0NOBODY") == frozenset()
        assert len(fake.calls_to("users.conversations")) == asked
