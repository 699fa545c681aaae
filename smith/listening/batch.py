"""One transaction over a batch of inbox events: claim the rows, plan each act, write what can be.

A batch costs a handful of queries however many events it holds: the rows are claimed together,
posts come from a cache, each item's grade and the people are read once, earlier acts are
prefetched, new verdicts are inserted together and the rows are marked processed together.
An act whose author is not linked yet is handed back (users.info is never asked in a transaction).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gradecore.persistence.store import Store
from smith.listening import writing
from smith.listening.interpret import PlannedAct, interpret
from smith.listening.locating import LatestGrades, Locator


@dataclass
class WaitingEvent:
    """One event to process, and the caller waiting for its outcome."""

    seq: int  # arrival order: one person's acts are written in it
    arrived: float  # the event loop's clock
    event_id: str
    kind: str | None  # with the payload when the listener carried it; else read from the inbox
    payload: dict[str, Any] | None
    done: asyncio.Future[str] = field(repr=False)
    requeued: int = 0  # times it came back from a users.info lookup


@dataclass(frozen=True)
class Unlinked:
    """An act whose author is not linked to a User (or waits behind one that is not), or whose
    channels are not known yet: it leaves the batch for a lookup in Slack."""

    planned: PlannedAct


# docs/verdicts.md: Slack only delivers an act from a member, but the check is explicit.
NOT_A_MEMBER = "ignored: not a member of the post's channel"
ChannelsKnown = Callable[[str], frozenset[str] | None]  # a person's channels if known now, else None


def outside_the_channel(planned: PlannedAct, channels: frozenset[str] | None) -> bool:
    """An act on a post in a channel its author is not a member of (with the author's channels known)."""
    channel = planned.act.slack_channel
    return channels is not None and channel is not None and channel not in channels


def run_batch(
    store: Store,
    locator: Locator,
    batch: list[WaitingEvent],
    *,
    bot_user_id: str | None,
    waiting_on_directory: frozenset[str],
    channels_known: ChannelsKnown | None = None,
) -> list[str | Unlinked]:
    """Each event's outcome (or `Unlinked`), in one transaction: all are done or none is.

    With `channels_known`, an act whose author's channels are not known yet is handed back like an
    unlinked one, and an act on a post in a channel its author is not in is ignored."""
    with store.unit() as unit:
        rows = unit.inbox.unprocessed_among(
            [waiting.event_id for waiting in batch if waiting.payload is not None],
            with_payload=False,
            lock=True,
        )
        rows |= unit.inbox.unprocessed_among(
            [waiting.event_id for waiting in batch if waiting.payload is None], with_payload=True, lock=True
        )
        grades = LatestGrades()
        plans: list[PlannedAct | str | None] = []
        for waiting in batch:
            row = rows.get(waiting.event_id)
            kind, payload = (
                (waiting.kind, waiting.payload) if waiting.payload is not None else row or (None, None)
            )
            if row is None or kind is None or payload is None:  # done already, or a replica's now
                plans.append(None)
                continue
            plans.append(
                interpret(unit, locator, grades, waiting.event_id, kind, payload, bot_user_id=bot_user_id)
            )
        acts = [plan for plan in plans if isinstance(plan, PlannedAct)]
        people = unit.identities.linked(plan.act.slack_user_id for plan in acts)
        writing.prefetch(
            unit, ((plan, known.user_id) for plan in acts if (known := people.get(plan.act.slack_user_id)))
        )
        results: list[str | Unlinked] = []
        finished: list[tuple[str, str]] = []
        for waiting, plan in zip(batch, plans, strict=True):
            if plan is None:
                results.append("already processed")
                continue
            if isinstance(plan, str):
                outcome = plan
            else:
                author = plan.act.slack_user_id
                linked = people.get(author)
                # Behind an earlier act of theirs that waits on users.info: keep their order.
                channels = channels_known(author) if channels_known is not None else None
                unknown_channels = channels_known is not None and channels is None and plan.act.slack_channel
                if linked is None or author in waiting_on_directory or unknown_channels:
                    results.append(Unlinked(plan))
                    continue
                if outside_the_channel(plan, channels):
                    outcome = NOT_A_MEMBER
                elif linked.active:
                    outcome = writing.record(unit, plan, linked.user_id)
                else:
                    outcome = "ignored: inactive user"
            finished.append((waiting.event_id, outcome))
            results.append(outcome)
        unit.inbox.finish_many(finished)
        writing.after_recording(unit, zip(plans, results, strict=True))
    return results
