"""The posting policy: what a grade puts in Slack, where, and what a re-sent conversation changes.

One parent per flagged conversation, one thread reply per flagged turn, nothing for what passes. A
thread holds at most `max_thread_replies` replies: when more turns are flagged than that, the first
ones keep a reply each and one last reply lists the rest (so 80 flagged turns make 11 messages, not
81). A re-sent conversation edits the parent in place and adds replies only for newly flagged turns
(or edits the list); the idempotency keys make sure nothing is queued twice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from blocks import (
    PostContent,
    build_conversation_blocks,
    build_more_turns_blocks,
    build_turn_blocks,
    validate_post,
)
from blocks.copydeck import deck_for
from gradecore.contract import Conversation
from gradecore.entities import SlackPost
from gradecore.grades import ConversationGrade, TurnGrade
from gradecore.keys import edit_post_key
from gradecore.store import Unit
from gradecore.store.outbox import PENDING, UNROUTED
from smith.outbox.keys import more_turns_key, parent_key, turn_key
from smith.outbox.reviewed import refresh_reviewed_lines, reviewed_line

__all__ = ["MORE_TURNS_KIND", "GradeIds", "more_turns_key", "parent_key", "queue_posts", "turn_key"]


@dataclass(frozen=True)
class GradeIds:
    """The MachineGrade ids the posts point at: the conversation's, and each turn's current one."""

    conversation: str
    turns: Mapping[str, str]
    new: frozenset[str]  # which of those were written by this ingest


# The kind of the reply listing the turns past the bound: a thread reply, but not a graded item.
MORE_TURNS_KIND = "more_turns"
DEFAULT_MAX_THREAD_REPLIES = 10


def queue_posts(
    unit: Unit,
    grade: ConversationGrade,
    conversation: Conversation,
    ids: GradeIds,
    *,
    channel: str | None,
    conversation_url: str | None,
    locale: str | None = None,
    max_thread_replies: int = DEFAULT_MAX_THREAD_REPLIES,
) -> list[SlackPost]:
    """Queue the Slack posts this grade calls for, in the caller's transaction, in `locale`."""
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

    def parent_content(key: str, reviewed: str | None = None) -> PostContent:
        return build_conversation_blocks(
            grade,
            conversation,
            machine_grade_id=ids.conversation,
            conversation_url=conversation_url,
            idempotency_key=key,
            locale=locale,
            reviewed=reviewed,
        )

    if parent is None:
        key = parent_key(grade.conversation_id)
        parent = add(parent_content(key), key, kind="conversation", machine_grade_id=ids.conversation)
    elif ids.conversation in ids.new:
        key = edit_post_key(parent_key(grade.conversation_id), ids.conversation)
        # A reviewed post keeps showing who reviewed it: the edit carries the line, and a review edit
        # still waiting takes the new content too, so neither undoes the other.
        reviewed = None
        if unit.verdicts.for_conversations([grade.conversation_id]):
            reviewed = reviewed_line(unit, grade.conversation_id, deck_for(locale))
        add(
            parent_content(parent.idempotency_key, reviewed),  # the edited message keeps the parent's key
            key,
            kind="conversation",
            operation="update",
            parent_post_id=parent.id,
            machine_grade_id=ids.conversation,
        )
        if reviewed is not None:
            refresh_reviewed_lines(unit, [grade.conversation_id], only_waiting=True)

    own_replies, listed = _replies_and_list(unit, grade, max_thread_replies)
    for turn in own_replies:
        grade_id = ids.turns[turn.turn_id]
        key = turn_key(grade.conversation_id, turn.turn_id)
        existing = unit.outbox.by_key(key)
        if existing is not None and grade_id not in ids.new:
            continue
        content = build_turn_blocks(
            turn, grade, conversation, machine_grade_id=grade_id, idempotency_key=key, locale=locale
        )
        if existing is None:
            add(
                content,
                key,
                kind="turn",
                turn_id=turn.turn_id,
                parent_post_id=parent.id,
                machine_grade_id=grade_id,
            )
        else:
            add(
                content,
                edit_post_key(key, grade_id),
                kind="turn",
                operation="update",
                turn_id=turn.turn_id,
                parent_post_id=existing.id,
                machine_grade_id=grade_id,
            )
    if listed:
        _queue_more_turns(add, unit, grade, listed, conversation, ids, parent, conversation_url, locale)
    return queued


def _replies_and_list(
    unit: Unit, grade: ConversationGrade, max_replies: int
) -> tuple[list[TurnGrade], list[TurnGrade]]:
    """Which flagged turns get a reply of their own, and which are listed in the one reply after them.

    A turn that already has a reply keeps it (it is edited, never taken back). New turns take the free
    places; when they do not all fit, one place is kept for the list, so the thread stays within
    `max_replies` whenever it is built in one go.
    """
    flagged = grade.flagged_turns
    posted = {
        post.turn_id
        for post in unit.outbox.for_conversation(grade.conversation_id)
        if post.kind == "turn" and post.operation == "post"
    }
    has_list = unit.outbox.by_key(more_turns_key(grade.conversation_id)) is not None
    fresh = [turn for turn in flagged if turn.turn_id not in posted]
    free = max(0, max_replies - len(posted) - int(has_list))
    if len(fresh) > free and not has_list:
        free = max(0, free - 1)
    fresh_ids = {turn.turn_id for turn in fresh[:free]}
    own = [turn for turn in flagged if turn.turn_id in posted or turn.turn_id in fresh_ids]
    listed = [turn for turn in flagged if turn.turn_id not in posted and turn.turn_id not in fresh_ids]
    return own, listed


def _queue_more_turns(
    add: Callable[..., SlackPost],
    unit: Unit,
    grade: ConversationGrade,
    listed: list[TurnGrade],
    conversation: Conversation,
    ids: GradeIds,
    parent: SlackPost,
    conversation_url: str | None,
    locale: str | None,
) -> None:
    key = more_turns_key(grade.conversation_id)
    content = build_more_turns_blocks(
        listed, conversation, conversation_url=conversation_url, idempotency_key=key, locale=locale
    )
    existing = unit.outbox.by_key(key)
    if existing is None:
        add(content, key, kind=MORE_TURNS_KIND, parent_post_id=parent.id, machine_grade_id=ids.conversation)
    elif ids.conversation in ids.new:  # a re-sent conversation: the list is edited in place
        add(
            content,
            edit_post_key(key, ids.conversation),
            kind=MORE_TURNS_KIND,
            operation="update",
            parent_post_id=existing.id,
            machine_grade_id=ids.conversation,
        )
