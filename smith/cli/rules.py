"""`smith rules disagreements|suggest|try` and `smith regrade`: the calibration loop, by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from smith.cli.context import open_store, rules, settings
from smith.cli.errors import UserError
from smith.cli.output import print_table, progress
from smith.cli.windows import Since, window

# The calibration modules, the engine and rich load inside each command (docs/operations.md, command
# start-up).

app = typer.Typer(
    help="The calibration loop: what people disagree with, and proven rule changes.", no_args_is_help=True
)


@app.command("disagreements")
def disagreements(
    since: Since = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per rule entry")] = False,
) -> None:
    """Standing human acts on failing checks, by (check, rule entry), most disagreed-with first."""
    from rich.table import Column, Table

    from smith.calibration.disagreements import disagreements as find_disagreements

    start, end = window(since)
    rows = find_disagreements(open_store(), start, end)
    if as_json:
        typer.echo(json.dumps([row.as_json() for row in rows], indent=2, ensure_ascii=False))
        return
    if not rows:
        typer.echo(f"no human acts on failing checks since {start.date()}")
        return
    table = Table(
        Column("check", no_wrap=True),
        Column("rule entry", no_wrap=True),
        "acts",
        "agree",
        "disagree",
        "share",
        "examples",
        title=f"Rules people disagree with, since {start.date()}",
    )
    for row in rows:
        table.add_row(
            row.check,
            row.entry,
            str(row.acts),
            str(row.agreeing),
            str(row.disagreeing),
            f"{row.share_disagreeing:.0%}",
            "\n".join(row.examples) or "—",
        )
    print_table(table)


@app.command("suggest")
def suggest(
    since: Since = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write the candidate rules file here")] = None,
) -> None:
    """Propose the smallest rules-file change that would have agreed with the humans."""
    from smith.calibration.disagreements import disagreements as find_disagreements
    from smith.calibration.suggest import candidate_toml
    from smith.calibration.suggest import suggest as find_suggestions

    start, end = window(since)
    current = settings()
    found = find_suggestions(
        find_disagreements(open_store(), start, end),
        rules(),
        min_acts=current.suggest_min_acts,
        min_share=current.suggest_min_share,
    )
    for suggestion in found:
        typer.echo(f"{suggestion.check} · {suggestion.entry}: {suggestion.summary}")
    if not found:
        typer.echo(
            f"nothing to suggest: no rule entry has {current.suggest_min_acts}+ acts with more than "
            f"{current.suggest_min_share:.0%} disagreeing since {start.date()}"
        )
    text = candidate_toml(found, rules(), window=f"{start.date()} to {end.date()}")
    if out is None:
        typer.echo(text)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write {out}: {exc.strerror or exc}") from None
    typer.echo(f"candidate written to {out}; prove it with `smith rules try {out}`")


@app.command("try")
def try_(
    candidate: Annotated[Path, typer.Argument(help="A candidate rules file (TOML or YAML)")],
    since: Since = None,
) -> None:
    """Re-grade the calibration fixtures and the stored window under the candidate; exit 1 on a regression."""
    from rich.table import Table

    from cerebrus import RulesError, load_rules
    from smith.calibration.trial import try_candidate

    start, end = window(since)
    try:
        proposed = load_rules(candidate)
    except RulesError as exc:
        raise UserError(str(exc)) from None
    resume = "nothing is written by a trial; rerun it to try the candidate again"
    with progress("Trying the candidate", None, unit="fixtures and conversations", resume=resume) as advance:
        report = try_candidate(
            open_store(), settings().fixtures_dir, rules(), proposed, start, end, on_graded=advance
        )
    fixtures = Table("calibration fixtures", "count", "which", title=f"{candidate} against the current rules")
    fixtures.add_row("now agree", str(len(report.now_agree)), ", ".join(report.now_agree) or "—")
    fixtures.add_row(
        "now disagree (regressions)", str(len(report.regressions)), ", ".join(report.regressions) or "—"
    )
    fixtures.add_row("unchanged, agreeing", str(report.unchanged_agree), "")
    fixtures.add_row("unchanged, disagreeing", str(report.unchanged_disagree), "")
    print_table(fixtures)
    flips = Table(
        "property",
        "flagged → pass",
        "pass → flagged",
        title=f"{report.graded} stored conversations since {start.date()}",
    )
    for prop in sorted(set(report.to_pass) | set(report.to_flagged)):
        flips.add_row(prop, str(report.to_pass[prop]), str(report.to_flagged[prop]))
    flips.add_row("all", str(sum(report.to_pass.values())), str(sum(report.to_flagged.values())))
    print_table(flips)
    checked = (
        len(report.now_agree) + len(report.regressions) + report.unchanged_agree + report.unchanged_disagree
    )
    typer.echo(
        f"{checked} calibration fixtures and {report.graded} stored conversations graded under {candidate}: "
        f"{len(report.regressions)} regression(s)"
    )
    if report.regressions:
        typer.echo(
            f"{len(report.regressions)} calibration fixture(s) regress under {candidate}: not safe to apply"
        )
        raise typer.Exit(1)


def regrade(
    since: Since = None,
    property_id: Annotated[str | None, typer.Option("--property", help="Only this property")] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show each verdict that would change; write nothing")
    ] = False,
) -> None:
    """Re-grade stored conversations with the current rubric (append-only) and bring Slack in line."""
    from smith.calibration.regrade import regrade as run_regrade
    from smith.ingest import conversation_link

    start, end = window(since)
    template = settings().conversation_url_template
    store = open_store()
    if property_id is not None:
        with store.unit() as unit:
            unit.properties.require(property_id)
    resume = "what was regraded is kept; rerun the same command to continue with the rest"
    with progress("Regrading stored conversations", None, unit="conversations", resume=resume) as advance:
        report = run_regrade(
            store,
            rules(),
            start,
            end,
            property_id=property_id,
            dry_run=dry_run,
            conversation_url=lambda cid: conversation_link(template, cid) if template else None,
            progress=lambda _: advance(),
        )
    # One line per conversation whose verdict changes: what the new rubric does, before the totals.
    for change in report.changes:
        typer.echo(change.line())
    verb = "would regrade" if dry_run else "regraded"
    typer.echo(
        f"{report.seen} stored conversations since {start.date()}: {verb} {report.regraded} "
        f"({report.current} already current) · flagged → pass {report.to_pass} · pass → flagged "
        f"{report.to_flagged}" + ("" if dry_run else f" · {report.posts_queued} Slack posts queued")
    )
