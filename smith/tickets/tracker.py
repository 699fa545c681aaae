"""Where tickets live: the tracker protocol and the embedded default, one markdown file per signature.

A tracker is told what a ticket should say (`TicketContent`); the sync decides when. Every operation
is idempotent except `create`, which the sync guards by asking `find` first whenever an earlier
create may have happened without being recorded.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Protocol

from gradecore.errors import SmithError
from smith.tickets.render import TicketContent, marker


class TrackerError(SmithError):
    """The tracker could not be reached or refused the operation; the sync retries on its next run."""


class TrackerRateLimited(TrackerError):
    """The tracker will take no request before `until` (GitHub's primary rate limit, or a secondary one
    that outlasted the waits): the sync stops for this run and says which tickets it postponed."""

    def __init__(self, until: datetime) -> None:
        super().__init__(f"rate limited until {until:%Y-%m-%d %H:%M} UTC")
        self.until = until


@dataclass(frozen=True, slots=True)
class TicketRef:
    ref: str  # an issue number, or a file path relative to the tickets directory's parent
    url: str | None


class Tracker(Protocol):
    name: str

    def find(self, signature_id: str, *, created_since: datetime | None) -> TicketRef | None: ...

    def create(self, content: TicketContent) -> TicketRef: ...

    def update(self, ref: TicketRef, content: TicketContent) -> None: ...

    def comment(self, ref: TicketRef, key: str, text: str) -> None: ...


class MarkdownTracker:
    """`<dir>/tickets/<signature id>.md`, rewritten atomically; comments live in the body's history."""

    name = "markdown"

    def __init__(self, directory: Path) -> None:
        self._root = directory

    def find(self, signature_id: str, *, created_since: datetime | None) -> TicketRef | None:
        path = self._path(signature_id)
        if path.exists() and marker(signature_id) in path.read_text(encoding="utf-8"):
            return self._ref(signature_id)
        return None

    def create(self, content: TicketContent) -> TicketRef:
        self._write(content)
        return self._ref(content.signature_id)

    def update(self, ref: TicketRef, content: TicketContent) -> None:
        self._write(content)

    def comment(self, ref: TicketRef, key: str, text: str) -> None:
        """Nothing to do: the markdown body renders the ticket's history itself."""

    def _write(self, content: TicketContent) -> None:
        path = self._path(content.signature_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.tmp")
        temporary.write_text(f"# {content.title}\n\n{content.body}", encoding="utf-8")
        os.replace(temporary, path)  # readers see the old ticket or the new one, never half of one

    def _path(self, signature_id: str) -> Path:
        return self._root / "tickets" / f"{signature_id}.md"

    def _ref(self, signature_id: str) -> TicketRef:
        path = self._path(signature_id)
        return TicketRef(ref=f"tickets/{signature_id}.md", url=path.resolve().as_uri())
