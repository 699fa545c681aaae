"""The parent post: headline, where/who, split, scope, how to answer, button and metadata."""

from __future__ import annotations

from blocks import build_conversation_blocks, validate_post
from blocks.common import PostContent
from gradecore.contract import Conversation
from gradecore.grades import ConversationGrade
from gradecore.vocabulary import Evidence, Layer, NotCheckedWhy, Outcome
from tests.blocks.factories import (
    birchwood_dead_thread,
    camellia_double_send,
    conversation_grade,
    dim,
    judge_off,
    lampliter,
    synthetic_conversation,
    turn_grade,
)
from tests.blocks.reading import block_texts, button_value, visible_text

CHECK_IDS = (
    "no_ungrounded_policy_claim",
    "one_message_per_trigger",
    "tools_succeeded",
    "no_internal_narration",
    "no_access_code_to_prospect",
    "followup_exists",
)


def build(pair: tuple[ConversationGrade, Conversation], url: str | None = None) -> PostContent:
    grade, conversation = pair
    content = build_conversation_blocks(
        grade, conversation, machine_grade_id="mg-77", conversation_url=url, idempotency_key="post:abc"
    )
    validate_post(content)
    return content


def test_headline_is_worst_level_and_reason_title() -> None:
    content = build(lampliter())
    header = content.blocks[0].to_dict()
    assert header["type"] == "header"
    assert header["text"]["text"] == "BLOCK · unbacked promise"
    assert content.text.startswith("BLOCK · unbacked promise")


def test_says_property_channel_and_other_party() -> None:
    assert "Lampliter · SMS · with a prospect" in visible_text(build(lampliter()))
    assert "Camellia · Email · with a prospect" in visible_text(build(camellia_double_send()))
    assert "with a resident" in visible_text(build(birchwood_dead_thread()))


def test_counts_flagged_turns_or_says_none_was() -> None:
    assert "1 of 1 turn flagged" in visible_text(build(lampliter()))
    text = visible_text(build(birchwood_dead_thread()))
    assert "No turn flagged — only the conversation checks above failed" in text


def test_lists_conversation_checks_with_their_reason_sentence() -> None:
    text = visible_text(build(birchwood_dead_thread()))
    assert "*HOLD · unanswered question* — The resident's last question has had no answer for 2 days." in text
    assert "“Is the pool open this weekend too?”" in text


def test_ownership_split_in_plain_words() -> None:
    text = visible_text(build(camellia_double_send()))
    assert "Clara's part: output · Ours (context/tools/data): output, tools" in text
    assert "Clara's part: output · Ours (context/tools/data): nothing" in visible_text(build(lampliter()))


def test_scope_statement_shown_with_judged_dimensions_named_as_judged() -> None:
    # Issue 13: "not checked: tone, pacing" sat beside a failing pacing check; judged dimensions now
    # read as judged, so they never contradict a failing layer.
    grade, conversation = lampliter()
    assert grade.scope.text.endswith("not checked: tone, pacing — judge lane off")
    text = visible_text(build((grade, conversation)))
    assert f"{len(grade.scope.checks_run)} checks · tone and pacing not judged — judge lane off" in text
    assert "not checked: tone" not in text


def test_how_to_respond_and_correct_grade_button() -> None:
    content = build(lampliter())
    assert '👍 grade is right · 👎 grade is wrong — reply "Should be PASS — why"' in visible_text(content)
    grade, _ = lampliter()
    assert button_value(content) == {"c": grade.conversation_id, "t": None, "g": "mg-77"}
    actions = content.blocks[-1].to_dict()
    assert actions["elements"][0]["text"]["text"] == "Correct this grade"  # issue 13: not "grade is correct"


def test_metadata_traces_the_post_back() -> None:
    grade, conversation = camellia_double_send()
    content = build((grade, conversation))
    assert content.metadata is not None
    assert content.metadata.event_type == "smith_grade"
    assert content.metadata.event_payload == {
        "conversation_id": grade.conversation_id,
        "turn_id": None,
        "machine_grade_id": "mg-77",
        "idempotency_key": "post:abc",
    }
    assert content.as_message()["metadata"]["event_payload"]["idempotency_key"] == "post:abc"


