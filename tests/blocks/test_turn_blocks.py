"""The thread reply: turn headline and local time, marked draft, Clara's mistakes vs problems on our
side, receipts, engineering detail in the metadata only, button."""

from __future__ import annotations

from typing import Any

from blocks import build_conversation_blocks, build_turn_blocks, validate_post
from blocks.common import PostContent
from gradecore.model.contract import Conversation
from gradecore.model.grades import ConversationGrade
from gradecore.model.vocabulary import Evidence, Kind, Layer, Level, Owner
from tests.blocks.factories import (
    birchwood_rent,
    camellia_double_send,
    conversation_grade,
    dim,
    routine_passes,
    synthetic_conversation,
    turn_grade,
)
from tests.blocks.reading import block_texts, button_value, visible_text

OURS = "A problem on our side (engineers are told)"


def build(pair: tuple[ConversationGrade, Conversation], turn_index: int = 0) -> PostContent:
    grade, conversation = pair
    content = build_turn_blocks(
        grade.turns[turn_index], grade, conversation, machine_grade_id="mg-9", idempotency_key="post:t1"
    )
    validate_post(content)
    return content


def section_with(content: PostContent, heading: str) -> str:
    return next(text for text in block_texts(content) if text.startswith(f"*{heading}*"))


def test_turn_headline() -> None:
    content = build(birchwood_rent())
    # The local time of Clara's message, in the property's zone, under the headline.
    assert block_texts(content)[0] == "*Turn 1 · REPAIR · amount not on ledger*\nSat 28 Nov, 9:00 AM"
    assert content.text == "Turn 1 · REPAIR · amount not on ledger"


def test_failing_span_is_marked_in_the_draft() -> None:
    draft_block = block_texts(build(birchwood_rent()))[1]
    assert draft_block == (
        "What Clara wrote:\n"
        "> Great question! The 2 bedroom is *$1,950* per month, and the application fee is $45."
    )


def test_quoted_failure_without_span_is_marked_and_access_code_masked() -> None:
    content = build(camellia_double_send())
    draft_block = block_texts(content)[1]
    assert "*Our system had an error*" in draft_block
    assert "*buzz code ••21*" in draft_block
    assert "4821" not in visible_text(content)


def test_failures_grouped_claras_vs_ours_with_receipts() -> None:
    content = build(camellia_double_send())
    claras = section_with(content, "Clara's mistake")
    ours = section_with(content, OURS)
    assert (
        "*BLOCK · internal narration* — Clara talked about her own inner workings instead of just answering."
        in claras
    )
    assert "*BLOCK · access code to prospect*" in claras
    assert "tool failed" not in claras
    assert "*HOLD · tool failed* — One of the systems Clara relies on failed while she answered." in ours
    assert "internal narration" not in ours


def failed_detail(content: PostContent) -> list[dict[str, Any]]:
    assert content.metadata is not None
    failed: list[dict[str, Any]] = content.metadata.event_payload["detail"]["failed"]
    return failed


def test_raw_tool_error_is_detail_for_engineers_not_staff_text() -> None:
    content = build(camellia_double_send())
    assert "get_tour_slots" not in visible_text(content) and "TOUR_SLOTS_API_KEY" not in visible_text(content)
    tool = next(d for d in failed_detail(content) if d["check"] == "tools_succeeded")
    assert tool["layer"] == "tools" and tool["owner"] == "ours" and tool["tools"] == ["get_tour_slots"]
    assert "Missing secret TOUR_SLOTS_API_KEY in serving runtime" in tool["notes"][0]

    conversation = synthetic_conversation(["Sorry, one moment."])
    error = "Traceback-free but long: " + "x" * 1000
    failure = dim(
        "tools_succeeded",
        Layer.TOOLS,
        evidence=(Evidence(tool_name="get_tour_slots", step_index=0, detail=error),),
    )
    grade = conversation_grade(conversation, [], [turn_grade("turn-0", "out0", 1, [failure])])
    content = build((grade, conversation))
    assert "Traceback" not in visible_text(content)
    note = failed_detail(content)[0]["notes"][0]
    assert len(note) == 160 and note.endswith("…")


