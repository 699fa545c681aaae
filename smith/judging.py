"""The judge lane, off the ingest path: a worker that pays what ingest recorded as owed.

Ingest answers after the deterministic grade and leaves a JudgeRequest in its transaction. This worker
(a task in `smith serve`, or run to the end by `smith ingest`) claims requests, judges the stored
document, and records the result as a grade of its own that edits the posts in place. A restart loses
nothing: unpaid requests are still in the database and are claimed again once their lease runs out.
The design is in docs/delivery.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from dataclasses import dataclass, field
from datetime import timedelta

from cerebrus.judge import JudgeLane, grade_with_judge
from gradecore.model.contract import Conversation
from gradecore.persistence.entities import JudgeRequest, utcnow
from gradecore.persistence.store import Store
from smith.ingest import Ingestor

log = logging.getLogger(__name__)


@dataclass
class JudgeWorker:
    store: Store
    lane: JudgeLane
    ingestor: Ingestor
    # Long enough for a conversation of many turns through a slow API; a crashed worker's requests
    # are taken up by another after it.
    lease_seconds: float = 600.0
    retry_seconds: float = 60.0
    batch_size: int = 4
    owner: str = field(default_factory=lambda: f"judge-{uuid.uuid4().hex[:10]}")
    _wake: asyncio.Event = field(default_factory=asyncio.Event, init=False, repr=False)

    def wake(self) -> None:
        """Ingest owes a new judgement: look now rather than at the next poll."""
        self._wake.set()

    async def run_once(self) -> int:
        """Judge what is owed now (one batch); how many requests were taken."""
        claimed = await asyncio.to_thread(self._claim)
        await asyncio.gather(*(self._pay(request) for request in claimed))
        return len(claimed)

    async def drain(self) -> int:
        """Judge until nothing is owed (the CLI's way: ingest is a batch there)."""
        total = 0
        while taken := await self.run_once():
            total += taken
        return total

    async def run_forever(self, stop: asyncio.Event, *, poll_interval: float = 30.0) -> None:
        while not stop.is_set():
            self._wake.clear()
            try:
                await self.run_once()
            except Exception:  # a database blip must not end the lane
                log.exception("judge worker tick failed; retrying")
            waiters = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(self._wake.wait())]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait(waiters, timeout=poll_interval, return_when=asyncio.FIRST_COMPLETED)
            for waiter in waiters:
                waiter.cancel()

    async def _pay(self, request: JudgeRequest) -> None:
        try:
            conversation = await asyncio.to_thread(self._document, request.conversation_id)
            if conversation is None:  # the record is gone: nothing left to judge
                await asyncio.to_thread(self._complete, request)
                return
            judged = await grade_with_judge(
                conversation, self.lane, rules=self.ingestor.rules, registry=self.ingestor.registry
            )
            recorded = await asyncio.to_thread(
                self.ingestor.record_judged, conversation, judged, request.content_hash, self.owner
            )
        except Exception:
            log.exception("judging %s failed; it will be tried again", request.conversation_id)
            await asyncio.to_thread(self._retry_later, request)
            return
        if recorded is None:
            log.info("judged %s, but a newer version arrived meanwhile", request.conversation_id)

    # --- database side (worker threads) ---------------------------------------------------------------

    def _claim(self) -> list[JudgeRequest]:
        lease = timedelta(seconds=self.lease_seconds)
        with self.store.unit() as unit:
            return list(unit.judging.claim(self.owner, now=utcnow(), lease=lease, limit=self.batch_size))

    def _document(self, conversation_id: str) -> Conversation | None:
        with self.store.unit() as unit:
            return unit.conversations.document(conversation_id)

    def _complete(self, request: JudgeRequest) -> None:
        with self.store.unit() as unit:
            unit.judging.complete(request.conversation_id, self.owner, request.content_hash)

    def _retry_later(self, request: JudgeRequest) -> None:
        at = utcnow() + timedelta(seconds=self.retry_seconds)
        with self.store.unit() as unit:
            unit.judging.retry_later(request.conversation_id, self.owner, at=at)
