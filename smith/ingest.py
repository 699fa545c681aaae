"""Ingest: validate, store, grade and queue posts for one conversation, all in one transaction.

Re-sending an identical document writes nothing. A grown conversation replaces its record, gets a new
conversation grade, new grades only for turns whose grade changed, and the posts the policy asks for.
Ingest grades deterministically and, when the judge lane is on, records in the same transaction that
the judged dimensions are owed; they arrive later (`record_judged`) as grades of their own, editing
the posts in place.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from cerebrus import CheckRegistry, Rules, grade
from gradecore.model.contract import Conversation
from gradecore.model.grades import ConversationGrade
from gradecore.model.vocabulary import Level
from gradecore.persistence.entities import utcnow
from gradecore.persistence.grade_rows import conversation_machine_grade, turn_content_hash, turn_machine_grade
from gradecore.persistence.store import PutOutcome, Store, Unit, item_ref
from smith.outbox.keys import PostKey
from smith.outbox.policy import GradeIds, queue_posts


@dataclass(frozen=True)
class IngestResult:
    conversation_id: str
    outcome: PutOutcome
    grade: ConversationGrade | None = None
    grades_written: int = 0
    posts_queued: int = 0
    parked: bool = False  # the property has no channel yet: posts wait as `unrouted`
    judge_pending: bool = False  # the judged dimensions will arrive later, as their own grade

    @property
    def level(self) -> Level | None:
        return None if self.grade is None else self.grade.level

    def summary(self) -> dict[str, object]:
        """What the ingest endpoint answers and the CLI prints."""
        body: dict[str, object] = {"conversation_id": self.conversation_id, "outcome": self.outcome.value}
        if self.grade is not None:
            body |= {
                "level": self.grade.level.value,
                "headline": self.grade.headline.text,
                "flagged": self.grade.flagged,
                "flagged_turns": [t.turn_id for t in self.grade.flagged_turns],
                "rubric_version": self.grade.rubric_version,
                "grades_written": self.grades_written,
                "posts_queued": self.posts_queued,
                "parked": self.parked,
                "judge_pending": self.judge_pending,
            }
        return body


@dataclass(frozen=True)
class JudgedRecord:
    """What recording a judged grade wrote: its grades and the posts (edits, new replies) it queued."""

    conversation_id: str
    grade: ConversationGrade
    grades_written: int
    posts_queued: int


@dataclass
class Ingestor:
    store: Store
    rules: Rules | None = None
    registry: CheckRegistry | None = None
    post: bool = True  # SMITH_POST_MODE=off grades and stores only
    conversation_url_template: str | None = None
    # Whether the judged dimensions are owed for each new version (the judge lane is configured). The
    # decision lives here so every way in (HTTP, `smith ingest`) judges alike.
    judge: bool = False
    max_thread_replies: int = 10

    def ingest(self, conversation: Conversation) -> IngestResult:
        """Store, grade deterministically, queue posts, and (judge on) record that a judgement is owed."""
        # Grading is pure, so it happens before the transaction opens and keeps the transaction short.
        result = grade(conversation, rules=self.rules, registry=self.registry, judge_pending=self.judge)
        with self.store.unit() as unit:
            prop = conversation.property
            known = unit.properties.ensure(
                prop.id, name=prop.name, timezone=prop.timezone, locale=prop.locale
            )
            outcome, record = unit.conversations.put(conversation)
            if outcome is PutOutcome.UNCHANGED:
                return IngestResult(conversation.conversation_id, outcome)
            first_version = outcome is PutOutcome.NEW  # nothing graded or posted about it before
            ids, written = record_grades(unit, result, record.content_hash, first_version=first_version)
            queued = self._queue(
                unit,
                result,
                conversation,
                ids,
                known.slack_channel_id,
                known.locale,
                first_version=first_version,
            )
            if self.judge:
                unit.judging.request(conversation.conversation_id, record.content_hash, now=utcnow())
            return IngestResult(
                conversation.conversation_id,
                outcome,
                grade=result,
                grades_written=written,
                posts_queued=len(queued),
                parked=bool(queued) and known.slack_channel_id is None,
                judge_pending=self.judge,
            )

    def record_judged(
        self, conversation: Conversation, judged: ConversationGrade, document_hash: str, owner: str
    ) -> JudgedRecord | None:
        """Record a grade with the judged dimensions, made for the document version `document_hash`,
        and queue the in-place edits it calls for; None when a newer version has arrived meanwhile
        (its own judgement is owed, and this one would be stale)."""
        with self.store.unit() as unit:
            record = unit.conversations.get(conversation.conversation_id)
            if record is None or record.content_hash != document_hash:
                return None
            known = unit.properties.get(conversation.property.id)
            channel = None if known is None else known.slack_channel_id
            locale = "en" if known is None else known.locale
            ids, written = record_grades(unit, judged, document_hash)
            queued = self._queue(unit, judged, conversation, ids, channel, locale)
            unit.judging.complete(conversation.conversation_id, owner, document_hash)
            return JudgedRecord(conversation.conversation_id, judged, written, len(queued))

    def _queue(
        self,
        unit: Unit,
        result: ConversationGrade,
        conversation: Conversation,
        ids: GradeIds,
        channel: str | None,
        locale: str,
        *,
        first_version: bool = False,
    ) -> dict[PostKey, int]:
        if not self.post:
            return {}
        return queue_posts(
            unit,
            result,
            conversation,
            ids,
            channel=channel,
            conversation_url=self._url(conversation.conversation_id),
            locale=locale,
            max_thread_replies=self.max_thread_replies,
            first_version=first_version,
        )

    def _url(self, conversation_id: str) -> str | None:
        if not self.conversation_url_template:
            return None
        return conversation_link(self.conversation_url_template, conversation_id)


def record_grades(
    unit: Unit, result: ConversationGrade, document_hash: str, *, first_version: bool = False
) -> tuple[GradeIds, int]:
    """Append the conversation's grade and a grade for each turn whose grade changed (by content), in
    one statement. The turns' latest grades are read once (not at all for a conversation's
    `first_version`, which has none)."""
    conversation_row = conversation_machine_grade(result, document_hash)
    rows = [conversation_row]
    latest = {} if first_version else unit.grades.latest_turn_hashes(result.conversation_id)
    turns: dict[str, str] = {}
    for turn in result.turns:
        shown = latest.get(item_ref(result.conversation_id, turn.turn_id))
        if shown is not None and shown[1] == turn_content_hash(result, turn):
            turns[turn.turn_id] = shown[0]  # this turn's grade did not change: keep the one shown
            continue
        row = turn_machine_grade(result, turn)
        turns[turn.turn_id] = row["id"]
        rows.append(row)
    unit.grades.add_all(rows)
    return GradeIds(conversation_row["id"], turns, frozenset(row["id"] for row in rows)), len(rows)


def conversation_link(template: str, conversation_id: str) -> str:
    # Percent-encoded: an id is the platform's free text (`/`, `?`, `#`, spaces) and must stay one
    # path segment of the link, never change where it points.
    return template.replace("{conversation_id}", quote(conversation_id, safe=""))
