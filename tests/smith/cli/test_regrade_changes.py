"""`smith regrade` names each stored conversation whose verdict the current rubric changes (issue 21:
`--dry-run` shows what rubric v3 changes before anything is written)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.smith.cli.in_process import run_in_process

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
CASE = "41-move-in-costs-label-after"
# Under these labels "a $50 application fee" reads as the admin fee's: the reply is flagged as v2
# flagged it, for the amount for the wrong item.
SWAPPED_LABELS = '[amount_labels]\napplication_fee = ["admin fee"]\nadmin_fee = ["application fee"]\n'


def test_a_dry_run_names_each_conversation_whose_verdict_changes(workdir: Path) -> None:
    (workdir / "swapped.toml").write_text(SWAPPED_LABELS, encoding="utf-8")
    swapped = {"SMITH_RULES_FILE": str(workdir / "swapped.toml")}
    for case in (CASE, "01-thermostat-system-reset"):
        # Settled well in the past, so that the window up to now holds it whatever today is.
        text = (CORPUS / f"{case}.json").read_text(encoding="utf-8")
        (workdir / f"{case}.json").write_text(re.sub(r"\b2026-1[12]-", "2025-11-", text), encoding="utf-8")
        ingested = run_in_process(workdir, "ingest", str(workdir / f"{case}.json"), env=swapped)
        assert ingested.code == 0, ingested.stderr

    dry = run_in_process(workdir, "regrade", "--since", "2025-01-01", "--dry-run")
    assert dry.code == 0, dry.stderr
    lines = dry.stdout.splitlines()
    # The reply v3 reads right is named, old level first; the clean case, unchanged, is not.
    assert lines[:-1] == [f"repair → pass: {CASE}"]
    assert "would regrade 2" in lines[-1]

    # Nothing was written: the same dry run says the same.
    assert run_in_process(workdir, "regrade", "--since", "2025-01-01", "--dry-run").stdout == dry.stdout
