"""Benchmark: how precisely the deterministic checks grade a labelled corpus.

Grades every case of a corpus directory (`NN-slug.json` conversations and their labels in
`expected.json`: failing conversation checks, failing checks per turn, level) and prints, per check,
true/false positives and negatives over the items it grades (conversations for conversation checks,
turns for turn checks), precision and recall; then the false-flag rate on the conversations labelled
clean, how many cases grade at their labelled level, and the rubric version. Then the promise and
narration checks over the generated paraphrase suites (bench/paraphrases.py): precision and recall
per construction (`--no-paraphrases` skips them).

    .venv/bin/python bench/precision.py [CORPUS_DIR] [--rules rules.toml] [--no-paraphrases]

CORPUS_DIR defaults to the project's copy in tests/corpus. A check fires when its outcome is
`fail`; `not_checked` counts as not firing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paraphrases

import cerebrus
from gradecore.model.contract import parse_conversation
from gradecore.model.grades import ConversationGrade
from gradecore.model.vocabulary import Outcome, Scope

DEFAULT_CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus"
LABELS_FILE = "expected.json"
CLEAN = "pass"


class CorpusError(Exception):
    """A corpus that cannot be graded; the message is one line naming the problem."""


@dataclass
class Confusion:
    """One check's counts over the items it grades."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    def add(self, *, labelled: bool, fired: bool) -> None:
        if fired and labelled:
            self.tp += 1
        elif fired:
            self.fp += 1
        elif labelled:
            self.fn += 1
        else:
            self.tn += 1

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None


@dataclass
class Report:
    rubric_version: str
    cases: int
    at_labelled_level: int
    clean: int
    clean_flagged: list[str]
    by_check: dict[str, Confusion]

    @property
    def false_flag_rate(self) -> float | None:
        return len(self.clean_flagged) / self.clean if self.clean else None


