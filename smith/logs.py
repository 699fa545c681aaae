"""How Smith's logs are written: a line for a person (`text`) or one JSON object per line (`json`).

A JSON line carries, beside the time, level, logger and message, the context the work is done in
(the request id, the conversation id, the property and the channel) where it is known: `log_context`
sets it for the code below it, through a context variable, so asyncio tasks keep their own.

Third-party chatter is kept out of INFO: APScheduler's two lines per job run, and Bolt's multi-line
"Unhandled request" warning for an event type Smith does not listen to (one DEBUG line instead).
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Literal

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
CONTEXT_FIELDS = ("request_id", "conversation_id", "property", "channel")
_context: ContextVar[dict[str, str]] = ContextVar("smith_log_context", default={})  # noqa: B039


@contextmanager
def log_context(**fields: str | None) -> Iterator[None]:
    """Add these fields (those not None) to every log record made inside the block."""
    token = _context.set({**_context.get(), **{key: value for key, value in fields.items() if value}})
    try:
        yield
    finally:
        _context.reset(token)


class _ContextFilter(logging.Filter):
    """Copies the current log context onto each record (as attributes a formatter can read)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in _context.get().items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


class _UnhandledBoltRequest(logging.Filter):
    """Bolt warns, over several lines with the whole request body, about every event type it has no
    listener for; Smith subscribes to more than it listens to, so that is expected. One DEBUG line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith("slack_bolt") or not str(record.msg).startswith("Unhandled request"):
            return True
        if not logging.getLogger().isEnabledFor(logging.DEBUG):
            return False
        record.msg, record.args = "unhandled Slack request (no listener for it)", None
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, known context."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in CONTEXT_FIELDS:
            value = getattr(record, key, None)
            if value is not None:
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure_logging(level: str, log_format: Literal["text", "json"]) -> None:
    """Route every log record to stderr in the chosen format; called once, by `smith serve`."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    handler.addFilter(_ContextFilter())
    handler.addFilter(_UnhandledBoltRequest())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    # APScheduler logs "Running job…" and "…executed successfully" for every run: DEBUG material.
    quiet = logging.WARNING if root.getEffectiveLevel() > logging.DEBUG else logging.DEBUG
    logging.getLogger("apscheduler").setLevel(quiet)
