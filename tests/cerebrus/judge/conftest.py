"""Fixtures for the judge lane: demo conversations, a multi-turn builder, and a lane on the fake API."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from cerebrus.judge import JudgeConfig, JudgeLane
from gradecore.model.contract import Conversation, parse_conversation, validate_conversation
from tests.fakes.anthropic_api import Body, FakeAnthropicAPI, Reply, judged_draft, tool_answer

DEMO_DATA = Path(__file__).resolve().parents[3] / "smith" / "demo_data"


def demo_document(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((DEMO_DATA / f"{name}.json").read_text())
    return document


@pytest.fixture
def demo_json() -> Callable[[str], dict[str, Any]]:
    """A bundled demo document as a mutable dict, to derive variants from."""
    return demo_document


@pytest.fixture
def demo() -> Callable[[str], Conversation]:
    """Load a bundled demo conversation by file stem."""

    def load(name: str) -> Conversation:
        return parse_conversation((DEMO_DATA / f"{name}.json").read_bytes())

    return load


@pytest.fixture
def many_turns() -> Callable[[int], Conversation]:
    """The Oakridge conversation grown to `n` Clara turns (one short reply each)."""

    def build(n: int) -> Conversation:
        document = demo_document("oakridge-clean-maintenance")
        template = document["turns"][0]
        for k in range(2, n + 1):
            message_id = f"m{k + 1}"
            document["messages"].append(
                {
                    "id": message_id,
                    "at": f"2026-11-29T16:{10 + k:02d}:00Z",
                    "author": "clara",
                    "direction": "outbound",
                    "text": f"Update {k}: the technician is still on schedule for tomorrow.",
                    "language": "en",
                }
            )
            document["turns"].append({**template, "id": f"t{k}", "message_id": message_id})
        return validate_conversation(document)

    return build


def fine_scores(body: Body) -> Reply:
    """Score 3 on both dimensions, quoting the draft's first 20 characters (a valid receipt)."""
    quote = judged_draft(body)["text"][:20]
    return tool_answer(tone=(3, quote, "Warm and clear."), pacing=(3, quote, "Answers and moves on."))


@pytest.fixture
async def api() -> AsyncIterator[FakeAnthropicAPI]:
    async with FakeAnthropicAPI(responder=fine_scores) as server:
        yield server


@pytest.fixture
async def make_lane(api: FakeAnthropicAPI) -> AsyncIterator[Callable[..., JudgeLane]]:
    """Build lanes pointed at the fake API (keyword arguments override JudgeConfig); closed afterwards."""
    lanes: list[JudgeLane] = []

    def make(calibrated: frozenset[str] = frozenset(), **overrides: Any) -> JudgeLane:
        settings: dict[str, Any] = {"api_key": "test-key", "base_url": api.base_url, "timeout_seconds": 60.0}
        settings.update(overrides)
        lane = JudgeLane(JudgeConfig(**settings), calibrated=calibrated)
        lanes.append(lane)
        return lane

    yield make
    for lane in lanes:
        await lane.aclose()
