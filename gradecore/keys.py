"""Every key and ref built from the platform's ids, in one place, so that distinct ids never share one.

Ids are the platform's free text: a conversation id may contain `/`, `:` or anything else, and be 128
characters long. Each id is percent-escaped (`%`, `/`, `:` and `#`) before it is joined, so every
separator left in a key is one this module put there and a key splits back into exactly the parts it
was built from. A result that would not fit its column is replaced by `#` and the SHA-256 of its parts
instead: escaping never leaves a `#`, so a hashed form cannot meet an escaped one, and two hashed forms
meet only if SHA-256 collides. Ids without those four characters, short enough to fit, come out as
the old concatenation did, so keys written before the escaping stay valid (migration h10a rewrote the
others).
"""

from __future__ import annotations

import hashlib
import json
from typing import Final

# The widths of the columns that store them (unchanged since the first schema).
ITEM_REF_MAX_CHARS: Final = 260
POST_KEY_MAX_CHARS: Final = 256

_ESCAPES: Final = {"%": "%25", "/": "%2F", ":": "%3A", "#": "%23"}
_HASHED: Final = "#"
# An edit key adds this much to a post key: ":edit:" and a MachineGrade id (a UUID's text).
_EDIT_SUFFIX_CHARS: Final = len(":edit:") + 36


def escape_id(part: str) -> str:
    """`part` with `%`, `/`, `:` and `#` percent-escaped: none of the separators is left in it."""
    if not any(character in part for character in _ESCAPES):
        return part
    return "".join(_ESCAPES.get(character, character) for character in part)


def _digest(*parts: str | None) -> str:
    return _HASHED + hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def item_ref(conversation_id: str, turn_id: str | None = None) -> str:
    """How a graded item is named: its conversation, or "conversation/turn" for a turn (escaped)."""
    ref = escape_id(conversation_id)
    if turn_id is not None:
        ref = f"{ref}/{escape_id(turn_id)}"
    return ref if len(ref) <= ITEM_REF_MAX_CHARS else _digest("item", conversation_id, turn_id)


def grade_post_key(conversation_id: str, turn_id: str | None = None) -> str:
    """The idempotency key of a conversation's parent post, or of one turn's thread reply."""
    key = f"grade:{escape_id(conversation_id)}"
    if turn_id is not None:
        key = f"{key}:turn:{escape_id(turn_id)}"
    if len(key) + _EDIT_SUFFIX_CHARS <= POST_KEY_MAX_CHARS:
        return key
    return f"grade:{_digest('post', conversation_id, turn_id)}"


def edit_post_key(post_key: str, machine_grade_id: str) -> str:
    """The key of the edit that shows `machine_grade_id` in the post keyed `post_key` (at most once)."""
    return f"{post_key}:edit:{escape_id(machine_grade_id)}"


def more_turns_post_key(conversation_id: str) -> str:
    """The key of the thread reply that lists a conversation's turns past the reply bound."""
    key = f"grade:{escape_id(conversation_id)}:more-turns"
    if len(key) + _EDIT_SUFFIX_CHARS <= POST_KEY_MAX_CHARS:
        return key
    return f"grade:{_digest('more-turns', conversation_id)}"
