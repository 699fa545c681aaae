"""Processes inbox events after their ack: who acted, on which item, and what the act means.

Events that arrive together are processed together, in one transaction: the rows are claimed, the
items located, the people looked up, the verdicts written and the rows marked processed, with one
commit (group commit, as the inbox writer does for the inserts before the ack). A crash leaves the
whole batch for the next retry pass; if the batch fails, each event is tried again on its own, so one
bad event costs only itself. Acts carry unique keys, so processing an event twice (two replicas, a
retried pass) writes nothing twice.

An act by someone not yet linked needs users.info, which is never asked inside a transaction: such
events leave the batch; once the person is known their acts rejoin the batches (or, unlinked, are
parked), one person's acts in the order they came.

Acks come first: while a burst of events is being recorded, batches wait (`defer_while`, a bounded
while), then process the burst in a few big batches.
"""

from __future__ import annotations

import asyncio
import bisect
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from gradecore.persistence.db import first_line
from gradecore.persistence.entities import utcnow
from gradecore.persistence.store import Store
from smith.listening import writing
from smith.listening.batch import NOT_A_MEMBER, Unlinked, WaitingEvent, outside_the_channel, run_batch
from smith.listening.identity import Directory, DirectoryUnavailable, Resolution, resolve
from smith.listening.interpret import PlannedAct
from smith.listening.locating import Locator
from smith.listening.membership import ChannelsOfPeople, MembershipUnavailable

log = logging.getLogger(__name__)
T = TypeVar("T")
# A linked person's acts go back to the batches after a lookup; this bounds the round trips of an
# act that keeps landing in a batch that started before the lookup ended.
_MAX_REQUEUES = 3


_Deferred = tuple[WaitingEvent, PlannedAct]


def unavailable(exc: BaseException) -> bool:
    """A failure of Slack or the database, not of the event: it passes, and the event is tried again."""
    if isinstance(exc, DirectoryUnavailable | MembershipUnavailable | OperationalError | PoolTimeout):
        return True
    return isinstance(exc, DBAPIError) and exc.connection_invalidated


def _first_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {first_line(exc)}"


