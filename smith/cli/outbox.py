"""`smith outbox [--retry-failed]`: what is queued for Slack, and re-queueing what failed."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import typer

from smith.cli.context import open_database, open_store
from smith.cli.output import JsonOption, print_json, print_table, table

COUNT_UP_TO = 10_000  # beyond it a status shows as "more than 10,000": counting a year's posts is a scan
Status = Literal["pending", "posted", "failed", "unrouted"]  # gradecore.persistence.post_status.STATUSES


def outbox(
    retry_failed: Annotated[bool, typer.Option("--retry-failed", help="Re-queue every failed post")] = False,
    status: Annotated[Status | None, typer.Option(help="Only posts with this status")] = None,
    limit: Annotated[int, typer.Option(min=1, help="How many posts to list")] = 50,
    as_json: JsonOption = False,
) -> None:
    """List the outbox (newest first) with counts by status."""
    from gradecore.persistence import listings

    retried = _retry_failed() if retry_failed else None
    with open_database().connect() as connection:
        counts = listings.post_counts(connection, up_to=COUNT_UP_TO)
        posts: list[dict[str, Any]] = [
            {
                "id": post.id,
                "kind": post.kind,
                "operation": post.operation,
                "status": post.status,
                "channel": post.channel,
                "property": post.property_id,
                "conversation": post.conversation_id,
                "attempts": post.attempts,
                "ts": post.ts,
                "last_error": post.last_error,
            }
            for post in listings.posts(connection, status, limit)
        ]
    if as_json:
        print_json({"retried": retried, "counts": counts, "posts": posts})
        return
    if retried is not None:
        typer.echo(f"re-queued {retried} failed posts")
    grid = table(
        "id", "kind", "op", "status", "channel", "property", "conversation", "attempts", "ts", "last error"
    )
    for post in posts:
        grid.add_row(
            str(post["id"]),
            post["kind"],
            post["operation"],
            post["status"],
            post["channel"] or "—",
            post["property"] or "—",
            post["conversation"] or "—",
            str(post["attempts"]),
            post["ts"] or "—",
            post["last_error"] or "",  # whole: a cut error is a clue lost
        )
    print_table(grid)
    typer.echo(" · ".join(f"{_count(count)} {name}" for name, count in counts.items()))


def _retry_failed() -> int:
    """Re-queue every failed post: a write, so through the store (the listing after it reads without)."""
    with open_store().unit() as unit:
        return unit.outbox.retry_failed()


def _count(count: int) -> str:
    return f"more than {COUNT_UP_TO:,}" if count > COUNT_UP_TO else str(count)
