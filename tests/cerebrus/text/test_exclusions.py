"""Exclusions (cerebrus/text/exclusions.py): what takes a narration or promise match back, by where it stands;
each one has an id a rules file can disable."""

from __future__ import annotations

from pathlib import Path

import pytest

from cerebrus import Rules, load_rules
from gradecore.model.vocabulary import Outcome
from tests.cerebrus.builders import ConversationBuilder
from tests.cerebrus.helpers import run_check


def narration(draft: str, rules: Rules | None = None) -> Outcome:
    conversation = ConversationBuilder().inbound("Hi").reply(draft, language="en").build()
    return run_check(conversation, "no_internal_narration", rules).outcome


def promise(draft: str, intent: str = "maintenance_request") -> Outcome:
    conversation = ConversationBuilder().inbound("Leak").reply(draft, language="en", intent=intent).build()
    return run_check(conversation, "no_ungrounded_policy_claim").outcome


@pytest.mark.parametrize(
    ("draft", "outcome"),
    [
        # The resident-facing instruction, and its narrating twin.
        ("If the app isn't working for you, you can always pay by check at the office.", Outcome.PASS),
        ("The app isn't working, so I can't take your payment.", Outcome.FAIL),
        # "if" must govern the failure clause: in the sentence, before it.
        ("Our portal is down right now, so if you can, pay by check.", Outcome.FAIL),
        ("Call us if you need anything. Our portal is down right now.", Outcome.FAIL),
        # A dot between digits ends no sentence: the "if" still governs.
        ("If the fee is $1.50 and the portal is down, pay at the office.", Outcome.PASS),
        # A past outage announced as fixed; an outage with no such news.
        ("The resident portal was down last night but it's back up now.", Outcome.PASS),
        ("The resident portal was down last night and should be back soon.", Outcome.FAIL),
        # Machinery vocabulary is jargon wherever it stands.
        ("If the database is slow, I'll call you.", Outcome.FAIL),
    ],
)
def test_narration_exclusions(draft: str, outcome: Outcome) -> None:
    assert narration(draft) is outcome


@pytest.mark.parametrize(
    ("draft", "intent", "outcome"),
    [
        (
            "Would you like me to send someone over this afternoon?",
            "maintenance_request",
            Outcome.NOT_CHECKED,
        ),
        ("If you'd like, we'll send a plumber out.", "maintenance_request", Outcome.NOT_CHECKED),
        # A condition is no offer: the promise still stands (corpus case 38).
        (
            "If it still won't budge, someone will be out by eight thirty.",
            "maintenance_request",
            Outcome.FAIL,
        ),
        ("Your replacement filter is on the way.", "maintenance_request", Outcome.NOT_CHECKED),
        ("Your refund is on the way, and a plumber is coming at 4.", "maintenance_request", Outcome.FAIL),
        ("Help is on the way!", "maintenance_request", Outcome.FAIL),
        ("Help is on the way!", "tour_request", Outcome.NOT_CHECKED),
    ],
)
def test_promise_exclusions(draft: str, intent: str, outcome: Outcome) -> None:
    assert promise(draft, intent) is outcome


def test_a_rules_file_disables_an_exclusion_by_id(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text('[[exclusions]]\nid = "exclude.if_clause_en"\nenabled = false\n', encoding="utf-8")
    draft = "If the portal is down, call the office."
    assert narration(draft) is Outcome.PASS
    assert narration(draft, load_rules(path)) is Outcome.FAIL


def test_an_exclusion_id_may_not_repeat_a_pattern_id() -> None:
    with pytest.raises(ValueError, match="used twice"):
        Rules.model_validate(
            {
                "exclusions": [
                    {
                        "id": "narration.failure_en",
                        "pattern": "if",
                        "applies_to": "narration",
                        "position": "before",
                    }
                ]
            }
        )


def test_a_match_never_runs_over_a_sentence_end() -> None:
    # "the [1-2] {machinery_noun}" could gap over the "!": "the mix-up! Our system had an error".
    conversation = (
        ConversationBuilder()
        .inbound("Hi")
        .reply("Sorry for the mix-up! Our system had an error earlier.", language="en")
        .build()
    )
    finding = run_check(conversation, "no_internal_narration")
    assert finding.outcome is Outcome.FAIL
    assert [e.quote for e in finding.evidence] == ["Our system had an error"]
