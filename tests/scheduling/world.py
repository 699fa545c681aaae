"""A small real world for the scheduled jobs: properties, demo conversations ingested at chosen moments,
and human acts recorded through `smith.listening.acts.record_act`, exactly as the listener records them.

Time is moved with time-machine, so the grades' and verdicts' own `created_at`
(gradecore.persistence.entities.utcnow) land on the day a test means.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import time_machine
from sqlmodel import col, func, select

from cerebrus import Rules
from gradecore.model.contract import Conversation, parse_conversation
from gradecore.model.vocabulary import Level
from gradecore.persistence.entities import Fixture, GradeVerdict, JobRun, SlackPost
from gradecore.persistence.store import Store
from smith.ingest import Ingestor
from smith.listening.acts import HumanAct, ItemType, Signal, Target, record_act
from tests.conftest import load_demo

LAMPLITER = "lampliter-unbacked-promise"  # block: turn t1 promises arrival instructions not on file
CAMELLIA_DOUBLE = "camellia-double-send"  # block, with an `ours` part (a failed tool)
CAMELLIA_LANGUAGE = "camellia-wrong-language"  # hold
BIRCHWOOD_RENT = "birchwood-rent-mismatch"  # repair: turn t1 quotes $1,950
BIRCHWOOD_DEAD = "birchwood-dead-thread"  # hold
OAKRIDGE = "oakridge-clean-maintenance"  # pass


@contextmanager
def at(moment: datetime) -> Iterator[None]:
    """Freeze the wall clock at `moment` (aware) for what happens inside."""
    with time_machine.travel(moment, tick=False):
        yield


def demo(name: str) -> Conversation:
    return parse_conversation(load_demo(f"{name}.json"))


def demo_variant(name: str, suffix: str, *, property_of: str | None = None) -> Conversation:
    """The demo conversation under another id (one more of its kind), optionally moved to the property
    of another demo conversation (its id, name and timezone; the facts stay the conversation's own)."""
    document = json.loads(load_demo(f"{name}.json"))
    document["conversation_id"] = f"{document['conversation_id']}-{suffix}"
    if property_of is not None:
        other = json.loads(load_demo(f"{property_of}.json"))["property"]
        document["property"] |= {key: other[key] for key in ("id", "name", "timezone")}
    return parse_conversation(json.dumps(document).encode())


# Properties are created before every day these tests tally: no tally is due for a day before its
# property existed, so a property created at the test's real wall-clock time would have none.
LONG_AGO = datetime(2026, 1, 1, tzinfo=UTC)


def set_property(
    store: Store,
    property_id: str,
    *,
    timezone: str,
    channel: str | None,
    name: str | None = None,
    created: datetime = LONG_AGO,
) -> None:
    with at(created), store.unit() as unit:
        unit.properties.set(
            property_id,
            name=name or property_id.capitalize(),
            timezone=timezone,
            channel_id=channel,
        )


def ingest(
    store: Store,
    conversation: Conversation,
    *,
    when: datetime,
    rules: Rules | None = None,
    keep_settled_at: bool = False,
) -> None:
    """Ingest `conversation` as if it settled and arrived at `when` (the tally counts by settled time);
    with `keep_settled_at`, it arrives at `when` but settled when its document says."""
    if not keep_settled_at:
        conversation = conversation.model_copy(update={"settled_at": when})
    with at(when):
        Ingestor(store, rules=rules).ingest(conversation)


def add_grader(store: Store, email: str = "maria.lopez@camellia.example") -> int:
    with store.unit() as unit:
        user = unit.users.by_email(email) or unit.users.add(email, "María López", "staff")
        assert user.id is not None
        return user.id


def react(
    store: Store,
    conversation_id: str,
    signal: Signal,
    *,
    when: datetime,
    grader: int,
    turn_id: str | None = None,
    expected: Level | None = None,
    note: str | None = None,
    retracts: Signal | None = None,
    key: str | None = None,
) -> GradeVerdict:
    """Record one human act on the latest machine grade of a conversation (or of one of its turns);
    `signal="retraction"` with `retracts="down"` is a removed 👎 reaction."""
    with at(when), store.unit() as unit:
        record = unit.conversations.get(conversation_id)
        assert record is not None
        item_type: ItemType = "conversation" if turn_id is None else "turn"
        ref = conversation_id if turn_id is None else f"{conversation_id}/{turn_id}"
        machine = unit.grades.latest(item_type, ref)
        assert machine is not None, f"no machine grade for {ref}"
        target = Target(item_type, conversation_id, turn_id, machine.property_id)
        act = HumanAct(
            slack_user_id="U0MARIA",
            signal=signal,
            target=target,
            origin="slack_reply" if signal == "correction" else "slack_reaction",
            act_key=key or f"{ref}:{signal}:{when.isoformat()}",
            expected_level=expected,
            note=note,
            retracts_signal=retracts,
        )
        recorded = record_act(unit, act, grader, machine)
        assert len(recorded.verdicts) == 1 and not recorded.duplicate
        return recorded.verdicts[0]


def tally_posts(store: Store) -> list[SlackPost]:
    with store.unit() as unit:
        query = select(SlackPost).where(SlackPost.kind == "tally").order_by(col(SlackPost.id))
        return list(unit.session.exec(query).all())


def tally_texts(store: Store) -> dict[str, str]:
    """The tally posts' fallback text (what the line says) by idempotency key."""
    return {post.idempotency_key: str(post.payload["text"]) for post in tally_posts(store)}


def job_runs(store: Store) -> list[JobRun]:
    with store.unit() as unit:
        return list(unit.session.exec(select(JobRun).order_by(col(JobRun.id))).all())


def fixtures(store: Store) -> list[Fixture]:
    with store.unit() as unit:
        return list(unit.session.exec(select(Fixture).order_by(col(Fixture.verdict_id))).all())


def count(store: Store, entity: Any) -> int:
    with store.unit() as unit:
        return int(unit.session.exec(select(func.count()).select_from(entity)).one())
