"""The judge lane runs off the ingest path: ingest answers after the deterministic grade, the judged
grade arrives later as a MachineGrade of its own and edits the posts in place; a restart loses nothing.

Everything real: the aiohttp app built by `app.py`, the Anthropic SDK against the local fake API, the
relay through slack_sdk to the fake Slack.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import Engine

import app as wiring
from cerebrus.judge import JudgeConfig, JudgeLane, grade_with_judge
from gradecore.model.contract import parse_conversation
from gradecore.persistence.grade_rows import SOURCE_DETERMINISTIC, SOURCE_JUDGE
from gradecore.persistence.store import Store
from smith.ingest import Ingestor
from smith.judging import JudgeWorker
from tests.conftest import load_demo
from tests.fakes.anthropic_api import Body, FakeAnthropicAPI, Reply, judged_draft, tool_answer
from tests.fakes.slack_api import FakeSlack
from tests.smith.outbox.harness import relay_for
from tests.smith.web.conftest import AUTH, settings_for

LAMPLITER = load_demo("lampliter-unbacked-promise.json")
CONVERSATION = "c0a80101-lampliter-0001"
CHANNEL = "C0LAMP"
PATIENCE_SECONDS = 60.0  # generous: the test waits on what it set in motion, never races the clock


def curt_tone(body: Body) -> Reply:
    """Tone 1 of 3 (a visible change to the post), pacing 3, each with a valid receipt."""
    quote = " ".join(judged_draft(body)["text"].split()[:4])
    return tool_answer(tone=(1, quote, "Curt with a worried resident."), pacing=(3, quote, "Moves on."))


async def _until(condition: Callable[[], bool]) -> None:
    deadline = asyncio.get_running_loop().time() + PATIENCE_SECONDS
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the awaited condition never came"
        await asyncio.sleep(0.05)


def sources_of(store: Store) -> list[str]:
    with store.unit() as unit:
        return [g.source for g in unit.grades.for_conversation(CONVERSATION) if g.item_type == "conversation"]


def _map_channel(store: Store) -> None:
    with store.unit() as unit:
        unit.properties.set("lampliter", name="Lampliter", timezone="America/Chicago", channel_id=CHANNEL)


async def test_ingest_answers_before_the_judge_and_the_judged_grade_edits_the_post(
    engine: Engine, tmp_path: Path
) -> None:
    async with FakeAnthropicAPI(responder=curt_tone) as api, FakeSlack.running(channels=[CHANNEL]) as slack:
        api.gate = asyncio.Event()  # the judge answers only when the test says so
        settings = settings_for(
            engine, tmp_path, ANTHROPIC_API_KEY="test-key", ANTHROPIC_BASE_URL=api.base_url
        )
        smith = wiring.build(settings)
        assert smith.judge_worker is not None
        _map_channel(smith.store)
        stop = asyncio.Event()
        worker = asyncio.create_task(smith.judge_worker.run_forever(stop))
        try:
            async with TestClient(TestServer(wiring.make_web_app(smith))) as client:
                response = await client.post("/v1/conversations", data=LAMPLITER, headers=AUTH)
                body = await response.json()

            assert response.status == 202, body
            assert body["level"] == "block" and body["judge_pending"] is True
            assert sources_of(smith.store) == [SOURCE_DETERMINISTIC], "answered before any judged grade"
            relay = relay_for(smith.store, slack)
            await relay.drain(within=PATIENCE_SECONDS)
            [parent] = slack.top_level(CHANNEL)
            assert "tone and pacing judged shortly" in json.dumps(parent.blocks, ensure_ascii=False)
            assert "Curt with a worried resident" not in json.dumps(
                [m.blocks for m in slack.messages(CHANNEL)]
            )

            await _until(lambda: bool(api.requests))  # the worker has asked the judge, in the background
            assert sources_of(smith.store) == [SOURCE_DETERMINISTIC], "the judge has not answered yet"
            api.gate.set()
            await _until(lambda: SOURCE_JUDGE in sources_of(smith.store))

            assert sources_of(smith.store) == [SOURCE_DETERMINISTIC, SOURCE_JUDGE], "a separate, later grade"
            await relay.drain(within=PATIENCE_SECONDS)
            updates = slack.calls_to("chat.update")
            assert updates, "the judged grade edited the post in place"
            assert {call["ts"] for call in updates} >= {parent.ts}
            assert "Curt with a worried resident" in json.dumps(slack.messages(CHANNEL)[-1].blocks)
            assert len(slack.messages(CHANNEL)) == 2, "edited in place, not posted again"
            edited = slack.message(CHANNEL, parent.ts)
            assert "judged shortly" not in json.dumps(edited.blocks, ensure_ascii=False)
            with smith.store.unit() as unit:
                assert unit.judging.pending() == 0
        finally:
            stop.set()
            await worker
            await smith.judge.aclose()
            smith.store.engine.dispose()


async def test_a_judgement_owed_before_a_restart_is_paid_after_it(store: Store) -> None:
    conversation = parse_conversation(LAMPLITER)
    result = Ingestor(store, judge=True).ingest(conversation)  # the server stops before judging
    assert result.judge_pending
    with store.unit() as unit:
        assert unit.judging.pending() == 1
    assert sources_of(store) == [SOURCE_DETERMINISTIC]

    async with FakeAnthropicAPI(responder=curt_tone) as api:
        config = JudgeConfig(api_key="test-key", base_url=api.base_url, timeout_seconds=PATIENCE_SECONDS)
        async with JudgeLane(config) as lane:
            restarted = JudgeWorker(store, lane, Ingestor(store, judge=True))
            assert await restarted.run_once() == 1
            assert await restarted.run_once() == 0, "paid once"

    assert sources_of(store) == [SOURCE_DETERMINISTIC, SOURCE_JUDGE]
    with store.unit() as unit:
        assert unit.judging.pending() == 0
        [turn] = [
            g for g in unit.grades.for_conversation(CONVERSATION) if g.source == SOURCE_JUDGE and g.turn_id
        ]
        assert turn.usage is not None and turn.usage["input_tokens"] > 0


async def test_a_judgement_of_an_outdated_version_is_not_recorded(store: Store) -> None:
    conversation = parse_conversation(LAMPLITER)
    ingestor = Ingestor(store, judge=True)
    ingestor.ingest(conversation)
    with store.unit() as unit:
        old_hash = unit.conversations.get(CONVERSATION).content_hash  # type: ignore[union-attr]
    grown = json.loads(LAMPLITER)
    grown["messages"][-1]["text"] += " We will follow up tomorrow."
    ingestor.ingest(parse_conversation(json.dumps(grown).encode()))

    async with FakeAnthropicAPI(responder=curt_tone) as api:
        config = JudgeConfig(api_key="test-key", base_url=api.base_url, timeout_seconds=PATIENCE_SECONDS)
        async with JudgeLane(config) as lane:
            stale = await grade_with_judge(conversation, lane)
    assert ingestor.record_judged(conversation, stale, old_hash, "judge-a") is None
    assert SOURCE_JUDGE not in sources_of(store)
    with store.unit() as unit:
        assert unit.judging.pending() == 1, "the newer version's judgement is still owed"


@pytest.mark.backends("postgres")
async def test_two_replicas_never_judge_the_same_request_twice(store: Store) -> None:
    ingestor = Ingestor(store, judge=True)
    ingestor.ingest(parse_conversation(LAMPLITER))

    async with FakeAnthropicAPI(responder=curt_tone) as api:
        config = JudgeConfig(api_key="test-key", base_url=api.base_url, timeout_seconds=PATIENCE_SECONDS)
        async with JudgeLane(config) as lane_a, JudgeLane(config) as lane_b:
            first = JudgeWorker(store, lane_a, ingestor, owner="replica-a")
            second = JudgeWorker(store, lane_b, ingestor, owner="replica-b")
            taken = await asyncio.gather(first.run_once(), second.run_once())

    assert sorted(taken) == [0, 1]
    assert len(api.requests) == 1, "one turn, judged once"
    assert sources_of(store) == [SOURCE_DETERMINISTIC, SOURCE_JUDGE]
