"""Surviving principles: every reader that counts principles follows a tag through `superseded_by` first.

A merge retires a principle and points it at its survivor; chains are followed to the end, so
evidence filed under any retired name is counted on the principle that survives.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

_TAG = re.compile(r"[^a-z0-9]+")
MAX_PRINCIPLE_ID = 64  # the width of principles.id


def normalise_tag(tag: str) -> str:
    """`#Arrival Section` → `arrival-section`: the form principles are stored and matched in.

    Accents are dropped (`#Política` and `#politica` are one principle, as texts are matched
    accent-insensitively elsewhere) and the result fits the principle id column.
    """
    plain = "".join(c for c in unicodedata.normalize("NFKD", tag) if not unicodedata.combining(c))
    slug = _TAG.sub("-", plain.strip().lstrip("#").lower()).strip("-")
    return slug[:MAX_PRINCIPLE_ID].rstrip("-")


def surviving_principle(tag: str, superseded_by: Mapping[str, str | None]) -> str:
    """The surviving principle for `tag`, following the chain; a cycle stops at its first repeat."""
    current = normalise_tag(tag)
    seen = {current}
    while (successor := superseded_by.get(current)) is not None and successor not in seen:
        seen.add(successor)
        current = successor
    return current


def surviving_principles(tags: Iterable[str], superseded_by: Mapping[str, str | None]) -> list[str]:
    """Each tag's surviving principle, without duplicates, in first-seen order."""
    return list(dict.fromkeys(surviving_principle(tag, superseded_by) for tag in tags if normalise_tag(tag)))
