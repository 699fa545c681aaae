"""The PII corpus through the real sweep (issue 10, point 6): every wider class planted in 120
conversations, English and Spanish, varied formats; every fixture is written (none refused), the
independent leak scan finds nothing in what was written, and no planted string survives.

Run with `-s` to see the table of planted against leaked per class (or `python -m
tests.scenarios.pii_corpus`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from gradecore.model.vocabulary import Level
from gradecore.persistence.store import Store
from smith.leaks import LeakWatchlist, find_leaks
from smith.sweep.job import run_sweep
from tests.scenarios.pii_corpus import CLASSES, Planted, leaked_items, pii_corpus
from tests.scenarios.sweep_world import MORNING
from tests.scheduling.world import add_grader, fixtures, ingest, react

CORPUS_SIZE = 120
# The leak scan's kinds that answer for each planted class.
SCAN_KINDS = {
    "spoken_phone": "phone",
    "disguised_email": "email",
    "address": "address",
    "unit": "unit",
    "code": "code",
    "mentioned_name": "mentioned_name",
}


@dataclass
class Table:
    planted: Counter[str] = field(default_factory=Counter)
    leaked: Counter[str] = field(default_factory=Counter)  # planted strings found in a written fixture
    scanned: Counter[str] = field(default_factory=Counter)  # leaks the independent scan reported
    written: int = 0
    refused: list[tuple[int, str]] = field(default_factory=list)
    unswept: int = 0

    def render(self) -> str:
        lines = [
            f"PII corpus: {self.written} fixtures written, {len(self.refused)} refused, "
            f"{self.unswept} not swept",
            f"{'class':<18}{'planted':>9}{'leaked':>9}{'scan leaks':>12}",
        ]
        for name in CLASSES:
            lines.append(
                f"{name:<18}{self.planted[name]:>9}{self.leaked[name]:>9}{self.scanned[SCAN_KINDS[name]]:>12}"
            )
        other = sum(count for kind, count in self.scanned.items() if kind not in SCAN_KINDS.values())
        lines.append(f"{'other scan leaks':<18}{'':>9}{'':>9}{other:>12}")
        return "\n".join(lines)


def sweep_corpus(store: Store, out: Path, corpus: list[Planted]) -> Table:
    """Ingest, grade and judge every conversation, run the nightly sweep, and measure what it wrote."""
    grader = add_grader(store)
    by_verdict: dict[int, Planted] = {}
    for index, planted in enumerate(corpus):
        conversation = planted.conversation
        ingest(store, conversation, when=MORNING)
        verdict = react(
            store,
            conversation.conversation_id,
            "correction",
            when=MORNING.replace(hour=16),
            grader=grader,
            turn_id="t1" if index % 2 else None,
            expected=Level.HOLD,
            note=planted.note,
        )
        assert verdict.id is not None
        by_verdict[verdict.id] = planted
    report = run_sweep(store, out)
    table = Table(refused=report.refused, written=report.total)
    rows = {row.verdict_id: row for row in fixtures(store)}
    table.unswept = len(set(by_verdict) - set(rows))
    for verdict_id, planted in by_verdict.items():
        for name, values in planted.items.items():
            table.planted[name] += len(values)
        row = rows.get(verdict_id)
        if row is None or row.path is None:
            continue
        written = (out / row.path).read_text(encoding="utf-8")
        for name, values in leaked_items(planted, written).items():
            table.leaked[name] += len(values)
        for leak in find_leaks(written, LeakWatchlist.from_conversation(planted.conversation)):
            table.scanned[leak.kind] += 1
    return table


# What is measured is the anonymizer and the leak scan on the fixtures' text: the database only carries
# the acts there, as in every other sweep test (docs/operations.md, "Which backends").
@pytest.mark.backends("sqlite")
def test_every_planted_class_is_replaced_and_every_fixture_written(store: Store, tmp_path: Path) -> None:
    corpus = pii_corpus(CORPUS_SIZE)
    assert len(corpus) >= 100 and {planted.language for planted in corpus} == {"en", "es"}

    table = sweep_corpus(store, tmp_path / "fixtures", corpus)
    print("\n" + table.render())

    assert all(table.planted[name] >= CORPUS_SIZE for name in CLASSES)  # every class, in every one
    assert table.refused == [] and table.unswept == 0
    assert table.written == CORPUS_SIZE
    assert sum(table.leaked.values()) == 0, table.render()
    assert sum(table.scanned.values()) == 0, table.render()


def test_the_independent_scan_sees_every_class_in_the_raw_corpus() -> None:
    """Guards the zero above: without the anonymizer, the scan reports every class it answers for."""
    seen: Counter[str] = Counter()
    for planted in pii_corpus(40):
        text = str(planted.document["messages"][0]["text"])  # type: ignore[index]
        for leak in find_leaks(text, LeakWatchlist.from_conversation(planted.conversation)):
            seen[leak.kind] += 1
    for name, kind in SCAN_KINDS.items():
        assert seen[kind] > 0, f"the scan never sees {name} ({kind}): {dict(seen)}"
    assert seen["phone"] >= 40 and seen["email"] >= 40 and seen["address"] >= 40
