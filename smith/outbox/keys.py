"""Every idempotency key a Slack post is queued under, built here and nowhere else.

A key says which post this is, so queuing the same post twice is a no-op (`smith.outbox.queue`).
Keys are `PostKey`s, which only this module makes: a caller cannot concatenate one by hand. The
platform's ids are escaped by `gradecore.model.keys.escape_id` (distinct ids never share a key;
docs/storage.md), and a grade's key too long for its column is hashed; Slack ids (channels, users,
message ts) are alphanumeric and dotted, and our own row ids are numbers: both go in as they are.
"""

from __future__ import annotations

from datetime import date
from typing import Final, NewType

from gradecore.model.keys import POST_KEY_MAX_CHARS, escape_id, hashed

PostKey = NewType("PostKey", str)

# An edit key adds this much to a post key: ":edit:" and a MachineGrade id (a UUID's text).
_EDIT_SUFFIX_CHARS: Final = len(":edit:") + 36


def _grade_key(conversation_id: str, turn_id: str | None = None) -> str:
    key = f"grade:{escape_id(conversation_id)}"
    if turn_id is not None:
        key = f"{key}:turn:{escape_id(turn_id)}"
    if len(key) + _EDIT_SUFFIX_CHARS <= POST_KEY_MAX_CHARS:
        return key
    return f"grade:{hashed('post', conversation_id, turn_id)}"


def parent_key(conversation_id: str) -> PostKey:
    """A flagged conversation's parent message."""
    return PostKey(_grade_key(conversation_id))


def turn_key(conversation_id: str, turn_id: str) -> PostKey:
    """A flagged turn's thread reply."""
    return PostKey(_grade_key(conversation_id, turn_id))


def more_turns_key(conversation_id: str) -> PostKey:
    """The thread reply that lists a conversation's flagged turns past the reply bound."""
    key = f"grade:{escape_id(conversation_id)}:more-turns"
    if len(key) + _EDIT_SUFFIX_CHARS <= POST_KEY_MAX_CHARS:
        return PostKey(key)
    return PostKey(f"grade:{hashed('more-turns', conversation_id)}")


def edit_key(post_key: str, machine_grade_id: str) -> PostKey:
    """The edit that shows `machine_grade_id` in the post keyed `post_key` (at most once)."""
    return PostKey(f"{post_key}:edit:{escape_id(machine_grade_id)}")


def regraded_key(post_key: str, machine_grade_id: str) -> PostKey:
    """The edit that tells a parent its conversation passes under a new rubric (`smith regrade`)."""
    return PostKey(f"{post_key}:regrade:{escape_id(machine_grade_id)}")


def review_edit_key(parent_post_id: int, number: int) -> PostKey:
    """The `number`th edit of a parent's reviewed-by line (`smith.outbox.reviewed`), counted from 1."""
    return PostKey(f"review:{parent_post_id}:{number}")


def tally_key(property_id: str, day: date) -> PostKey:
    """A property's tally line for one local day."""
    return PostKey(f"tally:{escape_id(property_id)}:{day.isoformat()}")


def sweep_summary_key(night: date) -> PostKey:
    """The triage channel's summary of one night's sweep."""
    return PostKey(f"sweep:{night.isoformat()}")


def digest_key(week: str) -> PostKey:
    """The triage channel's weekly digest."""
    return PostKey(f"digest:{week}")


def ops_notice_key(cause: str, failed_channel: str | None) -> PostKey:
    """The ops channel's notice of one delivery failure cause in one channel (told once)."""
    return PostKey(f"notice:{cause}:{failed_channel or '-'}")


def unlinked_key(channel: str, slack_user_id: str) -> PostKey:
    """Telling a person once per channel that their acts wait until they are linked."""
    return PostKey(f"unlinked:{channel}:{slack_user_id}")


def confirmation_key(act_key: str) -> PostKey:
    """Confirming a written correction to its author, once per act."""
    return PostKey(f"confirm:{act_key}")


def note_hint_key(channel: str, thread_ts: str, slack_user_id: str) -> PostKey:
    """Telling a person once per thread how a plain note becomes a correction."""
    return PostKey(f"hint:{channel}:{thread_ts}:{slack_user_id}")
