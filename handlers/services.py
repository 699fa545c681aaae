"""What the listeners need, handed over by app.py (settings are never read here)."""

from __future__ import annotations

from dataclasses import dataclass, field

from gradecore.store import Store
from smith.listening.inbox_writer import InboxWriter
from smith.listening.processor import ActProcessor


@dataclass
class ListenerServices:
    store: Store
    processor: ActProcessor
    inbox: InboxWriter = field(init=False)

    def __post_init__(self) -> None:
        self.inbox = InboxWriter(self.store)
