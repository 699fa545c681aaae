"""Counting disagreement by rule entry, and the change proposed for each kind of entry."""

from __future__ import annotations

import tomllib
from datetime import timedelta
from typing import Any

from cerebrus import Rules
from gradecore.model.vocabulary import Level
from gradecore.persistence.store import Store
from smith.calibration.disagreements import NO_ENTRY, EntryDisagreement, disagreements, failing_entries
from smith.calibration.suggest import candidate_toml, suggest
from tests.scenarios.test_calibration_loop import MORNING, clean, promised_visit
from tests.scheduling.world import add_grader, ingest, react


def test_acts_are_counted_by_check_and_rule_entry(store: Store) -> None:
    """Hand-counted: 👍 agrees, 👎 disagrees, a correction to the machine's level agrees, to a lower
    level disagrees, to a higher one disagrees and is a miss, a note is not counted, and only each
    grader's standing act counts."""
    conversations = [promised_visit(index) for index in range(6)]
    for conversation in conversations:
        ingest(store, conversation, when=MORNING)
    maria = add_grader(store)
    sam = add_grader(store, "sam@oakridge.example")
    later = MORNING + timedelta(hours=2)

    def act(index: int, signal: Any, grader: int, **fields: Any) -> None:
        react(
            store,
            conversations[index].conversation_id,
            signal,
            when=later,
            grader=grader,
            turn_id="t1",
            **fields,
        )

    act(0, "up", maria)
    act(1, "down", maria)
    act(2, "correction", maria, expected=Level.BLOCK)  # the machine's own level: agrees
    act(3, "correction", maria, expected=Level.PASS)
    act(4, "correction", maria, note="just a comment")  # a note: not counted
    act(5, "down", sam)
    react(
        store,
        conversations[5].conversation_id,
        "up",
        when=later + timedelta(minutes=1),
        grader=sam,
        turn_id="t1",
    )

    rows = {(r.check, r.entry): r for r in disagreements(store, MORNING, MORNING + timedelta(days=1))}
    row = rows[("no_ungrounded_policy_claim", "visit.generic_en")]
    assert (row.acts, row.agreeing, row.disagreeing, row.wanted_higher) == (5, 3, 2, 0)
    assert row.share_disagreeing == 2 / 5
    assert len(row.examples) == 2 and all("Someone will be out" in e for e in row.examples)


def test_a_failure_without_a_named_entry_is_counted_under_its_check() -> None:
    dimensions = [
        {"check": "token_budget", "outcome": "fail", "evidence": [{"detail": "74,000 tokens > 60,000"}]},
        {"check": "tone", "outcome": "fail", "colours_verdict": False, "evidence": [{"quote": "x"}]},
        {"check": "followup_exists", "outcome": "pass", "evidence": []},
    ]
    assert list(failing_entries(dimensions)) == [("token_budget", NO_ENTRY)]


def _row(
    check: str, entry: str, *, acts: int, disagreeing: int, higher: int = 0, details: list[str] | None = None
) -> EntryDisagreement:
    return EntryDisagreement(
        check,
        entry,
        acts=acts,
        agreeing=acts - disagreeing,
        disagreeing=disagreeing,
        wanted_higher=higher,
        verdict_ids=list(range(1, disagreeing + 1)),
        details=details or [],
    )


def test_each_kind_of_entry_gets_the_smallest_change() -> None:
    rules = Rules()
    rows = [
        _row("no_internal_narration", "machinery.database", acts=8, disagreeing=7),
        _row("no_ungrounded_policy_claim", "visit.trade_en", acts=6, disagreeing=5),
        _row(
            "token_budget",
            NO_ENTRY,
            acts=5,
            disagreeing=5,
            details=["74,500 tokens > 60,000", "61,000 tokens > 60,000"],
        ),
        _row("amounts_match_ledger", "amounts.wrong_item:rent_2br", acts=5, disagreeing=4),
        _row("no_access_code_to_prospect", "access_code.whole_token", acts=9, disagreeing=9),
        _row("no_internal_narration", "narration.failure_en", acts=6, disagreeing=6, higher=5),
        _row("followup_exists", "ask.question_mark", acts=3, disagreeing=3),  # too few acts
        _row("loop_progress", NO_ENTRY, acts=10, disagreeing=4),  # too small a share
    ]
    found = suggest(rows, rules, min_acts=5, min_share=0.5)
    assert [(s.entry, s.kind) for s in found] == [
        ("machinery.database", "disable"),
        ("visit.trade_en", "disable"),
        (NO_ENTRY, "threshold"),
        ("amounts.wrong_item:rent_2br", "no_labels"),
        ("access_code.whole_token", "manual"),
        ("narration.failure_en", "missed"),
    ]
    text = candidate_toml(found, rules, window="2026-11-01 to 2026-12-01")
    candidate = tomllib.loads(text)
    assert candidate["narration"] == [{"id": "machinery.database", "enabled": False}]
    assert candidate["promises"] == [
        {"id": "vendor_visit", "patterns": [{"id": "visit.trade_en", "enabled": False}]}
    ]
    assert candidate["thresholds"] == {"token_budget": 75_000}
    assert candidate["amount_labels"] == {"rent_2br": []}
    assert "7 of 8 acts disagreed" in text and "missed: write a rule" in text
    assert "access_code" not in str(candidate)  # never disabled by a machine


def test_a_suggested_candidate_loads_as_a_rules_file(tmp_path: Any) -> None:
    from cerebrus import load_rules

    rules = Rules()
    rows = [
        _row("no_internal_narration", "machinery.database", acts=8, disagreeing=7),
        _row("no_ungrounded_policy_claim", "visit.generic_en", acts=10, disagreeing=9),
        _row("token_budget", NO_ENTRY, acts=5, disagreeing=5, details=["74,500 tokens > 60,000"]),
    ]
    path = tmp_path / "candidate.toml"
    path.write_text(
        candidate_toml(suggest(rows, rules, min_acts=5, min_share=0.5), rules, window="w"), encoding="utf-8"
    )
    loaded = load_rules(path)
    assert loaded.thresholds.token_budget == 75_000
    assert not next(p for p in loaded.narration if p.id == "machinery.database").enabled
    vendor = next(p for p in loaded.promises if p.id == "vendor_visit")
    assert not next(p for p in vendor.patterns if p.id == "visit.generic_en").enabled
    assert next(p for p in vendor.patterns if p.id == "visit.trade_en").enabled  # the rest untouched


def test_the_digest_lists_rules_people_disagree_with(store: Store) -> None:
    from smith.calibration.disagreements import digest_lines

    conversation = promised_visit(0)
    ingest(store, conversation, when=MORNING)
    ingest(store, clean(1), when=MORNING)
    grader = add_grader(store)
    react(
        store,
        conversation.conversation_id,
        "down",
        when=MORNING + timedelta(hours=1),
        grader=grader,
        turn_id="t1",
    )
    lines = digest_lines(store, MORNING, MORNING + timedelta(days=1))
    assert lines == ["no_ungrounded_policy_claim · visit.generic_en: 1 of 1 acts disagreed (100%)"]
    assert digest_lines(store, MORNING + timedelta(days=2), MORNING + timedelta(days=3)) == [
        "no disagreement with a rule entry this week"
    ]
