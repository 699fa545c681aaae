"""The posting policy: what a grade puts in Slack, where, and what a re-sent conversation changes.

One parent per flagged conversation, one thread reply per flagged turn, nothing for what passes. A
re-sent conversation edits the parent in place and adds replies only for newly flagged turns; the
idempotency keys make sure nothing is queued twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from blocks import PostContent, build_conversation_blocks, build_turn_blocks, validate_post
from gradecore.contract import Conversation
from gradecore.entities import SlackPost
from gradecore.grades import ConversationGrade
from gradecore.keys import edit_post_key, grade_post_key
from gradecore.store import Unit
from gradecore.store.outbox import PENDING, UNROUTED


@dataclass(frozen=True)
class GradeIds:
    """The MachineGrade ids the posts point at: the conversation's, and each turn's current one."""

    conversation: str
    turns: Mapping[str, str]
    new: frozenset[str]  # which of those were written by this ingest


def parent_key(conversation_id: str) -> str:
    return grade_post_key(conversation_id)


def turn_key(conversation_id: str, turn_id: str) -> str:
    return grade_post_key(conversation_id, turn_id)


def queue_posts(
    unit: Unit,
    grade: ConversationGrade,
    conversation: Conversation,
    ids: GradeIds,
    *,
    channel: str | None,
    conversation_url: str | None,
) -> list[SlackPost]:
    """Queue the Slack posts this grade calls for, in the caller's transaction."""
    queued: list[SlackPost] = []
    parent = unit.outbox.by_key(parent_key(grade.conversation_id))
    if parent is None and not grade.flagged:
        return queued  # passing conversations get nothing in Slack (they count in the tally)

    def add(content: PostContent, key: str, **fields: object) -> SlackPost:
        validate_post(content)
        post = SlackPost(
            idempotency_key=key,
            property_id=grade.property_id,
            conversation_id=grade.conversation_id,
            channel=channel,
            payload=content.as_message(),
            status=PENDING if channel else UNROUTED,
            **fields,  # type: ignore[arg-type]
        )
        post, created = unit.outbox.add(post)
        if created:
            queued.append(post)
        return post

    def parent_content(key: str) -> PostContent:
        return build_conversation_blocks(
            grade,
            conversation,
            machine_grade_id=ids.conversation,
            conversation_url=conversation_url,
            idempotency_key=key,
        )

    if parent is None:
        key = parent_key(grade.conversation_id)
        parent = add(parent_content(key), key, kind="conversation", machine_grade_id=ids.conversation)
    elif ids.conversation in ids.new:
        key = edit_post_key(parent_key(grade.conversation_id), ids.conversation)
        add(
            parent_content(parent.idempotency_key),  # the edited message keeps the parent's key
            key,
            kind="conversation",
            operation="update",
            parent_post_id=parent.id,
            machine_grade_id=ids.conversation,
        )

    for turn in grade.flagged_turns:
        grade_id = ids.turns[turn.turn_id]
        key = turn_key(grade.conversation_id, turn.turn_id)
        existing = unit.outbox.by_key(key)
        if existing is None:
            content = build_turn_blocks(
                turn, grade, conversation, machine_grade_id=grade_id, idempotency_key=key
            )
            add(
                content,
                key,
                kind="turn",
                turn_id=turn.turn_id,
                parent_post_id=parent.id,
                machine_grade_id=grade_id,
            )
        elif grade_id in ids.new:
            content = build_turn_blocks(
                turn, grade, conversation, machine_grade_id=grade_id, idempotency_key=key
            )
            add(
                content,
                edit_post_key(key, grade_id),
                kind="turn",
                operation="update",
                turn_id=turn.turn_id,
                parent_post_id=existing.id,
                machine_grade_id=grade_id,
            )
    return queued
