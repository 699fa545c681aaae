"""Which rule entries the humans keep disagreeing with.

Every standing act (each grader's latest, not retracted) in a window on a grade that failed is
counted once under each (check, rule entry) its failing dimensions name. An act agrees when it is a
👍 or a correction to the machine's own level; it disagrees when it is a 👎 or a correction to
another level (a correction to a *higher* level is a miss, not a false flag). Notes name no level and
are not counted.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from blocks import texts_triage
from gradecore.model.vocabulary import Level, failed_and_coloured
from gradecore.persistence.entities import GradeVerdict
from gradecore.persistence.store import Store, agrees_with_machine, current_acts
from smith.anonymizer.anonymize import AnonymizationError, anonymize
from smith.listening.judged import judged_by_each

NO_ENTRY = "—"  # a failure whose receipts name no rule entry (a threshold check)
EXAMPLES_PER_ENTRY = 2
QUOTE_LIMIT = 200


@dataclass(frozen=True, slots=True)
class Judged:
    """One standing act, and what the grade it judged said."""

    verdict: GradeVerdict
    machine_level: Level
    entries: Mapping[tuple[str, str], Mapping[str, Any]]  # (check, entry) -> the receipt that named it

    @property
    def agrees(self) -> bool | None:
        """docs/verdicts.md's one rule (None: a note, which judges nothing)."""
        return agrees_with_machine(self.verdict.signal, self.verdict.expected_level, self.machine_level.value)

    @property
    def wants_higher(self) -> bool:
        expected = self.verdict.expected_level
        return expected is not None and Level(expected) > self.machine_level


@dataclass
class EntryDisagreement:
    check: str
    entry: str
    acts: int = 0
    agreeing: int = 0
    disagreeing: int = 0
    wanted_higher: int = 0  # disagreeing acts that corrected to a higher level: the rule missed
    examples: list[str] = field(default_factory=list)
    verdict_ids: list[int] = field(default_factory=list)  # the disagreeing acts
    details: list[str] = field(default_factory=list)  # the disagreeing receipts' details (thresholds)

    @property
    def share_disagreeing(self) -> float:
        return self.disagreeing / self.acts if self.acts else 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "rule_entry": self.entry,
            "acts": self.acts,
            "agreeing": self.agreeing,
            "disagreeing": self.disagreeing,
            "share_disagreeing": round(self.share_disagreeing, 4),
            "wanted_higher": self.wanted_higher,
            "examples": list(self.examples),
            "disagreeing_verdicts": list(self.verdict_ids),
        }


def judged_acts(store: Store, start: datetime, end: datetime) -> Iterator[Judged]:
    """The standing acts of the window that judged a failing grade, with the entries of the dimensions
    each judges (smith.listening.judged: a 👎 on the parent counts against the turn's rule that made the
    verdict)."""
    with store.unit() as unit:
        standing = [
            a for a in current_acts(unit.verdicts.since(start, end)) if a.machine_grade_at_time.get("level")
        ]
        judged = judged_by_each(unit, standing)  # each conversation's grades read once
    for act, dimensions in zip(standing, judged, strict=True):
        entries = failing_entries(dimensions)
        if entries:
            yield Judged(act, Level(str(act.machine_grade_at_time["level"])), entries)


def failing_entries(dimensions: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str], Mapping[str, Any]]:
    """(check, rule entry) -> its first receipt, for every failing dimension that coloured its level."""
    found: dict[tuple[str, str], Mapping[str, Any]] = {}
    for dimension in dimensions:
        if not failed_and_coloured(dimension):
            continue
        check = str(dimension.get("check"))
        evidence = [e for e in dimension.get("evidence") or () if isinstance(e, Mapping)]
        named = [e for e in evidence if e.get("rule_entry")]
        for receipt in named or evidence[:1] or [{}]:
            key = (check, str(receipt.get("rule_entry") or NO_ENTRY))
            found.setdefault(key, receipt)
    return found


def disagreements(
    store: Store, start: datetime, end: datetime, *, with_examples: bool = True
) -> list[EntryDisagreement]:
    """One row per (check, rule entry), most disagreed-with first."""
    rows: dict[tuple[str, str], EntryDisagreement] = {}
    for judged in judged_acts(store, start, end):
        agrees = judged.agrees
        if agrees is None:
            continue
        for (check, entry), receipt in judged.entries.items():
            row = rows.setdefault((check, entry), EntryDisagreement(check, entry))
            row.acts += 1
            if agrees:
                row.agreeing += 1
                continue
            row.disagreeing += 1
            row.wanted_higher += judged.wants_higher
            row.verdict_ids.append(judged.verdict.id or 0)
            if receipt.get("detail"):
                row.details.append(str(receipt["detail"]))
            if with_examples and len(row.examples) < EXAMPLES_PER_ENTRY:
                example = _anonymized_example(store, judged.verdict, receipt.get("quote"))
                if example:
                    row.examples.append(example)
    return sorted(rows.values(), key=lambda r: (-r.share_disagreeing, -r.disagreeing, r.check, r.entry))


def _anonymized_example(store: Store, verdict: GradeVerdict, quote: object) -> str | None:
    """The quote that fired and the human's note, anonymized exactly as a fixture would be."""
    with store.unit() as unit:
        conversation = unit.conversations.document(verdict.conversation_id)
    if conversation is None:
        return None
    try:
        anonymized = anonymize(conversation, up_to_turn=verdict.turn_id)
    except AnonymizationError:
        return None
    parts = []
    if quote:
        parts.append(f"“{_clip(anonymized.scrub_text(str(quote)))}”")
    if verdict.note:
        parts.append(f"— {_clip(anonymized.scrub_text(verdict.note))}")
    return " ".join(parts) or None


def _clip(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= QUOTE_LIMIT else flat[: QUOTE_LIMIT - 1] + "…"


def digest_lines(store: Store, start: datetime, end: datetime, *, top: int = 5) -> list[str]:
    """The weekly digest's "Rules people disagree with": the top entries with any disagreement."""
    rows = [row for row in disagreements(store, start, end, with_examples=False) if row.disagreeing]
    return [
        texts_triage.rule_disagreement(row.check, row.entry, row.disagreeing, row.acts, row.share_disagreeing)
        for row in rows[:top]
    ] or [texts_triage.NO_RULE_DISAGREEMENT]
