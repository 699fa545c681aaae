"""The builders on what the real engine concludes about the bundled examples (`cerebrus.grade`)."""

from __future__ import annotations

import pytest

import cerebrus
from blocks import PostContent, build_conversation_blocks, build_turn_blocks, validate_post
from tests.blocks.factories import demo_conversation
from tests.blocks.reading import block_texts, visible_text

FLAGGED = {
    "lampliter-unbacked-promise": "BLOCK",
    "camellia-double-send": "BLOCK",
    "birchwood-rent-mismatch": "REPAIR",
    "camellia-wrong-language": "HOLD",
    "birchwood-dead-thread": "HOLD",
}


def posts(name: str) -> tuple[PostContent, list[PostContent]]:
    conversation = demo_conversation(name)
    grade = cerebrus.grade(conversation)
    parent = build_conversation_blocks(
        grade,
        conversation,
        machine_grade_id="mg-1",
        conversation_url="https://app.example.com/c/1",
        idempotency_key="k",
    )
    replies = [
        build_turn_blocks(turn, grade, conversation, machine_grade_id="mg-2", idempotency_key="k")
        for turn in grade.flagged_turns
    ]
    return parent, replies


@pytest.mark.parametrize("name", sorted(FLAGGED))
def test_every_post_is_valid_plain_and_leak_free(name: str) -> None:
    conversation = demo_conversation(name)
    parent, replies = posts(name)
    assert parent.text.startswith(FLAGGED[name] + " · ")
    for content in (parent, *replies):
        validate_post(content)
        text = visible_text(content)
        assert not any(check in text for check in cerebrus.CHECK_IDS)
        assert conversation.conversation_id not in text
        assert not any(code in text for code in conversation.property.facts.access_codes)
        assert "DEGRADED" not in text and "Traceback" not in text


def test_dead_thread_has_a_parent_and_no_replies() -> None:
    parent, replies = posts("birchwood-dead-thread")
    assert replies == []
    assert "No single turn was flagged" in visible_text(parent)


def test_rent_mismatch_marks_the_amount() -> None:
    _, [reply] = posts("birchwood-rent-mismatch")
    assert "*$1,950*" in block_texts(reply)[1]


def test_double_send_splits_claras_from_ours_and_keeps_the_tool_error_for_engineers() -> None:
    parent, [reply] = posts("camellia-double-send")
    ours = next(text for text in block_texts(reply) if text.startswith("*A problem on our side"))
    claras = next(text for text in block_texts(reply) if text.startswith("*Clara's mistake*"))
    assert "tool failed" in ours and "tool failed" not in claras
    for post in (parent, reply):
        assert "TOUR_SLOTS_API_KEY" not in visible_text(post) and "get_tour_slots" not in visible_text(post)
    assert reply.metadata is not None
    notes = [note for d in reply.metadata.event_payload["detail"]["failed"] for note in d.get("notes", [])]
    assert any("TOUR_SLOTS_API_KEY" in note for note in notes)
    assert "••21" in block_texts(reply)[1]
