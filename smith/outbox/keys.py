"""Every idempotency key a Slack post is queued under, built here and nowhere else.

A key says which post this is, so queuing the same post twice is a no-op (`smith.outbox.queue`).
Keys are `PostKey`s, which only this module makes: a caller cannot concatenate one by hand. The
platform's ids are escaped by `gradecore.keys` (distinct ids never share a key; docs/storage.md);
Slack ids (channels, users, message ts) are alphanumeric and dotted, and go in as they are.
"""

from __future__ import annotations

from datetime import date
from typing import NewType

from gradecore.keys import edit_post_key, escape_id, grade_post_key, more_turns_post_key

PostKey = NewType("PostKey", str)


def parent_key(conversation_id: str) -> PostKey:
    """A flagged conversation's parent message."""
    return PostKey(grade_post_key(conversation_id))


def turn_key(conversation_id: str, turn_id: str) -> PostKey:
    """A flagged turn's thread reply."""
    return PostKey(grade_post_key(conversation_id, turn_id))


def more_turns_key(conversation_id: str) -> PostKey:
    """The thread reply that lists a conversation's flagged turns past the reply bound."""
    return PostKey(more_turns_post_key(conversation_id))


def edit_key(post_key: str, machine_grade_id: str) -> PostKey:
    """The edit that shows `machine_grade_id` in the post keyed `post_key` (at most once)."""
    return PostKey(edit_post_key(post_key, machine_grade_id))


def regraded_key(post_key: str, machine_grade_id: str) -> PostKey:
    """The edit that tells a parent its conversation passes under a new rubric (`smith regrade`)."""
    return PostKey(f"{post_key}:regrade:{escape_id(machine_grade_id)}")


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
