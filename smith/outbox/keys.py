"""The idempotency keys of a conversation's posts: the parent, a turn's reply, the list of the rest.

Built by `gradecore.keys`, which escapes the platform's ids so that distinct ids never share a key.
"""

from __future__ import annotations

from gradecore.keys import grade_post_key, more_turns_post_key


def parent_key(conversation_id: str) -> str:
    return grade_post_key(conversation_id)


def turn_key(conversation_id: str, turn_id: str) -> str:
    return grade_post_key(conversation_id, turn_id)


def more_turns_key(conversation_id: str) -> str:
    return more_turns_post_key(conversation_id)
