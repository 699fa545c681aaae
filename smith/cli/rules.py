"""`smith rules disagreements|suggest|try` and `smith regrade`: the calibration loop, by hand."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated

import typer

from smith.cli.context import open_store, rules, settings
from smith.cli.errors import UserError
from smith.cli.output import progress

# The calibration modules, the engine and rich load inside each command (docs/operations.md, command
# start-up).

app = typer.Typer(
    help="The calibration loop: what people disagree with, and proven rule changes.", no_args_is_help=True
)

Since = Annotated[
    str | None,
    typer.Option(
        "--since", help="Start of the window: YYYY-MM-DD or a number of days such as 30d (default 30d)"
    ),
]


def window(since: str | None) -> tuple[datetime, datetime]:
    from gradecore.entities import utcnow

    now = utcnow()
    if since is None:
        return now - timedelta(days=30), now
    text = since.strip().lower()
    if text.endswith("d") and text[:-1].isdigit():
        return now - timedelta(days=int(text[:-1])), now
    try:
        return datetime.fromisoformat(since).replace(tzinfo=now.tzinfo), now
    except ValueError:
        raise UserError(
            f"--since must be a date like 2026-11-01 or a number of days like 30d, not {since!r}"
        ) from None


@app.command("disagreements")
def disagreements(
    since: Since = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per rule entry")] = False,
) -> None:
    """Standing human acts on failing checks, by (check, rule entry), most disagreed-with first."""
    from rich.console import Console
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
    Console(width=max(160, Console().width)).print(table)


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
    from rich.console import Console
    from rich.table import Table

    from cerebrus import RulesError, load_rules
    from smith.calibration.trial import try_candidate

    start, end = window(since)
    try:
        proposed = load_rules(candidate)
    except RulesError as exc:
        raise UserError(str(exc)) from None
    report = try_candidate(open_store(), settings().fixtures_dir, rules(), proposed, start, end)
    console = Console(width=max(120, Console().width))
    fixtures = Table("calibration fixtures", "count", "which", title=f"{candidate} against the current rules")
    fixtures.add_row("now agree", str(len(report.now_agree)), ", ".join(report.now_agree) or "—")
    fixtures.add_row(
        "now disagree (regressions)", str(len(report.regressions)), ", ".join(report.regressions) or "—"
    )
    fixtures.add_row("unchanged, agreeing", str(report.unchanged_agree), "")
    fixtures.add_row("unchanged, disagreeing", str(report.unchanged_disagree), "")
    console.print(fixtures)
    flips = Table(
        "property",
        "flagged → pass",
        "pass → flagged",
        title=f"{report.graded} stored conversations since {start.date()}",
    )
    for prop in sorted(set(report.to_pass) | set(report.to_flagged)):
        flips.add_row(prop, str(report.to_pass[prop]), str(report.to_flagged[prop]))
    flips.add_row("all", str(sum(report.to_pass.values())), str(sum(report.to_flagged.values())))
    console.print(flips)
    if report.regressions:
        console.print(
            f"{len(report.regressions)} calibration fixture(s) regress under {candidate}: not safe to apply"
        )
        raise typer.Exit(1)


def regrade(
    since: Since = None,
    property_id: Annotated[str | None, typer.Option("--property", help="Only this property")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would change; write nothing")] = False,
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
    with progress("Regrading stored conversations", None) as advance:
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
