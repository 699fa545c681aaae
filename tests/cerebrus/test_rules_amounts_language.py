"""Rules-file settings of the amounts and language checks: `amount_labels` per ledger key and the
language-confidence threshold, merged over the defaults, with a one-line error when malformed."""

from __future__ import annotations

from pathlib import Path

import pytest

from cerebrus import Rules, RulesError, load_rules
from tests.cerebrus.builders import ConversationBuilder
from tests.cerebrus.helpers import run_check


def test_defaults() -> None:
    rules = Rules()
    assert rules.amount_labels == {}  # labels are derived from the ledger keys
    assert rules.thresholds.language_confidence == 0.75


def test_a_rules_file_sets_labels_per_key_and_the_language_threshold(tmp_path: Path) -> None:
    labels = '[amount_labels]\nrent_2br = ["two-bed", "dos recámaras"]\n'
    rules = load_rules(_write(tmp_path / "rules.toml", labels + "[thresholds]\nlanguage_confidence = 0.9\n"))
    assert rules.amount_labels == {"rent_2br": ("two-bed", "dos recámaras")}
    assert rules.thresholds.language_confidence == 0.9
    assert rules.thresholds.max_iterations == 6  # the other thresholds keep their defaults
    assert rules.rubric_version != Rules().rubric_version

    ledger = {"amounts": {"rent_1br": 1425, "rent_2br": 1780}}
    draft = "The two-bed is $1,425 a month."
    conversation = ConversationBuilder(facts=ledger).inbound("Price?").reply(draft).build()
    result = run_check(conversation, "amounts_match_ledger", rules)
    assert [e.rule_entry for e in result.evidence] == ["amounts.wrong_item:rent_2br"]


def test_labels_merge_key_by_key(tmp_path: Path) -> None:
    base = load_rules(_write(tmp_path / "a.yaml", "amount_labels:\n  rent_2br: [two-bed]\n"))
    merged = load_rules(_write(tmp_path / "b.yaml", "amount_labels:\n  parking: [garage]\n"), base=base)
    assert merged.amount_labels == {"rent_2br": ("two-bed",), "parking": ("garage",)}


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ('[amount_labels]\nrent_2br = [""]', "amount_labels.rent_2br.0"),
        ("[amount_labels]\nrent_2br = 'two-bed'", "amount_labels.rent_2br"),
        ("[thresholds]\nlanguage_confidence = 1.5", "thresholds.language_confidence"),
        ("[thresholds]\nlanguage_confidence = 0", "thresholds.language_confidence"),
    ],
)
def test_a_malformed_setting_is_one_clear_line(tmp_path: Path, content: str, problem: str) -> None:
    path = _write(tmp_path / "bad.toml", content)
    with pytest.raises(RulesError) as caught:
        load_rules(path)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"rules file {path}: ")
    assert problem in message


def _write(path: Path, content: str) -> Path:
    path.write_text(content, encoding="utf-8")
    return path
