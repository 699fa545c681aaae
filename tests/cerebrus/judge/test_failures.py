"""API failures degrade to not_checked(judge_error), are counted by cause, and never raise."""

from __future__ import annotations

import socket
from collections.abc import Callable

import pytest

from cerebrus.judge import JudgeConfig, JudgeLane
from gradecore.model.contract import Conversation
from gradecore.model.vocabulary import Level, NotCheckedWhy, Outcome
from tests.fakes.anthropic_api import (
    Body,
    FakeAnthropicAPI,
    Reply,
    error_reply,
    judged_draft,
    never_answered,
    text_only_answer,
    tool_answer,
    tool_input_answer,
)

QUOTE = "Thanks for letting us know"
GENEROUS_TIMEOUT_SECONDS = 60.0
GOOD = {"score": 3, "quote": QUOTE, "reason": "Fine."}


def assert_degraded(results: tuple[object, ...], checks: tuple[str, ...] = ("tone", "pacing")) -> None:
    for result in results:
        if getattr(result, "check", None) in checks:
            assert getattr(result, "outcome", None) is Outcome.NOT_CHECKED
            assert getattr(result, "not_checked_why", None) is NotCheckedWhy.JUDGE_ERROR
            assert getattr(result, "level", None) is Level.PASS


@pytest.mark.parametrize(
    ("reply", "cause"),
    [
        (error_reply(500, "api_error"), "server_error"),
        (error_reply(529, "overloaded_error"), "server_error"),
        (error_reply(429, "rate_limit_error"), "rate_limited"),
        (error_reply(400, "invalid_request_error", "prompt is too long"), "rejected"),
        (never_answered(), "timeout"),
        (text_only_answer(), "malformed"),
    ],
    ids=["500", "529", "429", "400", "timeout", "text-only"],
)
async def test_api_failure_degrades_both_dimensions_and_is_counted(
    api: FakeAnthropicAPI,
    make_lane: Callable[..., JudgeLane],
    demo: Callable[[str], Conversation],
    reply: Reply,
    cause: str,
) -> None:
    api.responder = lambda body: reply
    # Only the never-answered request may time out, and it always does; every other answer comes back
    # well within a generous timeout however loaded the machine is.
    lane = make_lane(timeout_seconds=1.0 if cause == "timeout" else GENEROUS_TIMEOUT_SECONDS)

    result = await lane.judge_conversation(demo("oakridge-clean-maintenance"))

    assert_degraded(result.judged["t1"])
    assert [r.check for r in result.judged["t1"]] == ["tone", "pacing"]
    assert result.failures == {cause: 1}
    assert result.usage["t1"].failures == 1
    assert lane.failures[cause] == 1
    assert len(api.requests) == 1, "max_retries=0: a failure is never retried"


@pytest.mark.parametrize(
    ("tool_input", "degraded"),
    [
        ({"tone": GOOD}, ("pacing",)),  # a dimension missing
        ({"tone": {**GOOD, "score": 7}, "pacing": GOOD}, ("tone",)),  # score out of range
        ({"tone": {**GOOD, "score": "3"}, "pacing": GOOD}, ("tone",)),  # score not an integer
        ({"tone": {"score": 3, "reason": "no quote"}, "pacing": GOOD}, ("tone",)),  # field missing
        ({"verdict": "great"}, ("tone", "pacing")),
    ],
)
async def test_malformed_tool_input_degrades_only_what_is_malformed(
    api: FakeAnthropicAPI,
    make_lane: Callable[..., JudgeLane],
    demo: Callable[[str], Conversation],
    tool_input: Body,
    degraded: tuple[str, ...],
) -> None:
    api.responder = lambda body: tool_input_answer(tool_input)

    result = await make_lane().judge_conversation(demo("oakridge-clean-maintenance"))

    outcomes = {r.check: r for r in result.judged["t1"]}
    assert_degraded(tuple(outcomes.values()), degraded)
    for check in {"tone", "pacing"} - set(degraded):
        assert outcomes[check].outcome is Outcome.PASS
    assert result.failures == {"malformed": 1}


async def test_a_refusal_without_a_tool_call_is_counted_apart(
    api: FakeAnthropicAPI, make_lane: Callable[..., JudgeLane], demo: Callable[[str], Conversation]
) -> None:
    refusal = text_only_answer("I can't help with that.")
    refusal.body["stop_reason"] = "refusal"
    api.responder = lambda body: refusal

    result = await make_lane().judge_conversation(demo("oakridge-clean-maintenance"))

    assert_degraded(result.judged["t1"])
    assert result.failures == {"refused": 1}


async def test_unreachable_api_is_a_connection_failure(demo: Callable[[str], Conversation]) -> None:
    with socket.socket() as probe:  # a loopback port with nobody listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = JudgeConfig(api_key="test-key", base_url=f"http://127.0.0.1:{port}", timeout_seconds=2.0)

    async with JudgeLane(config) as lane:
        result = await lane.judge_conversation(demo("oakridge-clean-maintenance"))

    assert_degraded(result.judged["t1"])
    assert result.failures == {"connection": 1}


async def test_one_failing_turn_does_not_spoil_the_others(
    api: FakeAnthropicAPI, make_lane: Callable[..., JudgeLane], many_turns: Callable[[int], Conversation]
) -> None:
    conversation = many_turns(3)
    failing_message = conversation.turns[1].message_id

    def answer(body: Body) -> Reply:
        if judged_draft(body)["id"] == failing_message:
            return error_reply(500)
        return tool_answer((3, "the technician", "ok"), (3, "the technician", "ok"))

    api.responder = answer

    result = await make_lane().judge_conversation(conversation)

    assert result.failures == {"server_error": 1}
    assert_degraded(result.judged["t2"])
    assert [r.outcome for r in result.judged["t3"]] == [Outcome.PASS, Outcome.PASS]


async def test_a_rejected_temperature_is_dropped_once_and_for_all(
    api: FakeAnthropicAPI, make_lane: Callable[..., JudgeLane], demo: Callable[[str], Conversation]
) -> None:
    def answer(body: Body) -> Reply:
        if "temperature" in body:
            return error_reply(400, "invalid_request_error", "`temperature` is deprecated for this model.")
        return tool_answer((3, QUOTE, "ok"), (3, QUOTE, "ok"))

    api.responder = answer
    lane = make_lane()

    first = await lane.judge_conversation(demo("oakridge-clean-maintenance"))
    second = await lane.judge_conversation(demo("oakridge-clean-maintenance"))

    assert first.failures == {} and second.failures == {}
    assert [r.outcome for r in first.judged["t1"] + second.judged["t1"]] == [Outcome.PASS] * 4
    assert ["temperature" in body for body in api.requests] == [True, False, False]
