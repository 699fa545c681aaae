"""`smith regrade`: the current rubric applied to what is stored, with Slack brought in line.

Append-only: new MachineGrades are added, none is edited; human acts stay attached to the grade
they were made on (their frozen copy), so agreement is still computed against what people saw.
Through the outbox, and never twice (every key names the new grade):

- flagged before, passing now: the parent is edited in place ("now PASS — nothing to do"), no reply;
- passing before, flagged now: posted as any newly flagged conversation is;
- flagged both times: the parent is edited and newly flagged turns get replies only when the grade's
  level or headline changed; otherwise nothing is posted;
- passing both times, or already graded under this rubric: nothing;
- and in every case, each turn reply whose turn passes now is edited ("Turn N · superseded — now
  PASS"), so a regraded conversation reads the same in its parent and its thread.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from blocks.regraded import build_regraded_pass_blocks, build_superseded_turn_blocks
from cerebrus import Rules, grade
from gradecore.model.grades import ConversationGrade
from gradecore.persistence.grade_rows import SOURCE_DETERMINISTIC
from gradecore.persistence.store import Store, Unit
from smith.calibration.stored import Stored, stored_conversations
from smith.ingest import record_grades
from smith.outbox.keys import parent_key, regraded_key
from smith.outbox.policy import queue_posts
from smith.outbox.queue import NewPost, queue_one


@dataclass(frozen=True)
class VerdictChange:
    """A stored conversation whose level the current rubric changes (`smith regrade` prints each)."""

    conversation_id: str
    old: str  # the latest stored level, or NOT_GRADED
    new: str

    def line(self) -> str:
        return f"{self.old} → {self.new}: {self.conversation_id}"


NOT_GRADED = "ungraded"


@dataclass
class RegradeReport:
    seen: int = 0
    current: int = 0  # already graded under this rubric
    regraded: int = 0
    to_pass: int = 0
    to_flagged: int = 0
    posts_queued: int = 0
    # Every conversation whose level changes, in the order regraded (a dry run shows what a new
    # rubric would change before anything is written).
    changes: list[VerdictChange] = field(default_factory=list)


def regrade(
    store: Store,
    rules: Rules | None,
    start: datetime,
    end: datetime,
    *,
    property_id: str | None = None,
    dry_run: bool = False,
    conversation_url: Callable[[str], str | None] = lambda _: None,
    progress: Callable[[int], None] = lambda _: None,
) -> RegradeReport:
    report = RegradeReport()
    for stored in stored_conversations(store, start, end, property_id=property_id):
        report.seen += 1
        _regrade_one(store, rules, stored, report, dry_run=dry_run, conversation_url=conversation_url)
        progress(report.seen)
    return report


def _regrade_one(
    store: Store,
    rules: Rules | None,
    stored: Stored,
    report: RegradeReport,
    *,
    dry_run: bool,
    conversation_url: Callable[[str], str | None],
) -> None:
    conversation = stored.conversation
    result = grade(conversation, rules=rules)
    with store.unit() as unit:
        latest = unit.grades.latest("conversation", conversation.conversation_id, source=SOURCE_DETERMINISTIC)
        if latest is not None and latest.rubric_version == result.rubric_version:
            report.current += 1
            return
        was_flagged = latest is not None and latest.level != "pass"
        report.regraded += 1
        report.to_pass += was_flagged and not result.flagged
        report.to_flagged += result.flagged and not was_flagged
        old = latest.level if latest is not None else NOT_GRADED
        if old != result.level.value:
            report.changes.append(VerdictChange(conversation.conversation_id, old, result.level.value))
        if dry_run:
            unit.session.rollback()
            return
        ids, _ = record_grades(unit, result, stored.content_hash)
        prop = unit.properties.require(conversation.property.id)
        channel = prop.slack_channel_id
        # A turn reply whose turn passes now reads as its parent does (docs/slack-surface.md), whatever
        # the parent.
        report.posts_queued += _supersede_passing_turns(unit, result, ids.turns, prop.locale)
        if result.flagged:
            # Stored grades keep the headline's reason slug; the same level and slug read the same in Slack.
            now = (result.level.value, result.headline.reason.slug)
            same = latest is not None and (latest.level, latest.headline) == now
            if was_flagged and same:
                return
            queued = queue_posts(
                unit,
                result,
                conversation,
                ids,
                channel=channel,
                conversation_url=conversation_url(conversation.conversation_id),
            )
            report.posts_queued += len(queued)
        elif was_flagged:
            report.posts_queued += _edit_parent_to_pass(
                unit, result, conversation.property.name, ids.conversation, channel
            )


def _edit_parent_to_pass(
    unit: Unit, result: ConversationGrade, property_name: str, grade_id: str, channel: str | None
) -> int:
    parent = unit.outbox.by_key(parent_key(result.conversation_id))
    if parent is None:
        return 0  # it was flagged but never posted (no channel then): nothing to bring in line
    stored = unit.properties.get(result.property_id)  # one property name everywhere: the stored one
    content = build_regraded_pass_blocks(
        result,
        property_name=property_name if stored is None else stored.name,
        machine_grade_id=grade_id,
        idempotency_key=parent.idempotency_key,
        locale=None if stored is None else stored.locale,
    )
    new_post = NewPost(
        key=regraded_key(parent.idempotency_key, grade_id),
        kind="conversation",
        content=content,
        channel=parent.channel or channel,
        operation="update",
        property_id=result.property_id,
        conversation_id=result.conversation_id,
        parent_post_id=parent.id,
        machine_grade_id=grade_id,
    )
    return int(queue_one(unit, new_post))


def _supersede_passing_turns(
    unit: Unit, result: ConversationGrade, turn_grades: Mapping[str, str], locale: str
) -> int:
    """Edit each posted turn reply whose turn no longer fails: "Turn N · superseded — now PASS". The key
    names the new grade, so a rerun queues nothing twice."""
    numbers = {turn.turn_id: turn.number for turn in result.turns if not turn.flagged}
    queued = 0
    for post in unit.outbox.for_conversation(result.conversation_id):
        if post.kind != "turn" or post.operation != "post" or post.turn_id not in numbers:
            continue
        grade_id = turn_grades.get(post.turn_id)
        if grade_id is None:
            continue
        content = build_superseded_turn_blocks(
            result.conversation_id,
            post.turn_id,
            numbers[post.turn_id],
            machine_grade_id=grade_id,
            idempotency_key=post.idempotency_key,
            locale=locale,
        )
        new_post = NewPost(
            key=regraded_key(post.idempotency_key, grade_id),
            kind="turn",
            content=content,
            channel=post.channel,
            operation="update",
            property_id=result.property_id,
            conversation_id=result.conversation_id,
            turn_id=post.turn_id,
            parent_post_id=post.id,
            machine_grade_id=grade_id,
        )
        queued += int(queue_one(unit, new_post))
    return queued
