"""`smith outbox [--retry-failed]`: what is queued for Slack, and re-queueing what failed."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from smith.cli.context import open_store


def outbox(
    retry_failed: Annotated[bool, typer.Option("--retry-failed", help="Re-queue every failed post")] = False,
    status: Annotated[str | None, typer.Option(help="Only posts with this status")] = None,
    limit: Annotated[int, typer.Option(help="How many posts to list")] = 50,
) -> None:
    """List the outbox (newest first) with counts by status."""
    with open_store().unit() as unit:
        if retry_failed:
            typer.echo(f"re-queued {unit.outbox.retry_failed()} failed posts")
        counts = unit.outbox.counts()
        rows = unit.outbox.list(status, limit)
    table = Table("id", "kind", "op", "status", "channel", "attempts", "ts", "last error")
    for post in rows:
        table.add_row(
            str(post.id),
            post.kind,
            post.operation,
            post.status,
            post.channel or "—",
            str(post.attempts),
            post.ts or "—",
            (post.last_error or "")[:60],
        )
    console = Console()
    console.print(table)
    console.print(" · ".join(f"{count} {name}" for name, count in counts.items()))
