"""How the platform's ids are escaped before they are joined into a ref or a key, so that distinct ids
never share one; and item refs, which the model stores. Post keys are built from these in
`smith.outbox.keys`, the one place that builds them.

Ids are the platform's free text: a conversation id may contain `/`, `:` or anything else, and be 128
characters long. Each id is percent-escaped (`%`, `/`, `:` and `#`) before it is joined, so every
separator left in a key is one this module put there and a key splits back into exactly the parts it
was built from. A result that would not fit its column is replaced by `#` and the SHA-256 of its parts
instead: escaping never leaves a `#`, so a hashed form cannot meet an escaped one, and two hashed forms
meet only if SHA-256 collides. Ids without those four characters, short enough to fit, come out as
the old concatenation did, so keys written before the escaping stay valid (the others were rewritten
by `migrations/versions/0002_escaped_keys_and_wide_locale.py`).
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


def escape_id(part: str) -> str:
    """`part` with `%`, `/`, `:` and `#` percent-escaped: none of the separators is left in it."""
    if not any(character in part for character in _ESCAPES):
        return part
    return "".join(_ESCAPES.get(character, character) for character in part)


def hashed(*parts: str | None) -> str:
    """`#` and the SHA-256 of `parts`: the form of a ref or key too long for its column."""
    return _HASHED + hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def item_ref(conversation_id: str, turn_id: str | None = None) -> str:
    """How a graded item is named: its conversation, or "conversation/turn" for a turn (escaped)."""
    ref = escape_id(conversation_id)
    if turn_id is not None:
        ref = f"{ref}/{escape_id(turn_id)}"
    return ref if len(ref) <= ITEM_REF_MAX_CHARS else hashed("item", conversation_id, turn_id)
