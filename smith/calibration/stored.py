"""Walking the stored conversations of a window, a page at a time, as validated conversations."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from gradecore.model.contract import ContractViolation, Conversation, validate_conversation
from gradecore.persistence.store import Store

PAGE = 200


@dataclass(frozen=True, slots=True)
class Stored:
    conversation: Conversation
    content_hash: str


def stored_conversations(
    store: Store, start: datetime, end: datetime, *, property_id: str | None = None
) -> Iterator[Stored]:
    """Every stored conversation settled in [start, end), oldest first; one page in memory at a time.

    A stored document that no longer validates (the contract tightened since) is skipped: it was
    graded under the contract of its day and cannot be graded under this one.
    """
    after: tuple[datetime, str] | None = None
    while True:
        with store.unit() as unit:
            page = unit.conversations.settled_page(
                start, end, after=after, limit=PAGE, property_id=property_id
            )
        for _, _, digest, document in page:
            try:
                yield Stored(validate_conversation(document), digest)
            except ContractViolation:
                continue
        if len(page) < PAGE:
            return
        after = (page[-1][0], page[-1][1])
