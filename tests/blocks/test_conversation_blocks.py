"""The parent post: headline, who and when, what happened, whose mistake, scope, how to answer, button
and metadata (with the engineering detail the text leaves out)."""

from __future__ import annotations

from blocks import build_conversation_blocks, validate_post
from blocks.common import PostContent
from gradecore.model.contract import Conversation
from gradecore.model.grades import ConversationGrade
from gradecore.model.vocabulary import Evidence, Layer, NotCheckedWhy, Outcome
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


def test_says_who_and_when_in_the_propertys_time_zone() -> None:
    # The other party's first name and role, the channel, and the local time of the flagged turn.
    assert (
        "Lampliter · SMS with Morgan (prospect) · Tue 24 Nov, 9:02 AM" in block_texts(build(lampliter()))[1]
    )
    assert "Camellia · Email with Jordan (prospect) · Fri 17 Jul, 10:03 AM" in visible_text(
        build(camellia_double_send())
    )
    assert "SMS with Chris (resident)" in visible_text(build(birchwood_dead_thread()))


def test_without_a_name_the_party_is_named_by_role() -> None:
    text = visible_text(build(conversation_with_unnamed_prospect()))
    assert "Camellia · SMS with a prospect · Fri 17 Jul, 10:01 AM" in text


def conversation_with_unnamed_prospect() -> tuple[ConversationGrade, Conversation]:
    conversation = synthetic_conversation(["Hello there."])
    failing = dim("mandated_tools_called", Layer.LOOP)
    return conversation_grade(conversation, [], [turn_grade("turn-0", "out0", 1, [failing])]), conversation


def test_the_stored_property_name_wins_over_the_documents() -> None:
    grade, conversation = lampliter()
    content = build_conversation_blocks(
        grade,
        conversation,
        machine_grade_id=None,
        conversation_url=None,
        idempotency_key="k",
        property_name="The Lampliter Lofts",
    )
    assert block_texts(content)[1].startswith("The Lampliter Lofts · SMS with Morgan")


def test_counts_flagged_turns_or_says_none_was() -> None:
    assert "1 of 1 turn flagged — it is explained in this thread" in visible_text(build(lampliter()))
    text = visible_text(build(birchwood_dead_thread()))
    assert "No single turn was flagged — the problem is the conversation as a whole" in text


def test_flagged_count_says_how_many_the_thread_explains() -> None:
    grade, conversation = lampliter()
    content = build_conversation_blocks(
        grade,
        conversation,
        machine_grade_id=None,
        conversation_url=None,
        idempotency_key="k",
        turns_in_thread=0,
    )
    text = visible_text(content)
    assert "the first 0 are explained" in text and "each one is explained" not in text


def test_lists_conversation_checks_with_their_reason_sentence() -> None:
    text = visible_text(build(birchwood_dead_thread()))
    assert "*HOLD · unanswered question* — The resident's last question has had no answer for 2 days." in text
    assert "*What happened*" in text
    assert "“Is the pool open this weekend too?”" in text


def test_ownership_split_in_plain_words() -> None:
    text = visible_text(build(camellia_double_send()))
    assert "Clara's mistake and a problem on our side (engineers are told)" in text
    lampliter_text = visible_text(build(lampliter()))
    assert "Clara's mistake" in lampliter_text and "our side" not in lampliter_text
    assert "Ours" not in text and "output" not in text and "tools" not in text


def test_scope_statement_shown_with_judged_dimensions_named_as_judged() -> None:
    # Issue 13: "not checked: tone, pacing" sat beside a failing pacing check; judged dimensions now
    # read as judged, so they never contradict a failing layer.
    grade, conversation = lampliter()
    assert grade.scope.text.endswith("not checked: tone, pacing — judge lane off")
    text = visible_text(build((grade, conversation)))
    assert f"{len(grade.scope.checks_run)} checks ran · tone and pacing not rated this time" in text
    assert "not checked: tone" not in text and "judge lane" not in text


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
    payload = dict(content.metadata.event_payload)
    detail = payload.pop("detail")
    assert payload == {
        "conversation_id": grade.conversation_id,
        "turn_id": None,
        "machine_grade_id": "mg-77",
        "idempotency_key": "post:abc",
    }
    # What the text leaves out, for engineers: which checks failed, in which layer, whose, the rubric.
    assert {(d["check"], d["layer"], d["owner"]) for d in detail["failed"]} >= {
        ("one_message_per_trigger", "output", "ours"),
        ("tools_succeeded", "tools", "ours"),
    }
    assert detail["rubric"] == grade.rubric_version and detail["checks_run"] == len(grade.scope.checks_run)
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
        for needle in ("Chris (resident)", "— The resident", "No single turn", "checks ran", "👍")
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
    assert "1 check ran · tone not rated this time · not checked: the reply's language" in text
    assert "reply_language_matches" not in text and "reply language matches" not in text


def test_checks_that_did_not_apply_are_counted_not_named() -> None:
    conversation = synthetic_conversation(["Hello!"])
    skipped = [
        dim(name, Layer.HANDOFF, outcome=Outcome.NOT_CHECKED, why=NotCheckedWhy.NOT_APPLICABLE)
        for name in ("escalation_closed", "amounts_match_ledger")
    ]
    failing = dim("mandated_tools_called", Layer.LOOP)
    grade = conversation_grade(conversation, [], [turn_grade("turn-0", "out0", 1, [failing, *skipped])])
    text = visible_text(build((grade, conversation)))
    assert "1 check ran\n" in text or text.endswith("1 check ran")
    assert "escalation" not in text and "did not apply" not in text
    grade_detail = build((grade, conversation)).metadata
    assert grade_detail is not None
    assert ["escalation_closed", "not_applicable"] in grade_detail.event_payload["detail"]["not_checked"]


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
