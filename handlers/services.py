"""What the listeners need, handed over by app.py (settings are never read here)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

from gradecore.store import Store
from smith.listening.inbox_writer import DEFAULT_DEADLINE_SECONDS, InboxWriter
from smith.listening.processor import ActProcessor


@dataclass
class ListenerServices:
    store: Store
    processor: ActProcessor
    # How long an ack may wait for its event's inbox row (Slack gives up after 3 seconds).
    ack_deadline: float = DEFAULT_DEADLINE_SECONDS
    inbox: InboxWriter = field(init=False)
    _running: set[asyncio.Task[str]] = field(init=False, default_factory=set)

    def __post_init__(self) -> None:
        self.inbox = InboxWriter(self.store, deadline=self.ack_deadline)
        # Acks first: processing waits (a bounded while) for a burst of events to be recorded.
        self.processor.defer_while(self.inbox.busy)

    def in_background(self, processing: Coroutine[Any, Any, str]) -> None:
        """Run a processing coroutine on its own (the event loop keeps only weak references)."""
        task = asyncio.get_running_loop().create_task(processing)
        self._running.add(task)
        task.add_done_callback(self._running.discard)
