"""One window syntax for every command that reads a stretch of history: `--since 30d` (the last 30
days) or `--since 2026-11-01` (from that day, UTC, until now)."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Annotated

import typer

from smith.cli.errors import UserError

DEFAULT_DAYS = 30
_DAYS = re.compile(r"(\d{1,5})d")

Since = Annotated[
    str | None,
    typer.Option(
        "--since",
        help=f"Start of the window: a number of days such as 30d, or a date such as 2026-11-01 "
        f"(default {DEFAULT_DAYS}d)",
    ),
]


def since_start(since: str | None, now: datetime, *, default_days: int = DEFAULT_DAYS) -> datetime:
    """Where the window opened: `now` less the days given, or the start of the day given (UTC)."""
    if since is None:
        return now - timedelta(days=default_days)
    text = since.strip().lower()
    if days := _DAYS.fullmatch(text):
        return now - timedelta(days=int(days.group(1)))
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise UserError(
            f"--since must be a number of days like 30d or a date like 2026-11-01, not {since!r}"
        ) from None
    start = datetime(day.year, day.month, day.day, tzinfo=now.tzinfo)
    if start > now:
        raise UserError(f"--since {since} is in the future")
    return start


def window(since: str | None, *, default_days: int = DEFAULT_DAYS) -> tuple[datetime, datetime]:
    """(start, now) for `--since`."""
    from gradecore.persistence.entities import utcnow

    now = utcnow()
    return since_start(since, now, default_days=default_days), now
