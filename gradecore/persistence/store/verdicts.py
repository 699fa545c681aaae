"""GradeVerdicts (human acts, append-only) and the principles they are tagged with."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Protocol, TypeVar

from sqlalchemy import select as sql_select
from sqlmodel import Session, col, select

from gradecore.model.principles import normalise_tag, surviving_principles
from gradecore.persistence.entities import GradeVerdict, Principle, utcnow


class Act(Protocol):
    """What deciding which acts stand reads of a verdict (a GradeVerdict, or a light row of one)."""

    @property
    def id(self) -> int | None: ...
    @property
    def grader_user_id(self) -> int: ...
    @property
    def item_type(self) -> str: ...
    @property
    def item_ref(self) -> str: ...
    @property
    def signal(self) -> str: ...
    @property
    def expected_level(self) -> str | None: ...
    @property
    def retracts_id(self) -> int | None: ...
    @property
    def created_at(self) -> datetime: ...


AnyAct = TypeVar("AnyAct", bound=Act)


def is_note(verdict: Act) -> bool:
    """A written reply that named no level: a comment on the grade, not a judgement of it."""
    return verdict.signal == "correction" and verdict.expected_level is None


def agrees_with_machine(signal: str, expected_level: str | None, machine_level: str | None) -> bool | None:
    """docs/verdicts.md: does a standing act agree with the machine level it saw? None: it judges nothing.

    👍 agrees; 👎 disagrees (it counts, though it names no level); a correction agrees when it names
    the machine's own level. A note (no level) and a retraction judge nothing. The SQL twin is
    `gradecore.persistence.store.windows._judges` / `_agrees`: change both together.
    """
    if signal == "up":
        return True
    if signal == "down":
        return False
    if signal == "correction" and expected_level is not None:
        return expected_level == machine_level
    return None


def current_acts(verdicts: Iterable[AnyAct]) -> list[AnyAct]:
    """Each grader's latest non-retracted act per item (docs/storage.md: what readers count).

    A note does not displace a 👍, 👎 or a correction that named a level: a comment added after
    judging is not a change of mind. A note stands only where the grader did nothing else.
    """
    verdicts = list(verdicts)  # read twice below; a generator would be empty the second time
    retracted = {v.retracts_id for v in verdicts if v.signal == "retraction"}
    latest: dict[tuple[int, str, str], AnyAct] = {}
    for verdict in sorted(verdicts, key=lambda v: (v.created_at, v.id or 0)):
        if verdict.signal == "retraction" or verdict.id in retracted:
            continue
        key = (verdict.grader_user_id, verdict.item_type, verdict.item_ref)
        standing = latest.get(key)
        if is_note(verdict) and standing is not None and not is_note(standing):
            continue
        latest[key] = verdict
    return sorted(latest.values(), key=lambda v: (v.created_at, v.id or 0))


@dataclass(frozen=True, slots=True)
class ActRow:
    """One act as a plain row, not an ORM object: a popular post's acts are re-read on every batch of
    reactions, and building thousands of entities would dominate."""

    id: int | None
    grader_user_id: int
    item_type: str
    item_ref: str
    signal: str
    expected_level: str | None
    retracts_id: int | None
    created_at: datetime


_ACT_ROW_COLUMNS = tuple(col(getattr(GradeVerdict, f.name)) for f in fields(ActRow))


class VerdictsRepo:
    """Verdicts, with a batch mode for writers of many acts in one transaction.

    `prefetch_act_keys` and `prefetch_items` read what a batch of acts needs in two queries; `add`
    and `for_item` then answer from that instead of a query each, and new acts are inserted
    together at the next flush. The session is this transaction's only writer of what it prefetched;
    another transaction's act with the same key still fails this one's insert (a unique index).
    """

    def __init__(self, session: Session) -> None:
        self._session = session
        # Act keys seen to be unused in this transaction; a key leaves once used (a second add looks).
        self._unused_keys: set[str] = set()
        # Each prefetched (item_type, item_ref, grader)'s acts, kept current as acts are added.
        self._items: dict[tuple[str, str, int], list[GradeVerdict]] = {}

    def add(self, verdict: GradeVerdict) -> tuple[GradeVerdict, bool]:
        """Append a human act; an act already recorded under the same `act_key` is returned as is.

        An act whose key was prefetched as unused is inserted at the next flush (with the others),
        so its `id` is None until then.
        """
        item = (verdict.item_type, verdict.item_ref, verdict.grader_user_id)
        if verdict.act_key is not None and verdict.act_key in self._unused_keys:
            self._unused_keys.discard(verdict.act_key)
            self._session.add(verdict)
        else:
            if verdict.act_key is not None:
                existing = self.by_act_key(verdict.act_key)
                if existing is not None:
                    return existing, False
            self._session.add(verdict)
            self._session.flush()
        if item in self._items:
            self._items[item].append(verdict)
        return verdict, True

    def prefetch_act_keys(self, act_keys: Iterable[str]) -> None:
        """Look up a batch of acts' keys in one query, so each `add` need not look up its own."""
        keys = set(act_keys) - self._unused_keys
        if not keys:
            return
        query = sql_select(col(GradeVerdict.act_key)).where(col(GradeVerdict.act_key).in_(keys))
        self._unused_keys |= keys - set(self._session.connection().execute(query).scalars())

    def has_act_key(self, act_key: str) -> bool:
        return act_key not in self._unused_keys and self.by_act_key(act_key) is not None

    def prefetch_items(self, items: Iterable[tuple[str, str, int]]) -> None:
        """Read several (item_type, item_ref, grader)s' acts at once for `for_item` to answer from."""
        wanted = set(items) - set(self._items)
        if not wanted:
            return
        query = select(GradeVerdict).where(
            col(GradeVerdict.grader_user_id).in_({grader for _, _, grader in wanted}),
            col(GradeVerdict.item_ref).in_({ref for _, ref, _ in wanted}),
        )
        found: dict[tuple[str, str, int], list[GradeVerdict]] = {item: [] for item in wanted}
        rows = self._session.exec(query.order_by(col(GradeVerdict.created_at), col(GradeVerdict.id)))
        for verdict in rows:
            mine = found.get((verdict.item_type, verdict.item_ref, verdict.grader_user_id))
            if mine is not None:
                mine.append(verdict)
        for item, acts in found.items():
            self._items[item] = acts

    def retract(
        self, target: GradeVerdict, *, act_key: str | None = None, **slack: str | None
    ) -> GradeVerdict:
        """A retraction is a new row pointing at what it retracts; the original is never touched."""
        if target.id is None:  # added in this transaction, not inserted yet
            self._session.flush()
        retraction = GradeVerdict(
            grader_user_id=target.grader_user_id,
            item_type=target.item_type,
            item_ref=target.item_ref,
            conversation_id=target.conversation_id,
            turn_id=target.turn_id,
            property_id=target.property_id,
            signal="retraction",
            principles=[],
            machine_grade_id=target.machine_grade_id,
            machine_grade_at_time=target.machine_grade_at_time,
            origin=target.origin,
            retracts_id=target.id,
            act_key=act_key,
            slack_channel=slack.get("slack_channel"),
            slack_ts=slack.get("slack_ts"),
            slack_event_id=slack.get("slack_event_id"),
        )
        return self.add(retraction)[0]

    def get(self, verdict_id: int) -> GradeVerdict | None:
        return self._session.get(GradeVerdict, verdict_id)

    def by_act_key(self, act_key: str) -> GradeVerdict | None:
        return self._session.exec(select(GradeVerdict).where(GradeVerdict.act_key == act_key)).first()

    def for_item(
        self, item_type: str, ref: str, *, grader_user_id: int | None = None
    ) -> Sequence[GradeVerdict]:
        """The item's acts (one grader's only, when given: an index lookup however busy the item is)."""
        if grader_user_id is not None and (item_type, ref, grader_user_id) in self._items:
            return list(self._items[(item_type, ref, grader_user_id)])
        query = select(GradeVerdict).where(GradeVerdict.item_type == item_type, GradeVerdict.item_ref == ref)
        if grader_user_id is not None:
            query = query.where(GradeVerdict.grader_user_id == grader_user_id)
        return self._session.exec(query.order_by(col(GradeVerdict.created_at), col(GradeVerdict.id))).all()

    def for_conversations(self, conversation_ids: Iterable[str]) -> Sequence[GradeVerdict]:
        ids = list(dict.fromkeys(conversation_ids))
        if not ids:
            return []
        query = select(GradeVerdict).where(col(GradeVerdict.conversation_id).in_(ids))
        return self._session.exec(query.order_by(col(GradeVerdict.created_at), col(GradeVerdict.id))).all()

    def act_rows_of_conversation(self, conversation_id: str) -> list[ActRow]:
        """Every act on a conversation (its parent or any of its turns), as plain rows; acts added in
        this transaction count too."""
        self._session.flush()  # a plain read does not autoflush
        query = sql_select(*_ACT_ROW_COLUMNS).where(col(GradeVerdict.conversation_id) == conversation_id)
        return [ActRow(*row) for row in self._session.connection().execute(query)]

    def latest_for_property(self, property_id: str, *, before: datetime | None = None) -> GradeVerdict | None:
        """The property's most recent act (before `before`, so a late tally is not hidden by later acts)."""
        query = select(GradeVerdict).where(GradeVerdict.property_id == property_id)
        if before is not None:
            query = query.where(col(GradeVerdict.created_at) < before)
        return self._session.exec(query.order_by(col(GradeVerdict.created_at).desc()).limit(1)).first()

    def by_slack_message(self, channel: str, ts: str) -> Sequence[GradeVerdict]:
        """Every act a Slack message (a threaded reply and its edits) produced."""
        query = select(GradeVerdict).where(GradeVerdict.slack_channel == channel, GradeVerdict.slack_ts == ts)
        return self._session.exec(query.order_by(col(GradeVerdict.id))).all()

    def since(self, start: datetime, end: datetime | None = None) -> Sequence[GradeVerdict]:
        """Verdicts in a bounded window (an index range on created_at)."""
        query = select(GradeVerdict).where(col(GradeVerdict.created_at) >= start)
        query = query.where(col(GradeVerdict.created_at) < (end or utcnow()))
        return self._session.exec(query.order_by(col(GradeVerdict.created_at), col(GradeVerdict.id))).all()

    def after_id(self, verdict_id: int, limit: int = 500) -> Sequence[GradeVerdict]:
        query = select(GradeVerdict).where(col(GradeVerdict.id) > verdict_id).order_by(col(GradeVerdict.id))
        return self._session.exec(query.limit(limit)).all()