def test_no_internal_ids_no_score_no_engine_words() -> None:
    for pair in (lampliter(), camellia_double_send(), birchwood_dead_thread()):
        text = visible_text(build(pair, url="https://app.example.com/c/123"))
        grade = pair[0]
        assert grade.conversation_id not in text
        assert "mg-77" not in text and "post:abc" not in text
        assert not any(check in text for check in CHECK_IDS)
        assert "DEGRADED" not in text and "Traceback" not in text
        assert "/3" not in text and "score" not in text.lower()


def test_parent_never_shows_raw_tool_error_or_access_code() -> None:
    text = visible_text(build(camellia_double_send()))
    assert "TOUR_SLOTS_API_KEY" not in text
    assert "4821" not in text


def test_link_to_conversation_when_url_given() -> None:
    text = visible_text(build(lampliter(), url="https://app.example.com/c?id=1&tab=2"))
    assert "<https://app.example.com/c?id=1&amp;tab=2|Open the conversation>" in text
    assert "Open the conversation" not in visible_text(build(lampliter()))


def test_link_cannot_be_broken_by_the_url() -> None:
    text = visible_text(build(lampliter(), url="https://x.example/a|b>c d"))
    assert "<https://x.example/a%7Cb%3Ec%20d|Open the conversation>" in text
    assert "Open the conversation" not in visible_text(build(lampliter(), url="javascript:alert(1)"))


def test_block_order_reads_top_down() -> None:
    texts = block_texts(build(birchwood_dead_thread()))
    order = [
        next(i for i, t in enumerate(texts) if needle in t)
        for needle in ("— The resident", "No turn flagged", "Clara's part", "judge lane off", "👍")
    ]
    assert order == sorted(order)


def test_scope_statement_turns_check_ids_into_words_and_says_why() -> None:
    conversation = synthetic_conversation(["Hola!"])
    short = dim(
        "reply_language_matches", Layer.OUTPUT, outcome=Outcome.NOT_CHECKED, why=NotCheckedWhy.TOO_SHORT
    )
    tone = judge_off(Layer.TONE)
    failing = dim("mandated_tools_called", Layer.LOOP)
    grade = conversation_grade(conversation, [], [turn_grade("turn-0", "out0", 1, [failing, short, tone])])
    text = visible_text(build((grade, conversation)))
    assert (
        "1 check · not checked: reply language matches — too short to tell · tone not judged — judge lane off"
        in text
    )
    assert "reply_language_matches" not in text


def test_checks_that_did_not_apply_are_counted_not_named() -> None:
    conversation = synthetic_conversation(["Hello!"])
    skipped = [
        dim(name, Layer.HANDOFF, outcome=Outcome.NOT_CHECKED, why=NotCheckedWhy.NOT_APPLICABLE)
        for name in ("escalation_closed", "amounts_match_ledger")
    ]
    failing = dim("mandated_tools_called", Layer.LOOP)
    grade = conversation_grade(conversation, [], [turn_grade("turn-0", "out0", 1, [failing, *skipped])])
    text = visible_text(build((grade, conversation)))
    assert "1 check · 2 did not apply here" in text
    assert "escalation" not in text


def test_message_receipts_name_the_writer_by_role_and_hide_engine_details() -> None:
    grade, conversation = camellia_double_send()
    double = grade.dimensions[0].model_copy(
        update={
            "evidence": (
                Evidence(message_id="m2", detail="reply by tmpl (system)"),
                Evidence(message_id="m3", detail="reply by clara (clara)"),
            )
        }
    )
    text = visible_text(build((grade.model_copy(update={"dimensions": (double,)}), conversation)))
    assert "an automated message wrote: “Tour Confirmed - Monday, July 20 at 1:00 PM" in text
    assert "Clara wrote: “Hi Jordan, sorry for the mix-up!" in text
    assert "tmpl" not in text and "reply by" not in text
