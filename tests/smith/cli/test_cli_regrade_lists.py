"""`smith regrade --dry-run` under a new rubric names each stored conversation that now flags."""

from __future__ import annotations

from pathlib import Path

from tests.smith.cli.in_process import run_in_process

CORPUS = Path(__file__).resolve().parents[2] / "corpus"


def test_a_dry_run_lists_the_conversations_that_now_flag(workdir: Path) -> None:
    # Graded first under rules without the progressive visit form ("our maintenance tech is headed over").
    old_rules = workdir / "old.toml"
    old_rules.write_text(
        '[[promises]]\nid = "vendor_visit"\n'
        'patterns = [{ id = "visit.trade_on_the_way_en", enabled = false }]\n',
        encoding="utf-8",
    )
    # Corpus case 44, a month earlier: `regrade` looks at conversations settled up to now.
    promise = workdir / "44.json"
    case_44 = (CORPUS / "44-promise-tech-headed-over.json").read_text(encoding="utf-8")
    promise.write_text(case_44.replace('"2026-12-', '"2026-11-'), encoding="utf-8")
    clean = CORPUS / "01-thermostat-system-reset.json"
    for case in (promise, clean):
        ingested = run_in_process(workdir, "ingest", str(case), env={"SMITH_RULES_FILE": str(old_rules)})
        assert ingested.code == 0, ingested.stderr

    dry = run_in_process(workdir, "regrade", "--since", "2026-01-01", "--dry-run")
    assert dry.code == 0, dry.stderr
    listed = [line for line in dry.stdout.splitlines() if "→" in line and ":" in line and "·" not in line]
    assert listed == ["pass → block: 44-promise-tech-headed-over"]
    assert "would regrade 2" in dry.stdout and "pass → flagged 1" in dry.stdout

    # A real regrade then leaves nothing newly flagging to list.
    assert run_in_process(workdir, "regrade", "--since", "2026-01-01").code == 0
    again = run_in_process(workdir, "regrade", "--since", "2026-01-01", "--dry-run")
    assert "pass → block" not in again.stdout
