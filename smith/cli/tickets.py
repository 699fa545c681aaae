"""`smith tickets`: the engineers' queue — root causes, how often, where, and their tickets."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from smith.cli.context import open_store
from smith.cli.output import print_table
from smith.cli.windows import since_start


def tickets(
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            help="Only signatures seen in this window: 30d or a date such as 2026-11-01 (default: all)",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per signature, as a list")] = False,
) -> None:
    """List the root-cause signatures of *ours* failures with their counts and tickets, newest first."""
    from rich.table import Column, Table

    from gradecore.persistence.entities import utcnow

    now = utcnow()
    start = None if since is None else since_start(since, now)
    rows: list[dict[str, Any]] = []
    with open_store().unit() as unit:
        for signature in unit.tickets.all():
            counts = unit.tickets.counts(signature.id, now=now)
            if start is not None and (counts.last_seen is None or counts.last_seen < start):
                continue
            rows.append(
                {
                    "signature": signature.id,
                    "check": signature.check_id,
                    "layer": signature.layer,
                    "cause": signature.cause,
                    "status": signature.status,
                    "times_reopened": signature.times_reopened,
                    "ticket": signature.tracker_url or signature.tracker_ref,
                    "last_seen": counts.last_seen.isoformat() if counts.last_seen else None,
                    "first_seen": counts.first_seen.isoformat() if counts.first_seen else None,
                    **counts.as_json(),
                }
            )
    rows.sort(key=lambda row: (row["last_seen"] or "", row["signature"]), reverse=True)
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    if not rows:
        typer.echo("no ours failures recorded yet: signatures appear after the nightly sweep")
        return
    table = Table("status", "cause", "total", "7 days", "properties", "👍 / corr.", "ticket")
    table.columns.insert(0, Column("signature", no_wrap=True))
    for row in rows:
        table.add_row(
            row["signature"],
            row["status"] + (f" (reopened ×{row['times_reopened']})" if row["times_reopened"] else ""),
            f"{row['check']}: {row['cause']}",
            str(row["total"]),
            str(row["last_7_days"]),
            ", ".join(f"{p} {n}" for p, n in row["by_property"].items()),
            f"{row['ups']} / {row['corrections']}",
            row["ticket"] or "— (not confirmed by a grader yet)",
        )
    print_table(table)
