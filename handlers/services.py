"""What the listeners need, handed over by app.py (settings are never read here)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from gradecore.store import Store
from smith.listening.processor import ActProcessor

# Enough for a burst of inserts in flight; each holds one pooled connection for one INSERT.
INBOX_WRITERS = 8


def _inbox_executor() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=INBOX_WRITERS, thread_name_prefix="smith-inbox")


@dataclass
class ListenerServices:
    store: Store
    processor: ActProcessor
    # The insert before an ack runs on threads of its own: acks never queue behind the processing
    # work (users.info, verdicts) that shares asyncio's default executor.
    inbox_executor: ThreadPoolExecutor = field(default_factory=_inbox_executor)