class ActProcessor:
    def __init__(
        self,
        store: Store,
        directory: Directory,
        *,
        bot_user_id: str | None,
        max_concurrency: int = 2,
        max_batch: int = 128,
        max_attempts: int = 5,
        back_off: timedelta = timedelta(seconds=30),
        ask_bot_user_id: Callable[[], Awaitable[str | None]] | None = None,
        membership: ChannelsOfPeople | None = None,
    ) -> None:
        """`bot_user_id` is Smith's own Slack user (its acts are ignored); when it is not known yet,
        `ask_bot_user_id` (auth.test) is asked before the first batch. With `membership`, an act by
        someone who is not a member of the post's channel is ignored (docs/verdicts.md)."""
        self._store = store
        self._max_attempts = max_attempts
        self._back_off = back_off
        self._directory = directory
        self._membership = membership
        self.bot_user_id = bot_user_id
        self._ask_bot_user_id = ask_bot_user_id
        self._max_batch = max_batch
        self._locator = Locator()
        self._waiting: list[WaitingEvent] = []
        self._seq = 0
        self._busy: Callable[[], bool] = lambda: False
        self._max_delay = 0.0
        self._worker: asyncio.Task[None] | None = None
        # One thread for all processing: acked work queues here rather than crowding out the next
        # acks (the inbox writer has a thread of its own), and batches never race each other.
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="smith-acts")
        self._asking = asyncio.Semaphore(max_concurrency)  # users.info calls at once
        # Slack users being looked up, and their acts that wait for the answer, in arrival order.
        self._unlinked: dict[str, list[_Deferred]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def defer_while(self, busy: Callable[[], bool], *, at_most: float = 2.0) -> None:
        """Wait while `busy()` (acks are being recorded) before a batch, for up to `at_most` seconds
        after its oldest event arrived: a burst is acked at full speed and processed right after,
        in big batches, and steady traffic is processed within `at_most`."""
        self._busy, self._max_delay = busy, at_most

    async def process(
        self, event_id: str, *, kind: str | None = None, payload: dict[str, Any] | None = None
    ) -> str:
        """Process one recorded event; returns a short outcome (also stored on the inbox row).

        The listener passes the payload it has just recorded, sparing a read of the inbox row.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[str] = loop.create_future()
        carried = kind is not None and payload is not None
        self._seq += 1
        waiting = WaitingEvent(
            self._seq, loop.time(), event_id, kind if carried else None, payload if carried else None, done
        )
        self._waiting.append(waiting)
        self._start_worker()
        return await done

    def _start_worker(self) -> None:
        loop = asyncio.get_running_loop()
        if self._worker is None or self._worker.done() or self._worker.get_loop() is not loop:
            self._worker = loop.create_task(self._work())

    async def process_leftovers(self, *, older_than: timedelta = timedelta(seconds=10)) -> int:
        """Events recorded but never processed (a crash after the ack): process them now."""
        ids = await self._in_thread(self._leftovers, older_than)
        await asyncio.gather(*(self.process(event_id) for event_id in ids))
        return len(ids)

    async def run_forever(self, stop: asyncio.Event, *, interval: float = 30.0) -> None:
        while not stop.is_set():
            try:
                await self.process_leftovers()
            except Exception as exc:
                if not unavailable(exc):
                    log.exception("inbox retry pass failed; retrying")
                else:
                    log.warning("inbox retry pass postponed: %s", _first_line(exc))
            try:
                await asyncio.wait_for(stop.wait(), timeout=interval)
            except TimeoutError:
                continue

    # --- batches ---------------------------------------------------------------------------------

    async def _work(self) -> None:
        # No delay is added to gather a batch: while one batch is written, the next events queue.
        loop = asyncio.get_running_loop()
        await self._know_the_bot()
        while self._waiting:
            deadline = min(waiting.arrived for waiting in self._waiting) + self._max_delay
            while self._busy() and loop.time() < deadline:  # noqa: ASYNC110 (a poll with a deadline)
                await asyncio.sleep(0.01)
            batch, self._waiting = self._waiting[: self._max_batch], self._waiting[self._max_batch :]
            waiting_on_directory = frozenset(self._unlinked)
            try:
                results = await self._in_thread(self._run, batch, waiting_on_directory)
            except Exception as exc:
                log.warning(
                    "a batch of %d events failed; trying each alone",
                    len(batch),
                    exc_info=not unavailable(exc),
                )
                results = [await self._run_alone(waiting) for waiting in batch]
            for waiting, result in zip(batch, results, strict=True):
                if isinstance(result, Unlinked):
                    self._defer(waiting, result.planned)
                elif not waiting.done.done():
                    waiting.done.set_result(result)

    async def _know_the_bot(self) -> None:
        if self.bot_user_id is not None or self._ask_bot_user_id is None:
            return
        try:
            self.bot_user_id = await self._ask_bot_user_id()
        except Exception as exc:  # Slack unwell: its own acts are still told apart by users.info (is_bot)
            log.warning("could not learn Smith's own Slack user now: %s", _first_line(exc))

    def _run(self, batch: list[WaitingEvent], waiting_on_directory: frozenset[str]) -> list[str | Unlinked]:
        return run_batch(
            self._store,
            self._locator,
            batch,
            bot_user_id=self.bot_user_id,
            waiting_on_directory=waiting_on_directory,
            channels_known=self._membership.known if self._membership is not None else None,
        )

    async def _run_alone(self, waiting: WaitingEvent) -> str | Unlinked:
        try:
            return (await self._in_thread(self._run, [waiting], frozenset(self._unlinked)))[0]
        except Exception as exc:  # keep the row for the retry pass; never lose an acked event
            if unavailable(exc):
                log.warning("processing event %s postponed: %s", waiting.event_id, _first_line(exc))
            else:
                log.exception("processing event %s failed", waiting.event_id)
            return await self._count_attempt(waiting.event_id, exc)

    # --- people not linked yet ---------------------------------------------------------------------

    def _defer(self, event: WaitingEvent, planned: PlannedAct) -> None:
        author = planned.act.slack_user_id
        waiting = self._unlinked.get(author)
        if waiting is not None:  # users.info is being asked about them: their act waits its turn
            bisect.insort(waiting, (event, planned), key=lambda deferred: deferred[0].seq)
            return
        self._unlinked[author] = [(event, planned)]
        task = asyncio.get_running_loop().create_task(self._ask_then_write(author, planned.act.team_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _ask_then_write(self, author: str, team_id: str) -> None:
        """Ask who `author` is; their waiting acts then rejoin the batches, or are written here."""
        taken: list[_Deferred] = []
        try:
            while True:
                taken = self._unlinked[author]
                if not taken:  # nothing more came meanwhile: their next acts go in batches
                    del self._unlinked[author]
                    return
                self._unlinked[author] = []
                try:
                    async with self._asking:
                        who = await resolve(self._store, self._directory, author, team_id)
                        if self._membership is not None:
                            await self._membership.channels_of(author)  # the batch reads it cached
                    if who.user is not None and all(waiting.requeued < _MAX_REQUEUES for waiting, _ in taken):
                        # Linked now: their acts rejoin the batches, ahead of anything newer.
                        taken += self._unlinked.pop(author)
                        self._requeue([waiting for waiting, _ in taken])
                        taken = []
                        return
                    outcomes = await self._write_for(taken, who)
                except Exception as exc:  # Slack is unwell, or the database: the retry pass tries again
                    if unavailable(exc):
                        log.warning("processing %d event(s) by %s postponed: %s", len(taken), author, exc)
                    else:
                        log.exception("processing %d event(s) by %s failed", len(taken), author)
                    outcomes = [await self._count_attempt(waiting.event_id, exc) for waiting, _ in taken]
                for (waiting, _), outcome in zip(taken, outcomes, strict=True):
                    if not waiting.done.done():
                        waiting.done.set_result(outcome)
        finally:  # cancelled (shutting down): the rows stay in the inbox for the next start
            for waiting, _ in taken + self._unlinked.pop(author, []):
                if not waiting.done.done():
                    waiting.done.cancel()

    def _requeue(self, waiting_events: list[WaitingEvent]) -> None:
        for waiting in waiting_events:
            waiting.requeued += 1
        self._waiting = sorted(waiting_events + self._waiting, key=lambda waiting: waiting.seq)
        self._start_worker()

    async def _write_for(self, taken: list[_Deferred], who: Resolution) -> list[str]:
        try:
            return await self._in_thread(self._write_all_for, taken, who)
        except Exception:
            log.warning("writing %d act(s) together failed; trying each alone", len(taken), exc_info=True)
        outcomes = []
        for deferred in taken:
            try:
                outcomes += await self._in_thread(self._write_all_for, [deferred], who)
            except Exception as exc:
                log.exception("processing event %s failed", deferred[0].event_id)
                outcomes.append(await self._count_attempt(deferred[0].event_id, exc))
        return outcomes

    def _write_all_for(self, taken: list[_Deferred], who: Resolution) -> list[str]:
        with self._store.unit() as unit:
            if who.may_grade and who.user is not None and who.user.id is not None:
                writing.prefetch(unit, ((planned, who.user.id) for _, planned in taken))
            channels = (
                self._membership.known(taken[0][1].act.slack_user_id)
                if self._membership is not None
                else None
            )
            outcomes = [
                NOT_A_MEMBER
                if outside_the_channel(planned, channels)
                else writing.write_for(unit, planned, who)
                for _, planned in taken
            ]
            writing.after_recording(unit, zip((planned for _, planned in taken), outcomes, strict=True))
            unit.inbox.finish_many(
                [(waiting.event_id, outcome) for (waiting, _), outcome in zip(taken, outcomes, strict=True)]
            )
        return outcomes

    # --- database side ---------------------------------------------------------------------------

    async def _in_thread(self, function: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, function, *args)

    def _leftovers(self, older_than: timedelta) -> list[str]:
        with self._store.unit() as unit:
            return list(unit.inbox.unprocessed(older_than=utcnow() - older_than))

    async def _count_attempt(self, event_id: str, exc: Exception) -> str:
        # Slack or the database being unreachable is nobody's payload's fault: such an event is
        # neither parked nor made to wait out a back-off; the next retry pass tries it again.
        passing = unavailable(exc)
        park_after = None if passing else self._max_attempts
        back_off = timedelta(0) if passing else self._back_off

        def count() -> bool:
            with self._store.unit() as unit:
                return unit.inbox.count_attempt(
                    event_id, type(exc).__name__, park_after=park_after, back_off=back_off
                )

        try:
            parked = await self._in_thread(count)
        except Exception as failure:  # the database itself is down: the row is still there for the retry pass
            log.warning("could not count the failed attempt at event %s: %s", event_id, _first_line(failure))
            parked = False
        if parked:
            log.error(
                "event %s parked after %d failed attempts (%s); it is counted in /readyz",
                event_id,
                self._max_attempts,
                type(exc).__name__,
            )
        return f"error: {type(exc).__name__}"
