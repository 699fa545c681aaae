"""What the listeners need, handed over by app.py (settings are never read here)."""

from __future__ import annotations

from dataclasses import dataclass

from gradecore.store import Store
from smith.listening.processor import ActProcessor


@dataclass
class ListenerServices:
    store: Store
    processor: ActProcessor
