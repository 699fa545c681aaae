"""Records events in the inbox before their ack, sharing one transaction among events that arrive
together (group commit).

Every ack waits for its own event's row to be committed — nothing is acked unrecorded — but a burst
of 32 reactions costs one INSERT and one commit, not 32. No delay is added to batch: while one write
is in flight the next events queue, and the next write takes them all.

Each ack waits a bounded while (`deadline`): a stalled database makes the ack an error, which Slack
retries, instead of a request that hangs past Slack's 3 seconds.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from gradecore.errors import SmithError
from gradecore.persistence.store import Store
from smith.metrics import ACKS

_Entry = tuple[str, str, dict[str, Any], "asyncio.Future[bool]"]
DEFAULT_DEADLINE_SECONDS = 2.0


class InboxUnavailable(SmithError):
    """The event could not be recorded in time: it must not be acked (Slack will deliver it again)."""


class InboxWriter:
    def __init__(
        self, store: Store, *, max_batch: int = 256, deadline: float = DEFAULT_DEADLINE_SECONDS
    ) -> None:
        self._store = store
        self._max_batch = max_batch
        self._deadline = deadline
        self._waiting: list[_Entry] = []
        self._writer: asyncio.Task[None] | None = None
        # A thread of its own: acks never queue behind processing work in asyncio's default executor.
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="smith-inbox")
        self._last_record = float("-inf")

    def busy(self, *, quiet_for: float = 0.05) -> bool:
        """Events are arriving (one was recorded within `quiet_for` seconds, or is being written)."""
        writing = self._writer is not None and not self._writer.done()
        return writing or time.monotonic() - self._last_record < quiet_for

    @property
    def deadline(self) -> float:
        """Seconds an ack may wait for its event's row."""
        return self._deadline

    async def record(
        self, event_id: str, kind: str, payload: dict[str, Any], *, within: float | None = None
    ) -> bool:
        """Durably record one event; True when it is for this caller to process: new, or recorded by
        an earlier copy that was never processed (that copy was answered with an error).

        False for a copy of an event already processed. Raises `InboxUnavailable` when the row is
        not known to be committed within the deadline (or `within` seconds); the write may still land
        later, and Slack's retry then finds it.
        """
        timeout = self._deadline if within is None else within
        loop = asyncio.get_running_loop()
        self._last_record = time.monotonic()
        done: asyncio.Future[bool] = loop.create_future()
        self._waiting.append((event_id, kind, payload, done))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_all())
        try:
            # Shielded: the write goes on after a timeout, and its result must not find a cancelled future.
            fresh = await asyncio.wait_for(asyncio.shield(done), timeout=timeout)
        except TimeoutError:
            ACKS.labels(outcome="unavailable").inc()
            raise InboxUnavailable(f"the database did not answer within {timeout:.3g} s") from None
        ACKS.labels(outcome="stored" if fresh else "duplicate").inc()
        return fresh

    async def _write_all(self) -> None:
        loop = asyncio.get_running_loop()
        while self._waiting:
            batch, self._waiting = self._waiting[: self._max_batch], self._waiting[self._max_batch :]
            try:
                new = await loop.run_in_executor(self._executor, self._insert, batch)
            except Exception as exc:  # the ack must not happen: Slack gets an error and retries
                failure = InboxUnavailable(f"the event could not be recorded: {type(exc).__name__}")
                for *_, done in batch:
                    if not done.done():
                        done.set_exception(failure)
                        # Marked as seen: a caller that gave up at its deadline no longer awaits it.
                        done.exception()
                continue
            for event_id, _, _, done in batch:
                # Two copies in one batch: the first is new, the second is its retry.
                if not done.done():
                    done.set_result(event_id in new)
                new.discard(event_id)

    def _insert(self, batch: list[_Entry]) -> set[str]:
        with self._store.unit() as unit:
            return unit.inbox.add_many([(event_id, kind, payload) for event_id, kind, payload, _ in batch])

    def close(self) -> None:
        self._executor.shutdown(wait=False)