def test_passing_layers_are_in_the_metadata_not_the_text() -> None:
    content = build(birchwood_rent())
    assert "Passed:" not in visible_text(content)
    assert content.metadata is not None
    assert content.metadata.event_payload["detail"]["passed_layers"] == ["tools", "context", "loop", "shape"]


def test_advisory_judged_dimension_shown_apart_and_without_a_number() -> None:
    conversation = synthetic_conversation(["ok."])
    tone = dim(
        "tone",
        Layer.TONE,
        kind=Kind.JUDGED,
        score=1,
        colours=False,
        sentence="The reply is curt for a first contact.",
    )
    grade = conversation_grade(conversation, [], [turn_grade("turn-0", "out0", 1, [tone, *routine_passes()])])
    content = build((grade, conversation))
    advisory = section_with(content, "Advisory (not counted in the grade yet)")
    assert "• *tone — poor*: The reply is curt for a first contact." in advisory
    assert not any(text.startswith("*Clara's mistake*") for text in block_texts(content))
    assert "1/3" not in visible_text(content)


def test_button_names_the_turn_and_metadata_carries_it() -> None:
    grade, conversation = birchwood_rent()
    content = build((grade, conversation))
    assert button_value(content) == {"c": grade.conversation_id, "t": "t1", "g": "mg-9"}
    assert content.metadata is not None
    payload = dict(content.metadata.event_payload)
    detail = payload.pop("detail")
    assert payload == {
        "conversation_id": grade.conversation_id,
        "turn_id": "t1",
        "machine_grade_id": "mg-9",
        "idempotency_key": "post:t1",
    }
    assert detail["rubric"] == grade.rubric_version
    assert [d["check"] for d in detail["failed"]] == ["amounts_match_ledger"]


def test_raw_tool_error_is_in_neither_post_text() -> None:
    grade, conversation = camellia_double_send()
    parent = build_conversation_blocks(
        grade, conversation, machine_grade_id=None, conversation_url=None, idempotency_key="k"
    )
    assert "TOUR_SLOTS_API_KEY" not in visible_text(parent)
    assert "TOUR_SLOTS_API_KEY" not in visible_text(build((grade, conversation)))


def test_no_check_ids_or_turn_ids_visible() -> None:
    for pair in (birchwood_rent(), camellia_double_send()):
        text = visible_text(build(pair))
        assert "amounts_match_ledger" not in text and "no_internal_narration" not in text
        assert "t1" not in text and "mg-9" not in text and pair[0].conversation_id not in text


def test_owner_override_groups_by_owner_not_layer() -> None:
    conversation = synthetic_conversation(["Hello there, here you go."])
    double = dim("one_message_per_trigger", Layer.OUTPUT, owner=Owner.OURS, slug="double_reply")
    grade = conversation_grade(conversation, [], [turn_grade("turn-0", "out0", 1, [double])])
    content = build((grade, conversation))
    assert "double reply" in section_with(content, OURS)
    assert grade.turns[0].level is Level.HOLD


def test_the_rule_entry_that_fired_is_engineering_detail_only() -> None:
    conversation = synthetic_conversation(["Sorry, our system is down."])
    narration = dim(
        "no_internal_narration",
        Layer.OUTPUT,
        level=Level.BLOCK,
        evidence=(
            Evidence(message_id="out0", quote="our system is down", rule_entry="narration.failure_en"),
        ),
    )
    grade = conversation_grade(conversation, [], [turn_grade("turn-0", "out0", 1, [narration])])
    reply = build((grade, conversation))
    claras = section_with(reply, "Clara's mistake")
    assert "“our system is down”" in claras and "narration.failure_en" not in visible_text(reply)
    assert failed_detail(reply)[0]["rule_entries"] == ["narration.failure_en"]
    parent = build_conversation_blocks(
        grade, conversation, machine_grade_id=None, conversation_url=None, idempotency_key="k"
    )
    assert "narration.failure_en" not in visible_text(parent)
