"""Ingest: validate, store, grade and queue posts for one conversation, all in one transaction.

Re-sending an identical document writes nothing. A grown conversation replaces its record, gets a new
conversation grade, new grades only for turns whose grade changed, and the posts the policy asks for.
"""

from __future__ import annotations

from dataclasses import dataclass

from cerebrus import CheckRegistry, Rules, grade
from gradecore.contract import Conversation
from gradecore.grades import ConversationGrade
from gradecore.recording import conversation_machine_grade, turn_content_hash, turn_machine_grade
from gradecore.store import PutOutcome, Store, Unit, content_hash, item_ref
from gradecore.vocabulary import Level
from smith.outbox.policy import GradeIds, queue_posts


@dataclass(frozen=True)
class IngestResult:
    conversation_id: str
    outcome: PutOutcome
    grade: ConversationGrade | None = None
    grades_written: int = 0
    posts_queued: int = 0
    parked: bool = False  # the property has no channel yet: posts wait as `unrouted`

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
            }
        return body


@dataclass
class Ingestor:
    store: Store
    rules: Rules | None = None
    registry: CheckRegistry | None = None
    post: bool = True  # SMITH_POST_MODE=off grades and stores only
    conversation_url_template: str | None = None
    max_thread_replies: int = 10

    def is_unchanged(self, conversation: Conversation) -> bool:
        """True when this exact document was already ingested (skip the judge lane's tokens)."""
        with self.store.unit() as unit:
            record = unit.conversations.get(conversation.conversation_id)
            return record is not None and record.content_hash == content_hash(conversation)

    def ingest(self, conversation: Conversation, *, graded: ConversationGrade | None = None) -> IngestResult:
        """Store and grade; `graded` is a grade computed beforehand (with the judge lane, which is async)."""
        # Grading is pure, so it happens before the transaction opens and keeps the transaction short.
        result = (
            graded if graded is not None else grade(conversation, rules=self.rules, registry=self.registry)
        )
        with self.store.unit() as unit:
            prop = conversation.property
            known = unit.properties.ensure(
                prop.id, name=prop.name, timezone=prop.timezone, locale=prop.locale
            )
            outcome, record = unit.conversations.put(conversation)
            if outcome is PutOutcome.UNCHANGED:
                return IngestResult(conversation.conversation_id, outcome)
            ids, written = self._record_grades(unit, result, record.content_hash)
            queued = []
            if self.post:
                queued = queue_posts(
                    unit,
                    result,
                    conversation,
                    ids,
                    channel=known.slack_channel_id,
                    conversation_url=self._url(conversation.conversation_id),
                    locale=known.locale,
                    max_thread_replies=self.max_thread_replies,
                )
            return IngestResult(
                conversation.conversation_id,
                outcome,
                grade=result,
                grades_written=written,
                posts_queued=len(queued),
                parked=bool(queued) and known.slack_channel_id is None,
            )

    def _record_grades(
        self, unit: Unit, result: ConversationGrade, document_hash: str
    ) -> tuple[GradeIds, int]:
        conversation_row = unit.grades.add(conversation_machine_grade(result, document_hash))
        new = {conversation_row.id}
        turns: dict[str, str] = {}
        for turn in result.turns:
            latest = unit.grades.latest("turn", item_ref(result.conversation_id, turn.turn_id))
            if latest is not None and latest.content_hash == turn_content_hash(result, turn):
                turns[turn.turn_id] = latest.id  # this turn's grade did not change: keep the one shown
                continue
            row = unit.grades.add(turn_machine_grade(result, turn))
            turns[turn.turn_id] = row.id
            new.add(row.id)
        return GradeIds(conversation_row.id, turns, frozenset(new)), len(new)

    def _url(self, conversation_id: str) -> str | None:
        if not self.conversation_url_template:
            return None
        return self.conversation_url_template.replace("{conversation_id}", conversation_id)