def load_labels(corpus: Path) -> dict[str, dict[str, Any]]:
    """The labels of a corpus directory, checked against the case files it holds."""
    labels_path = corpus / LABELS_FILE
    if not labels_path.is_file():
        raise CorpusError(f"{corpus}: no {LABELS_FILE} (is this a labelled corpus directory?)")
    try:
        labels = json.loads(labels_path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CorpusError(f"{labels_path}: not valid JSON: {exc}") from None
    if not isinstance(labels, dict):
        raise CorpusError(f"{labels_path}: expected an object keyed by case file name")
    missing = sorted(name for name in labels if not (corpus / name).is_file())
    if missing:
        raise CorpusError(f"{labels_path}: labelled cases without a file: {', '.join(missing)}")
    return labels


def measure(corpus: Path, rules: cerebrus.Rules) -> Report:
    labels = load_labels(corpus)
    registry = cerebrus.default_registry()
    by_check = {spec.id: Confusion() for spec in registry}
    scopes = {spec.id: spec.scope for spec in registry}
    at_level = 0
    clean = 0
    clean_flagged: list[str] = []
    for name in sorted(labels):
        label = labels[name]
        try:
            grade = cerebrus.grade(parse_conversation((corpus / name).read_bytes()), rules=rules)
        except ValueError as exc:
            raise CorpusError(f"{corpus / name}: cannot be graded: {' '.join(str(exc).split())}") from None
        _count(grade, label, by_check, scopes)
        at_level += grade.level.value == label["level"]
        if label["level"] == CLEAN:
            clean += 1
            if grade.level.value != CLEAN:
                clean_flagged.append(name)
    return Report(rules.rubric_version, len(labels), at_level, clean, clean_flagged, by_check)


def _count(
    grade: ConversationGrade,
    label: dict[str, Any],
    by_check: dict[str, Confusion],
    scopes: dict[str, Scope],
) -> None:
    """Add one case's items to the per-check counts."""
    labelled_conversation = set(label.get("conversation", ()))
    for dimension in grade.dimensions:
        if scopes.get(dimension.check) is Scope.CONVERSATION:
            by_check[dimension.check].add(
                labelled=dimension.check in labelled_conversation, fired=dimension.outcome is Outcome.FAIL
            )
    labelled_turns: dict[str, list[str]] = label.get("turns", {})
    for turn in grade.turns:
        labelled = set(labelled_turns.get(turn.turn_id, ()))
        for dimension in turn.dimensions:
            if scopes.get(dimension.check) is Scope.TURN:
                by_check[dimension.check].add(
                    labelled=dimension.check in labelled, fired=dimension.outcome is Outcome.FAIL
                )


def _ratio(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def render(report: Report) -> str:
    lines = [
        f"rubric version {report.rubric_version} · engine {cerebrus.ENGINE_VERSION} · {report.cases} cases",
        "",
        "| check | TP | FP | FN | TN | precision | recall |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    totals = Confusion()
    for check_id, counts in report.by_check.items():
        lines.append(
            f"| `{check_id}` | {counts.tp} | {counts.fp} | {counts.fn} | {counts.tn} | "
            f"{_ratio(counts.precision)} | {_ratio(counts.recall)} |"
        )
        totals.tp, totals.fp = totals.tp + counts.tp, totals.fp + counts.fp
        totals.fn, totals.tn = totals.fn + counts.fn, totals.tn + counts.tn
    lines.append(
        f"| **all checks** | {totals.tp} | {totals.fp} | {totals.fn} | {totals.tn} | "
        f"{_ratio(totals.precision)} | {_ratio(totals.recall)} |"
    )
    rate = _ratio(report.false_flag_rate)
    flagged = f" ({', '.join(report.clean_flagged)})" if report.clean_flagged else ""
    lines += [
        "",
        f"false-flag rate on clean conversations: {rate} "
        f"({len(report.clean_flagged)} of {report.clean} flagged){flagged}",
        f"cases graded at their labelled level: {report.at_labelled_level} of {report.cases}",
    ]
    return "\n".join(lines)


PARAPHRASE_CHECKS = {
    "promises": ("no_ungrounded_policy_claim", paraphrases.promise_suite),
    "narration": ("no_internal_narration", paraphrases.narration_suite),
}


def render_paraphrases(rules: cerebrus.Rules) -> str:
    """Per check, its paraphrase suite's precision and recall, overall and per construction."""
    lines: list[str] = []
    for check, (check_id, build) in PARAPHRASE_CHECKS.items():
        suite = build()
        tallies = paraphrases.measure(suite, check, rules)
        whole = paraphrases.total(tallies)
        lines += [
            "",
            f"`{check_id}` on its paraphrase suite ({whole.tp + whole.fn} positives, "
            f"{whole.fp + whole.tn} non-examples): precision {_ratio(whole.precision)}, "
            f"recall {_ratio(whole.recall)}",
            "",
            "| construction | positives | caught | non-examples | flagged | precision | recall |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for construction, tally in tallies.items():
            lines.append(
                f"| {construction} | {tally.tp + tally.fn} | {tally.tp} | {tally.fp + tally.tn} | "
                f"{tally.fp} | {_ratio(tally.precision)} | {_ratio(tally.recall)} |"
            )
        for text in [
            *(f"missed: {t}" for t in missed(tallies)),
            *(f"flagged: {t}" for t in flagged(tallies)),
        ]:
            lines.append(f"- {text}")
    return "\n".join(lines)


def missed(tallies: dict[str, paraphrases.Tally]) -> list[str]:
    return [text for tally in tallies.values() for text in tally.missed]


def flagged(tallies: dict[str, paraphrases.Tally]) -> list[str]:
    return [text for tally in tallies.values() for text in tally.false_flags]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "corpus", nargs="?", type=Path, default=DEFAULT_CORPUS, help="labelled corpus directory"
    )
    parser.add_argument("--rules", type=Path, help="a TOML or YAML rules file over the defaults")
    parser.add_argument(
        "--no-paraphrases", action="store_true", help="skip the promise and narration paraphrase suites"
    )
    args = parser.parse_args(argv)
    try:
        rules = cerebrus.load_rules(args.rules) if args.rules else cerebrus.Rules()
        report = measure(args.corpus, rules)
    except (CorpusError, cerebrus.RulesError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(render(report))
    if not args.no_paraphrases:
        print(render_paraphrases(rules))
    return 0


if __name__ == "__main__":
    sys.exit(main())
