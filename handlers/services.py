"""What the listeners need, built and configured by app.py (settings are never read here)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

from gradecore.persistence.store import Store
from smith.listening.identity import Directory
from smith.listening.inbox_writer import InboxWriter
from smith.listening.membership import ChannelsOfPeople
from smith.listening.processor import ActProcessor
from smith.listening.viewer_locale import ViewerLocales


@dataclass
class ListenerServices:
    store: Store
    inbox: InboxWriter  # records events before their ack
    processor: ActProcessor  # processes them after it
    directory: Directory  # who people are in Slack (users.info)
    viewer_locales: ViewerLocales = field(default_factory=ViewerLocales)  # the Home tab's language
    membership: ChannelsOfPeople | None = None  # which channels people are in (users.conversations)
    _running: set[asyncio.Task[str]] = field(init=False, default_factory=set)

    def in_background(self, processing: Coroutine[Any, Any, str]) -> None:
        """Run a processing coroutine on its own (the event loop keeps only weak references)."""
        task = asyncio.get_running_loop().create_task(processing)
        self._running.add(task)
        task.add_done_callback(self._running.discard)
