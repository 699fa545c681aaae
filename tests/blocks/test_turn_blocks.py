"""The thread reply: turn headline, marked draft, Clara's vs Ours, receipts, passing layers, button."""

from __future__ import annotations

from blocks import build_conversation_blocks, build_turn_blocks, validate_post
from blocks.common import PostContent
from gradecore.contract import Conversation
from gradecore.grades import ConversationGrade
from gradecore.vocabulary import Evidence, Kind, Layer, Level, Owner
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
    assert block_texts(content)[0] == "*Turn 1 · REPAIR · amount not on ledger*"
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
    claras = section_with(content, "Clara's")
    ours = section_with(content, "Ours (context/tools/data)")
    assert "*BLOCK · internal narration* — Clara told the prospect about an internal system error." in claras
    assert "*BLOCK · access code to prospect*" in claras
    assert "tool failed" not in claras
    assert "*HOLD · tool failed* — The tour-slot lookup failed" in ours
    assert "internal narration" not in ours


def test_raw_tool_error_quoted_and_truncated() -> None:
    ours = section_with(build(camellia_double_send()), "Ours (context/tools/data)")
    assert "tool get_tour_slots (step 2 of the loop)" in ours
    assert "“Missing secret TOUR_SLOTS_API_KEY in serving runtime”" in ours

    conversation = synthetic_conversation(["Sorry, one moment."])
    error = "Traceback-free but long: " + "x" * 1000
    failure = dim(
        "tools_succeeded",
        Layer.TOOLS,
        evidence=(Evidence(tool_name="get_tour_slots", step_index=0, detail=error),),
    )
    grade = conversation_grade(conversation, [], [turn_grade("turn-0", "out0", 1, [failure])])
    ours = section_with(build((grade, conversation)), "Ours (context/tools/data)")
    quoted = ours.split("“", 1)[1].split("”", 1)[0]
    assert len(quoted) == 200 and quoted.endswith("…")


def test_passing_layers_in_one_line() -> None:
    assert block_texts(build(birchwood_rent()))[-2] == "Passed: tools, context, loop, shape"


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
    assert not any(text.startswith("*Clara's*") for text in block_texts(content))
    assert "1/3" not in visible_text(content)


def test_button_names_the_turn_and_metadata_carries_it() -> None:
    grade, conversation = birchwood_rent()
    content = build((grade, conversation))
    assert button_value(content) == {"c": grade.conversation_id, "t": "t1", "g": "mg-9"}
    assert content.metadata is not None
    assert content.metadata.event_payload == {
        "conversation_id": grade.conversation_id,
        "turn_id": "t1",
        "machine_grade_id": "mg-9",
        "idempotency_key": "post:t1",
    }


def test_raw_tool_error_only_in_the_thread_reply() -> None:
    grade, conversation = camellia_double_send()
    parent = build_conversation_blocks(
        grade, conversation, machine_grade_id=None, conversation_url=None, idempotency_key="k"
    )
    assert "TOUR_SLOTS_API_KEY" not in visible_text(parent)
    assert "TOUR_SLOTS_API_KEY" in visible_text(build((grade, conversation)))


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
    assert "double reply" in section_with(content, "Ours (context/tools/data)")
    assert grade.turns[0].level is Level.HOLD


def test_the_rule_entry_that_fired_is_small_print_in_the_thread_reply_only() -> None:
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
    claras = section_with(build((grade, conversation)), "Clara's")
    assert "“our system is down” · _rule: narration.failure_en_" in claras
    parent = build_conversation_blocks(
        grade, conversation, machine_grade_id=None, conversation_url=None, idempotency_key="k"
    )
    assert "narration.failure_en" not in visible_text(parent)
