"""Processes inbox events after their ack: who acted, on which item, and what the act means.

Each event ends in one transaction that writes the verdict (or the pending act) and marks the inbox
row processed, so a crash either leaves the event for the next sweep or leaves it fully done. Acts
carry unique keys, so processing an event twice (two replicas, a retried sweep) writes nothing twice.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from gradecore.entities import MachineGrade, PendingAct, SlackPost, utcnow
from gradecore.recording import frozen_copy
from gradecore.store import Store, Unit
from smith import texts
from smith.acts import HumanAct, ItemType, Target, record_act
from smith.corrections import parse_correction
from smith.listening.events import Ignored, ReactionEvent, ReplyDeleted, ReplyEvent, parse_event
from smith.listening.identity import Directory, DirectoryUnavailable, Resolution, resolve
from smith.listening.modal import ModalSubmission
from smith.listening.notify import queue_ephemeral

log = logging.getLogger(__name__)
_TURN_REFERENCE = re.compile(r"\bturno?\s*#?\s*(\d{1,3})\b", re.IGNORECASE)


@dataclass(frozen=True)
class Located:
    """The Smith post an act is about, and the item it shows."""

    post: SlackPost
    target: Target
    machine: MachineGrade


class ActProcessor:
    def __init__(
        self, store: Store, directory: Directory, *, bot_user_id: str | None, max_concurrency: int = 2
    ) -> None:
        self._store = store
        self._directory = directory
        self.bot_user_id = bot_user_id
        # Acked work waits its turn rather than crowding out the next acks (CPU and connections).
        self._slots = asyncio.Semaphore(max_concurrency)

    @property
    def directory(self) -> Directory:
        """Who people are in Slack (users.info), shared with the listeners that need it."""
        return self._directory

    async def process(self, event_id: str) -> str:
        """Process one inbox event; returns a short outcome (also stored on the inbox row)."""
        async with self._slots:
            return await self._process(event_id)

    async def _process(self, event_id: str) -> str:
        row = await asyncio.to_thread(self._load, event_id)
        if row is None:
            return "already processed"
        kind, payload = row
        try:
            if kind == "view_submission":
                submission = ModalSubmission.from_payload(payload)
                machine = await asyncio.to_thread(self._machine_shown, submission)
                if machine is None:
                    return await self._finish(event_id, "ignored: the graded item is gone")
                return await self._process_act(event_id, submission.as_act(), machine)
            return await self._process_event(event_id, payload)
        except DirectoryUnavailable as exc:  # Slack is unwell: the sweep tries again later
            log.warning("processing event %s postponed: %s", event_id, exc)
            await asyncio.to_thread(self._count_attempt, event_id, type(exc).__name__)
            return f"error: {type(exc).__name__}"
        except Exception as exc:  # keep the row for the sweep; never lose an acked event
            log.exception("processing event %s failed", event_id)
            await asyncio.to_thread(self._count_attempt, event_id, type(exc).__name__)
            return f"error: {type(exc).__name__}"

    async def process_leftovers(self, *, older_than: timedelta = timedelta(seconds=10)) -> int:
        """Events recorded but never processed (a crash after the ack): process them now."""
        ids = await asyncio.to_thread(self._leftovers, older_than)
        for event_id in ids:
            await self.process(event_id)
        return len(ids)

    async def run_forever(self, stop: asyncio.Event, *, interval: float = 30.0) -> None:
        while not stop.is_set():
            try:
                await self.process_leftovers()
            except Exception:
                log.exception("inbox sweep failed; retrying")
            try:
                await asyncio.wait_for(stop.wait(), timeout=interval)
            except TimeoutError:
                continue

    # --- events ----------------------------------------------------------------------------------

    async def _process_event(self, event_id: str, payload: dict[str, Any]) -> str:
        parsed = parse_event(payload)
        if isinstance(parsed, Ignored):
            return await self._finish(event_id, f"ignored: {parsed.why}")
        if parsed.user == self.bot_user_id:
            return await self._finish(event_id, "ignored: Smith's own act")
        if isinstance(parsed, ReactionEvent):
            if parsed.signal is None:
                return await self._finish(event_id, "ignored: emoji Smith does not read")
            located = await asyncio.to_thread(self._locate, parsed.channel, parsed.ts, None)
            if located is None:
                return await self._finish(event_id, "ignored: not a Smith post")
            act = HumanAct(
                slack_user_id=parsed.user,
                team_id=parsed.team_id,
                signal=parsed.signal if parsed.added else "retraction",  # type: ignore[arg-type]
                retracts_signal=None if parsed.added else parsed.signal,  # type: ignore[arg-type]
                target=located.target,
                origin="slack_reaction",
                act_key=f"event:{event_id}",
                slack_channel=parsed.channel,
                slack_ts=parsed.ts,
                slack_event_id=event_id,
            )
            return await self._process_act(event_id, act, located.machine)
        if isinstance(parsed, ReplyDeleted):
            located = await asyncio.to_thread(
                self._locate, parsed.channel, parsed.thread_ts, parsed.deleted_ts
            )
            if located is None:
                return await self._finish(event_id, "ignored: not in a Smith thread")
            act = HumanAct(
                slack_user_id=parsed.user,
                team_id=parsed.team_id,
                signal="retraction",
                retracts_slack_ts=parsed.deleted_ts,
                target=located.target,
                origin="slack_reply",
                act_key=f"event:{event_id}",
                slack_channel=parsed.channel,
                slack_ts=parsed.deleted_ts,
                slack_event_id=event_id,
            )
            return await self._process_act(event_id, act, located.machine)
        return await self._process_reply(event_id, parsed)

    async def _process_reply(self, event_id: str, reply: ReplyEvent) -> str:
        located = await asyncio.to_thread(self._locate, reply.channel, reply.thread_ts, reply.ts, reply.text)
        if located is None:
            return await self._finish(event_id, "ignored: not in a Smith thread")
        correction = parse_correction(reply.text)
        key = f"reply:{reply.channel}:{reply.ts}" + (f":edit:{reply.edit_of}" if reply.edit_of else "")
        act = HumanAct(
            slack_user_id=reply.user,
            team_id=reply.team_id,
            signal="correction",
            target=located.target,
            origin="slack_reply",
            act_key=key,
            expected_level=correction.expected_level,
            note=(reply.text.strip() if correction.is_note else (correction.reason or ""))[:4000] or None,
            tags=correction.tags,
            slack_channel=reply.channel,
            slack_ts=reply.ts,
            slack_event_id=event_id,
        )
        hint = None
        if correction.is_note:
            hint = (f"hint:{reply.channel}:{reply.thread_ts}:{reply.user}", reply.channel, reply.thread_ts)
        return await self._process_act(event_id, act, located.machine, hint=hint)

    # --- acts ------------------------------------------------------------------------------------

    async def _process_act(
        self,
        event_id: str,
        act: HumanAct,
        machine: MachineGrade | dict[str, Any],
        *,
        hint: tuple[str, str, str] | None = None,
    ) -> str:
        who = await resolve(self._store, self._directory, act.slack_user_id, act.team_id)
        return await asyncio.to_thread(self._write, event_id, act, machine, who, hint)

    def _write(
        self,
        event_id: str,
        act: HumanAct,
        machine: MachineGrade | dict[str, Any],
        who: Resolution,
        hint: tuple[str, str, str] | None,
    ) -> str:
        frozen = frozen_copy(machine) if isinstance(machine, MachineGrade) else machine
        with self._store.unit() as unit:
            if who.is_bot:
                outcome = "ignored: another bot"
            elif who.user is None:
                outcome = self._park(unit, act, frozen)
            elif not who.user.active:
                outcome = "ignored: inactive user"
            else:
                assert who.user.id is not None
                recorded = record_act(unit, act, who.user.id, frozen)
                outcome = (
                    "duplicate" if recorded.duplicate else f"recorded {len(recorded.verdicts)} verdict(s)"
                )
                if hint is not None and not recorded.duplicate:
                    key, channel, thread_ts = hint
                    title, body = texts.note_hint()
                    queue_ephemeral(
                        unit,
                        key=key,
                        channel=channel,
                        user=act.slack_user_id,
                        title=title,
                        body=body,
                        thread_ts=thread_ts,
                    )
            unit.inbox.finish(event_id, outcome)
        return outcome

    def _park(self, unit: Unit, act: HumanAct, frozen: dict[str, Any]) -> str:
        """No User, no verdict: keep the act (with the grade as it was) until an admin links the person."""
        unit.pending_acts.add(
            PendingAct(
                slack_user_id=act.slack_user_id,
                act={"act": act.to_json(), "machine": frozen},
                act_key=act.act_key,
                machine_grade_id=str(frozen["id"]),
            )
        )
        if act.slack_channel:
            title, body = texts.not_linked()
            queue_ephemeral(
                unit,
                key=f"unlinked:{act.slack_channel}:{act.slack_user_id}",
                channel=act.slack_channel,
                user=act.slack_user_id,
                title=title,
                body=body,
            )
        return "pending: Slack user not linked to a staff user"

    # --- database side ---------------------------------------------------------------------------

    def _load(self, event_id: str) -> tuple[str, dict[str, Any]] | None:
        with self._store.unit() as unit:
            row = unit.inbox.get(event_id)
            if row is None or row.processed_at is not None:
                return None
            return row.kind, row.payload

    def _locate(self, channel: str, ts: str, reply_ts: str | None, text: str = "") -> Located | None:
        """The Smith post a reaction (on `ts`) or a thread reply (under `ts`) is about."""
        with self._store.unit() as unit:
            post = unit.outbox.by_channel_ts(channel, ts)
            if post is None or post.kind not in ("conversation", "turn"):
                return None
            if reply_ts is not None:
                post = self._post_replied_to(unit, post, reply_ts, text)
            item_type: ItemType = "turn" if post.kind == "turn" else "conversation"
            assert post.conversation_id is not None and post.property_id is not None
            target = Target(item_type, post.conversation_id, post.turn_id, post.property_id)
            machine = unit.grades.latest(item_type, target.ref)
            if machine is None:
                return None
            return Located(post, target, machine)

    @staticmethod
    def _post_replied_to(unit: Unit, parent: SlackPost, reply_ts: str, text: str) -> SlackPost:
        """A reply is about the Smith post just above it, unless it names a turn ("turn 2")."""
        posts = [post for post in unit.outbox.thread_posts(parent) if float(post.ts or 0) < float(reply_ts)]
        if not posts:
            return parent
        named = _TURN_REFERENCE.search(text)
        if named is not None:
            document = unit.conversations.get(parent.conversation_id or "")
            turn_ids = [turn["id"] for turn in (document.document.get("turns") or [])] if document else []
            wanted = int(named.group(1))
            if 1 <= wanted <= len(turn_ids):
                for post in posts:
                    if post.turn_id == turn_ids[wanted - 1]:
                        return post
        return posts[-1]

    def _machine_shown(self, submission: ModalSubmission) -> MachineGrade | None:
        """The grade the modal was opened on (frozen as the person saw it), else the item's latest."""
        with self._store.unit() as unit:
            shown = unit.grades.get(submission.machine_grade_id)
            return shown or unit.grades.latest(submission.target.item_type, submission.target.ref)

    def _leftovers(self, older_than: timedelta) -> list[str]:
        with self._store.unit() as unit:
            return list(unit.inbox.unprocessed(older_than=utcnow() - older_than))

    def _count_attempt(self, event_id: str, error: str) -> None:
        with self._store.unit() as unit:
            unit.inbox.count_attempt(event_id, error)

    async def _finish(self, event_id: str, outcome: str) -> str:
        def finish() -> None:
            with self._store.unit() as unit:
                unit.inbox.finish(event_id, outcome)

        await asyncio.to_thread(finish)
        return outcome
