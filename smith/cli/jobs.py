"""`smith tally`, `smith sweep`, `smith fixtures check|refused`: the scheduled jobs, run now by hand."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Annotated

import typer

from smith.cli.context import open_store, rules, settings
from smith.cli.errors import UserError
from smith.cli.output import JsonOption, print_json, progress
from smith.cli.windows import since_start

if TYPE_CHECKING:
    from gradecore.persistence.entities import Property

# Each job's modules load inside its command (docs/operations.md, command start-up).

fixtures_app = typer.Typer(help="The sweep's fixture drafts.", no_args_is_help=True)


def tally(
    day: Annotated[
        str | None, typer.Option("--date", help="Local day to tally, YYYY-MM-DD (default: yesterday)")
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(
            "--since", help="Every local day from then until yesterday: 7d or 2026-11-01 (not with --date)"
        ),
    ] = None,
    property_id: Annotated[str | None, typer.Option("--property", help="Only this property")] = None,
    post: Annotated[
        bool, typer.Option("--post", help="Queue the line for Slack instead of printing it")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Print (or post) the daily tally line per property."""
    if day and since:
        raise UserError("--date and --since choose the days in two ways: give one of them")
    from gradecore.persistence.entities import utcnow
    from smith.reports.tally import compose_tally, queue_tally
    from smith.transports.render import render_payload

    listed: list[dict[str, object]] = []
    with open_store().unit() as unit:
        properties = [unit.properties.require(property_id)] if property_id else list(unit.properties.list())
        if not properties:
            raise UserError("no properties yet: ingest a conversation or run `smith properties set`")
        for prop, local_day in _tally_days(properties, day, since, utcnow()):
            line = compose_tally(unit, prop, local_day)
            queued = queue_tally(unit, prop, line) if post else None
            if as_json:
                listed.append(
                    {
                        "property": prop.id,
                        "date": local_day.isoformat(),
                        "name": prop.name,
                        "channel": prop.slack_channel_id,
                        "graded": line.graded,
                        "pass": line.passed,
                        "below": line.flagged,
                        "reacted": line.reacted,
                        "no_reactions_in_7_days": line.no_reactions_warning,
                        "line": "\n".join(render_payload(line.content.as_message())),
                        "queued": queued,
                    }
                )
            elif post and prop.slack_channel_id is None:
                typer.echo(
                    f"{prop.id}: no channel mapped, so no tally post (`smith properties set --channel`)"
                )
            elif post:
                typer.echo(f"{prop.id}: {'queued' if queued else 'already queued'} for {local_day}")
            else:
                typer.echo("\n".join(render_payload(line.content.as_message())))
    if as_json:
        print_json(listed)


def sweep() -> None:
    """Run the D8 sweep now: new verdicts become anonymized fixture drafts and tickets."""
    from smith.sweep.job import run_sweep
    from smith.tickets import build_tracker

    current = settings()
    tracker = build_tracker(current)  # an incomplete tracker setting is one line before any work
    directory = current.fixtures_dir
    resume = "the fixtures and tickets written so far are kept; rerun `smith sweep` to sweep the rest"
    with progress("Sweeping verdicts", None, unit="verdicts", resume=resume) as advance:
        report = run_sweep(
            open_store(),
            directory,
            tracker=tracker,
            quiet_after=timedelta(days=current.ticket_quiet_days),
            on_swept=advance,
        )
    kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(report.written.items())) or "nothing new"
    retried = (
        f" ({report.still_refused} still refused: `smith fixtures refused`)" if report.still_refused else ""
    )
    typer.echo(f"swept into {directory}: {kinds} · {len(report.refused)} refused{retried}")
    tickets = report.tickets
    typer.echo(
        f"tickets: {len(tickets.new)} new · {len(tickets.reopened)} reopened · {len(tickets.closed)} closed "
        f"as quiet · {tickets.updated} updated · {len(tickets.failed)} not synced (retried next sweep)"
    )
    for verdict_id, why in report.refused:
        typer.echo(f"  refused verdict {verdict_id}: {why}", err=True)
    for signature_id, why in tickets.failed:
        typer.echo(f"  ticket {signature_id} not synced: {why}", err=True)
    if tickets.postponed and tickets.postponed_until is not None:
        typer.echo(
            f"  {len(tickets.postponed)} ticket(s) postponed: the tracker is rate limited until "
            f"{tickets.postponed_until:%Y-%m-%d %H:%M} UTC (the next sweep after that syncs them)",
            err=True,
        )


@fixtures_app.command("check")
def fixtures_check() -> None:
    """Re-grade every calibration fixture with the current engine; exit 1 if any disagrees."""
    from rich.console import Console

    from smith.regression_fixtures.check import check_fixtures, fixture_paths

    directory = settings().fixtures_dir
    resume = "nothing is written by a check; rerun it to check them all"
    with progress(
        "Checking fixtures", len(fixture_paths(directory)), unit="fixtures", resume=resume
    ) as advance:
        results = check_fixtures(directory, rules(), on_checked=advance)
    console = Console()
    failing = [result for result in results if not result.agrees]
    for result in failing:
        actual = result.actual.value if result.actual else "—"
        expected = result.expected.value if result.expected else "—"
        console.print(
            f"[red]✗[/] {result.path.name}: expected {expected}, graded {actual} {result.problem or ''}"
        )
    agreeing = len(results) - len(failing)
    console.print(f"{agreeing} of {len(results)} calibration fixtures agree with their expected level")
    if failing:
        raise typer.Exit(1)


def _tally_days(
    properties: Sequence[Property], day: str | None, since: str | None, now: datetime
) -> Iterator[tuple[Property, date]]:
    """Each property with each local day to tally: the day given, each day since, or yesterday."""
    from smith.reports.tally import days_to_tally

    for prop in properties:
        if day:
            yield prop, _parse_day(day)
            continue
        start = since_start(since, now) if since else None
        for local_day in days_to_tally(now, prop.timezone, since=start):
            yield prop, local_day


@fixtures_app.command("refused")
def fixtures_refused(as_json: JsonOption = False) -> None:
    """List the fixtures the leak scan refused, with the reason; each is drafted again at every sweep."""
    from smith.cli.output import print_table, table

    with open_store().unit() as unit:
        rows = [
            {"verdict": row.verdict_id, "kind": row.kind, "reason": row.detail or "", "since": row.created_at}
            for row in unit.fixtures.refused()
        ]
    if as_json:
        print_json(rows)
        return
    if not rows:
        typer.echo("no refused fixtures")
        return
    listing = table("verdict", "kind", "reason", "since", title="Refused fixtures (drafted again each sweep)")
    for row in rows:
        listing.add_row(str(row["verdict"]), str(row["kind"]), str(row["reason"]), str(row["since"])[:16])
    print_table(listing)


def _parse_day(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise UserError(f"--date must look like 2026-11-30, not {value!r}") from None
