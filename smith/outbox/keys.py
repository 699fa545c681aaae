"""The idempotency keys of a conversation's posts: the parent, a turn's reply, the list of the rest."""

from __future__ import annotations


def parent_key(conversation_id: str) -> str:
    return f"grade:{conversation_id}"


def turn_key(conversation_id: str, turn_id: str) -> str:
    return f"grade:{conversation_id}:turn:{turn_id}"


def more_turns_key(conversation_id: str) -> str:
    return f"grade:{conversation_id}:more-turns"
