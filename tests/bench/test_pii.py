"""bench/pii.py: every class of personal data planted in en and es, none leaks, almost none refused."""

from __future__ import annotations

from bench import pii


def test_no_planted_item_leaks_and_at_most_five_percent_of_fixtures_are_refused() -> None:
    tallies = pii.run(count=60, seed=22)
    classes = {kind for kind in tallies if not kind.startswith("trap:")}
    # Every v3 class of docs/fixtures.md is planted (plus the v2 ones the issue found leaking).
    assert {
        "card", "ssn", "birth_date", "bank", "iban", "id_document", "unit_es", "hyphenated_surname",
        "spelled_email", "mentioned_name",
    } <= classes  # fmt: skip
    leaks = {kind: tally.examples for kind, tally in tallies.items() if tally.leaked}
    assert leaks == {}
    fixtures = 60 + 2 * len(pii.TRAPS)
    refused = sum(tally.refused for tally in tallies.values())
    assert refused <= 0.05 * fixtures, [example for t in tallies.values() for example in t.examples]


def test_the_report_prints_one_line_per_class_and_the_totals() -> None:
    lines: list[str] = []
    assert pii.main(["--count", "12"], out=lines.append) == 0
    text = "\n".join(lines)
    assert "card" in text and "trap:mailto" in text
    assert text.rstrip().endswith("total: 0 leaked, 0 refused")
