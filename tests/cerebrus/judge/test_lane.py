"""The lane's switch and its bound: off means no HTTP at all; on means at most N calls in flight."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from cerebrus.judge import JudgeConfig, JudgeLane
from gradecore.model.contract import Conversation
from tests.fakes.anthropic_api import FakeAnthropicAPI


@pytest.mark.parametrize("api_key", [None, ""])
async def test_lane_off_makes_no_http_calls(
    api: FakeAnthropicAPI, demo: Callable[[str], Conversation], api_key: str | None
) -> None:
    async with JudgeLane(JudgeConfig(api_key=api_key, base_url=api.base_url)) as lane:
        result = await lane.judge_conversation(demo("oakridge-clean-maintenance"))

    assert lane.enabled is False
    assert result.judged == {} and result.usage == {}
    assert result.calls == 0
    assert api.requests == []


async def test_one_call_per_turn_within_the_concurrency_bound(
    api: FakeAnthropicAPI, make_lane: Callable[..., JudgeLane], many_turns: Callable[[int], Conversation]
) -> None:
    conversation = many_turns(9)

    result = await make_lane(max_concurrency=3).judge_conversation(conversation)

    assert len(api.requests) == 9
    assert sorted(result.judged) == sorted(turn.id for turn in conversation.turns)
    assert api.max_in_flight == 3, "the bound must be reached (calls overlap) and never exceeded"


async def test_bound_is_shared_by_conversations_judged_at_once(
    api: FakeAnthropicAPI, make_lane: Callable[..., JudgeLane], many_turns: Callable[[int], Conversation]
) -> None:
    lane = make_lane(max_concurrency=2)

    await asyncio.gather(*(lane.judge_conversation(many_turns(4)) for _ in range(3)))

    assert len(api.requests) == 12
    assert api.max_in_flight == 2
    assert lane.calls == 12


def test_config_rejects_a_useless_bound() -> None:
    with pytest.raises(ValueError, match="max_concurrency"):
        JudgeConfig(api_key="k", max_concurrency=0)


def test_the_api_key_never_shows_in_a_repr() -> None:
    assert "sk-secret" not in repr(JudgeConfig(api_key="sk-secret"))