class PrinciplesRepo:
    def __init__(self, session: Session) -> None:
        self._session = session

    def get(self, principle_id: str) -> Principle | None:
        return self._session.get(Principle, normalise_tag(principle_id))

    def add(self, principle_id: str, statement: str, *, status: str = "candidate") -> Principle:
        principle = Principle(id=normalise_tag(principle_id), statement=statement, status=status)
        self._session.add(principle)
        self._session.flush()
        return principle

    def ensure_candidates(self, tags: Iterable[str]) -> list[str]:
        """Unknown tags are minted as candidates (a human named them; an engineer reviews them)."""
        ids = [normalise_tag(tag) for tag in tags if normalise_tag(tag)]
        for tag in dict.fromkeys(ids):
            if self.get(tag) is None:
                self.add(tag, statement=tag.replace("-", " "))
        return list(dict.fromkeys(ids))

    def merge(self, retired_id: str, survivor_id: str) -> None:
        """Retire `retired_id` in favour of `survivor_id` (merges only: superseded_by implies retired)."""
        retired, survivor = self.get(retired_id), self.get(survivor_id)
        if retired is None or survivor is None:
            raise ValueError(f"both principles must exist to merge {retired_id!r} into {survivor_id!r}")
        successor: str | None = survivor.id
        seen: set[str] = set()
        while successor is not None and successor not in seen:  # a cycle would split the evidence
            seen.add(successor)
            if successor == retired.id:
                raise ValueError(f"merging {retired.id!r} into {survivor.id!r} would make a cycle")
            found = self._session.get(Principle, successor)
            successor = None if found is None else found.superseded_by
        retired.status, retired.superseded_by = "retired", survivor.id
        self._session.add(retired)
        self._session.flush()

    def vocabulary(self) -> Sequence[Principle]:
        """Principles a grader may pick (not retired)."""
        query = select(Principle).where(Principle.status != "retired").order_by(col(Principle.id))
        return self._session.exec(query).all()

    def surviving(self, tags: Iterable[str]) -> list[str]:
        """Each tag's surviving principle: every reader that counts principles goes through here
        (docs/storage.md)."""
        chain = {p.id: p.superseded_by for p in self._session.exec(select(Principle)).all()}
        return surviving_principles(tags, chain)
