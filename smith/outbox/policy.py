"""The posting policy: what a grade puts in Slack, where, and what a re-sent conversation changes.

One parent per flagged conversation, one thread reply per flagged turn, nothing for what passes. A
thread holds at most `max_thread_replies` replies: when more turns are flagged than that, the first
ones keep a reply each and one last reply lists the rest (so 80 flagged turns make 11 messages, not
81). A re-sent conversation edits the parent in place and adds replies only for newly flagged turns
(or edits the list); the idempotency keys make sure nothing is queued twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from blocks import (
    PostContent,
    build_conversation_blocks,
    build_more_turns_blocks,
    build_turn_blocks,
)
from blocks.copydeck import deck_for
from gradecore.model.contract import Conversation
from gradecore.model.grades import ConversationGrade, TurnGrade
from gradecore.persistence.store import Unit
from gradecore.persistence.store.outbox import QueuedRef
from smith.outbox.keys import PostKey, edit_key, more_turns_key, parent_key, turn_key
from smith.outbox.queue import NewPost, queue
from smith.outbox.reviewed import refresh_reviewed_lines, reviewed_line
from smith.tickets.filed import tickets_by_check

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
    first_version: bool = False,
) -> dict[PostKey, int]:
    """Queue the Slack posts this grade calls for, in the caller's transaction, in `locale`; the ids
    of those queued, by key.

    What is already queued for the conversation is read once (nothing, without asking, for its
    `first_version`); the parent is inserted first when new, for its id, then everything else at once.
    """
    queued: dict[PostKey, int] = {}
    known: dict[str, QueuedRef] = (
        {} if first_version else unit.outbox.queued_for_conversation(grade.conversation_id)
    )
    parent_at = parent_key(grade.conversation_id)
    parent = known.get(parent_at)
    if parent is None and not grade.flagged:
        return queued  # passing conversations get nothing in Slack (they count in the tally)

    def new_post(content: PostContent, key: PostKey, kind: str, **fields: object) -> NewPost:
        return NewPost(
            key=key,
            kind=kind,
            content=content,
            channel=channel,
            property_id=grade.property_id,
            conversation_id=grade.conversation_id,
            **fields,  # type: ignore[arg-type]
        )

    own_replies, listed = _replies_and_list(known, grade, max_thread_replies)
    # One property name everywhere: the stored one (`smith properties set --name`, else the first
    # document's), never whatever this document happens to call it.
    stored = unit.properties.get(conversation.property.id)
    # Issue 20: an *ours* failure says "engineers have a ticket" only when one is filed.
    ours = [d.model_dump(mode="json") for d in grade.all_dimensions() if d.failed and d.owner.value == "ours"]
    tickets = tickets_by_check(unit, ours)

    def parent_content(reviewed: str | None = None) -> PostContent:
        return build_conversation_blocks(
            grade,
            conversation,
            machine_grade_id=ids.conversation,
            conversation_url=conversation_url,
            idempotency_key=parent_at,  # an edited message keeps the parent's key
            locale=locale,
            reviewed=reviewed,
            turns_in_thread=len(own_replies),
            property_name=None if stored is None else stored.name,
            tickets=tickets,
        )

    new_posts: list[NewPost] = []
    refresh_reviewed = False
    if parent is None:
        first = new_post(parent_content(), parent_at, "conversation", machine_grade_id=ids.conversation)
        queued |= queue(unit, [first])
        parent = _queued_ref(unit, parent_at, queued)
    elif ids.conversation in ids.new:
        # A reviewed post keeps showing who reviewed it: the edit carries the line, and a review edit
        # still waiting takes the new content too, so neither undoes the other.
        reviewed = None
        if unit.verdicts.for_conversations([grade.conversation_id]):
            reviewed = reviewed_line(unit, grade.conversation_id, deck_for(locale))
        new_posts.append(
            new_post(
                parent_content(reviewed),
                edit_key(parent_at, ids.conversation),
                "conversation",
                operation="update",
                parent_post_id=parent.id,
                machine_grade_id=ids.conversation,
            )
        )
        refresh_reviewed = reviewed is not None

    for turn in own_replies:
        grade_id = ids.turns[turn.turn_id]
        key = turn_key(grade.conversation_id, turn.turn_id)
        existing = known.get(key)
        if existing is not None and grade_id not in ids.new:
            continue
        content = build_turn_blocks(
            turn,
            grade,
            conversation,
            machine_grade_id=grade_id,
            idempotency_key=key,
            locale=locale,
            tickets=tickets,
        )
        if existing is None:
            new_posts.append(
                new_post(
                    content,
                    key,
                    "turn",
                    turn_id=turn.turn_id,
                    parent_post_id=parent.id,
                    machine_grade_id=grade_id,
                )
            )
        else:
            new_posts.append(
                new_post(
                    content,
                    edit_key(key, grade_id),
                    "turn",
                    operation="update",
                    turn_id=turn.turn_id,
                    parent_post_id=existing.id,
                    machine_grade_id=grade_id,
                )
            )
    if listed:
        key = more_turns_key(grade.conversation_id)
        existing = known.get(key)
        if existing is None or ids.conversation in ids.new:
            content = build_more_turns_blocks(
                listed, conversation, conversation_url=conversation_url, idempotency_key=key, locale=locale
            )
            if existing is None:
                new_posts.append(
                    new_post(
                        content,
                        key,
                        MORE_TURNS_KIND,
                        parent_post_id=parent.id,
                        machine_grade_id=ids.conversation,
                    )
                )
            else:  # a re-sent conversation: the list is edited in place
                new_posts.append(
                    new_post(
                        content,
                        edit_key(key, ids.conversation),
                        MORE_TURNS_KIND,
                        operation="update",
                        parent_post_id=existing.id,
                        machine_grade_id=ids.conversation,
                    )
                )
    queued |= queue(unit, new_posts)
    if refresh_reviewed:
        refresh_reviewed_lines(unit, [grade.conversation_id], only_waiting=True)
    return queued


def _queued_ref(unit: Unit, key: PostKey, queued: Mapping[PostKey, int]) -> QueuedRef:
    """The parent just queued, or the one another writer queued a moment before (read back)."""
    if key in queued:
        return QueuedRef(queued[key], "conversation", "post", None)
    post = unit.outbox.by_key(key)
    assert post is not None and post.id is not None, "a key that conflicted is queued"
    return QueuedRef(post.id, post.kind, post.operation, post.turn_id)


def _replies_and_list(
    known: Mapping[str, QueuedRef], grade: ConversationGrade, max_replies: int
) -> tuple[list[TurnGrade], list[TurnGrade]]:
    """Which flagged turns get a reply of their own, and which are listed in the one reply after them.

    A turn that already has a reply keeps it (it is edited, never taken back). New turns take the free
    places; when they do not all fit, one place is kept for the list, so the thread stays within
    `max_replies` whenever it is built in one go.
    """
    flagged = grade.flagged_turns
    posted = {ref.turn_id for ref in known.values() if ref.kind == "turn" and ref.operation == "post"}
    has_list = more_turns_key(grade.conversation_id) in known
    fresh = [turn for turn in flagged if turn.turn_id not in posted]
    free = max(0, max_replies - len(posted) - int(has_list))
    if len(fresh) > free and not has_list:
        free = max(0, free - 1)
    fresh_ids = {turn.turn_id for turn in fresh[:free]}
    own = [turn for turn in flagged if turn.turn_id in posted or turn.turn_id in fresh_ids]
    listed = [turn for turn in flagged if turn.turn_id not in posted and turn.turn_id not in fresh_ids]
    return own, listed
