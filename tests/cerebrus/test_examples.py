"""The six shipped example conversations (smith/demo_data) grade exactly as they are labelled."""

from __future__ import annotations

from pathlib import Path

import pytest

import cerebrus
from gradecore.model.contract import parse_conversation
from gradecore.model.grades import ConversationGrade
from gradecore.model.vocabulary import Level, Outcome, Owner

DEMO_DATA = Path(__file__).resolve().parents[2] / "smith" / "demo_data"


def _grade(name: str) -> ConversationGrade:
    return cerebrus.grade(parse_conversation((DEMO_DATA / name).read_bytes()))


def _failing(grade: ConversationGrade) -> set[tuple[str, str]]:
    found = {("conversation", d.check) for d in grade.dimensions if d.outcome is Outcome.FAIL}
    found |= {(t.turn_id, d.check) for t in grade.turns for d in t.failures}
    return found


@pytest.mark.parametrize(
    ("name", "level", "failing"),
    [
        ("lampliter-unbacked-promise.json", Level.BLOCK, {("t1", "no_ungrounded_policy_claim")}),
        (
            "camellia-double-send.json",
            Level.BLOCK,
            {
                ("conversation", "one_message_per_trigger"),
                ("t1", "tools_succeeded"),
                ("t1", "no_internal_narration"),
                ("t1", "no_access_code_to_prospect"),
            },
        ),
        ("birchwood-rent-mismatch.json", Level.REPAIR, {("t1", "amounts_match_ledger")}),
        ("oakridge-clean-maintenance.json", Level.PASS, set()),
        ("camellia-wrong-language.json", Level.HOLD, {("t1", "reply_language_matches")}),
        ("birchwood-dead-thread.json", Level.HOLD, {("conversation", "followup_exists")}),
    ],
)
def test_example_grades_as_documented(name: str, level: Level, failing: set[tuple[str, str]]) -> None:
    grade = _grade(name)
    assert grade.level is level
    assert _failing(grade) == failing


def test_rent_mismatch_marks_the_exact_amount() -> None:
    grade = _grade("birchwood-rent-mismatch.json")
    (evidence,) = grade.turns[0].failures[0].evidence
    draft = parse_conversation((DEMO_DATA / "birchwood-rent-mismatch.json").read_bytes()).message("m2").text
    assert evidence.quote == "$1,950"
    assert evidence.span is not None
    assert draft[evidence.span.start : evidence.span.end] == "$1,950"
    assert grade.headline.text == "REPAIR · amount mismatch"


def test_unbacked_promise_headline_and_owner() -> None:
    grade = _grade("lampliter-unbacked-promise.json")
    assert grade.headline.text == "BLOCK · unbacked promise"
    assert grade.worst_owner() is Owner.CLARA
    assert grade.flagged_turns[0].turn_id == "t1"


def test_double_send_splits_ours_from_claras() -> None:
    grade = _grade("camellia-double-send.json")
    assert grade.split.ours == ("tools", "output")  # tools_succeeded; one_message_per_trigger is ours
    assert grade.split.clara == ("output",)
    tools = next(d for d in grade.turns[0].dimensions if d.check == "tools_succeeded")
    assert tools.owner is Owner.OURS
    assert "4821" not in grade.model_dump_json()


def test_dead_thread_flags_no_turn() -> None:
    grade = _grade("birchwood-dead-thread.json")
    assert grade.flagged_turns == ()
    assert grade.headline.check == "followup_exists"
    assert grade.headline.turn_id is None


def test_clean_conversation_headline_is_clean() -> None:
    grade = _grade("oakridge-clean-maintenance.json")
    assert grade.headline.reason.slug == "clean"
    assert grade.worst_owner() is None
    promise = next(d for d in grade.turns[0].dimensions if d.check == "no_ungrounded_policy_claim")
    assert promise.outcome is Outcome.PASS
