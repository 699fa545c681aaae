"""bench/precision.py, run as people run it, over a small labelled corpus written for the test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.cerebrus.builders import ConversationBuilder

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(ROOT / "bench" / "precision.py"), *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)


def _write_corpus(directory: Path) -> None:
    clean = ConversationBuilder(conversation_id="clean").inbound("Rent?").reply("It is $1,850 a month.")
    # Labelled clean, but the amount is on file nowhere: a false flag of amounts_match_ledger.
    flagged = ConversationBuilder(conversation_id="flagged").inbound("Rent?").reply("It is $1,990 a month.")
    # Labelled failing, and caught.
    caught = ConversationBuilder(conversation_id="caught").inbound("Rent?").reply("Only $2,222 a month!")
    # Labelled failing on the turn, but the grader misses it.
    missed = ConversationBuilder(conversation_id="missed").inbound("Rent?").reply("It is $45 a month.")
    cases = {
        "01-clean.json": clean,
        "02-flagged.json": flagged,
        "03-caught.json": caught,
        "04-missed.json": missed,
    }
    for name, builder in cases.items():
        (directory / name).write_text(json.dumps(builder.document()), encoding="utf-8")
    failing = {
        "level": "repair",
        "conversation": [],
        "turns": {"t1": ["amounts_match_ledger"]},
        "class": "amount",
    }
    clean_label = {"level": "pass", "conversation": [], "turns": {}, "class": "clean"}
    labels = {"01-clean.json": clean_label, "02-flagged.json": clean_label, "03-caught.json": failing}
    labels["04-missed.json"] = failing
    (directory / "expected.json").write_text(json.dumps(labels), encoding="utf-8")


def test_prints_counts_precision_recall_and_the_false_flag_rate(tmp_path: Path) -> None:
    _write_corpus(tmp_path)
    run = _run(str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert "| `amounts_match_ledger` | 1 | 1 | 1 | 1 | 0.50 | 0.50 |" in run.stdout
    assert "false-flag rate on clean conversations: 0.50 (1 of 2 flagged) (02-flagged.json)" in run.stdout
    assert "cases graded at their labelled level: 2 of 4" in run.stdout
    assert run.stdout.startswith("rubric version ")


def test_a_directory_without_labels_is_a_one_line_error(tmp_path: Path) -> None:
    run = _run(str(tmp_path))
    assert run.returncode == 2
    assert run.stderr.strip() == f"error: {tmp_path}: no expected.json (is this a labelled corpus directory?)"


def test_prints_the_paraphrase_suites_per_construction_unless_asked_not_to(tmp_path: Path) -> None:
    _write_corpus(tmp_path)
    run = _run(str(tmp_path))
    assert run.returncode == 0, run.stderr
    for check in ("no_ungrounded_policy_claim", "no_internal_narration"):
        assert f"`{check}` on its paraphrase suite (" in run.stdout
    assert "precision 1.00, recall 1.00" in run.stdout
    rows = [line for line in run.stdout.splitlines() if line.startswith(("| causative ", "| hedge "))]
    assert len(rows) == 2 and all(row.endswith("| 0 | 1.00 | 1.00 |") for row in rows)
    assert "missed:" not in run.stdout and "flagged:" not in run.stdout

    skipped = _run(str(tmp_path), "--no-paraphrases")
    assert skipped.returncode == 0 and "paraphrase suite" not in skipped.stdout
