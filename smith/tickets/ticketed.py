"""What a post promises about tickets is true (docs/verdicts.md).

A failing *ours* check says "engineers have a ticket" only when every root cause it shows has a ticket
filed in the tracker (with its link when the tracker has web addresses); until then it says "a 👍 here
opens a ticket for engineers". When the sweep files a ticket, the posts already in Slack that show its
cause are edited through the outbox (coalesced with the reviewed-by edits, smith.outbox.reviewed).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlmodel import col, select

from blocks.copydeck import CopyDeck, deck_for
from gradecore.model.vocabulary import failed_and_coloured
from gradecore.persistence.entities import MachineGrade, SlackPost, TicketOccurrence, utcnow
from gradecore.persistence.store import Unit
from smith.listening.judged import turns_in_force
from smith.outbox.reviewed import latest_message, queue_edit
from smith.tickets.filed import tickets_by_check


def refresh_ticket_lines(unit: Unit, signature_ids: Iterable[str], *, now: datetime | None = None) -> int:
    """Edit the posts in Slack that show one of these (newly filed) causes; how many edits were queued.

    A post is edited only when every *ours* check it shows now has its ticket: before that its line
    ("a 👍 here opens a ticket") is still true, and an edit per cause would be noise.
    """
    wanted = list(dict.fromkeys(signature_ids))
    if not wanted:
        return 0
    query = select(TicketOccurrence.conversation_id).where(col(TicketOccurrence.signature_id).in_(wanted))
    conversations = sorted({str(cid) for cid in unit.session.exec(query)})
    edited = 0
    for conversation_id in conversations:
        for post in unit.outbox.for_conversation(conversation_id):
            if post.operation != "post" or post.ts is None or post.kind not in ("conversation", "turn"):
                continue
            edited += _refresh_one(unit, post, now or utcnow())
    return edited


def _refresh_one(unit: Unit, post: SlackPost, now: datetime) -> bool:
    message = latest_message(unit, post)
    grade_id = _shown_grade_id(message) or post.machine_grade_id
    grade = unit.grades.get(grade_id) if grade_id else None
    if grade is None:
        return False
    shown = _shown_dimensions(unit, post, grade)
    ours = {str(d.get("check")) for d in shown if _failing_ours(d)}
    tickets = tickets_by_check(unit, shown)
    if not ours or not ours <= set(tickets):
        return False
    prop = unit.properties.get(post.property_id or "")
    deck = deck_for(prop.locale if prop else None)
    urls = {url for url in tickets.values() if url}
    link = f" · <{urls.pop()}|{deck.TICKET_LINK}>" if len(urls) == 1 else ""
    updated = _replaced(message, deck.OURS_NO_TICKET_YET, _filed_phrase(deck) + link)
    if updated == message:
        return False
    return queue_edit(unit, post, updated, now, only_waiting=False)


def _shown_dimensions(unit: Unit, post: SlackPost, grade: MachineGrade) -> list[Mapping[str, Any]]:
    """The dimensions a post shows: a turn reply its own grade's; the parent also lists the failures of
    the turns in force beside its grade (its own row holds only the conversation-scoped ones). Judged by
    its own row alone, a parent whose double send was filed had its turn's tool failure rewritten to
    "engineers have a ticket" too, with no ticket for it."""
    shown: list[Mapping[str, Any]] = list(grade.dimensions or ())
    if post.kind == "conversation":
        for turn in turns_in_force(grade, unit.grades.for_conversation(grade.conversation_id)):
            shown.extend(turn.dimensions or ())
    return shown


def _filed_phrase(deck: CopyDeck) -> str:
    """The deck's "engineers have a ticket" line for a check with nothing of its own to do."""
    return deck.what_to_do("", "ours", ticketed=True).split(": ", 1)[-1]


def _failing_ours(dimension: Mapping[str, Any]) -> bool:
    return dimension.get("owner") == "ours" and failed_and_coloured(dimension)


def _shown_grade_id(message: Mapping[str, Any]) -> str | None:
    """The machine grade a message shows, from its metadata (an edit may show a newer grade)."""
    payload = (message.get("metadata") or {}).get("event_payload") or {}
    found = payload.get("machine_grade_id")
    return str(found) if found else None


def _replaced(value: Any, old: str, new: str) -> Any:
    """`value` (a message's JSON) with every text containing `old` rewritten; the rest as it was."""
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, list):
        return [_replaced(item, old, new) for item in value]
    if isinstance(value, dict):
        return {key: _replaced(item, old, new) for key, item in value.items()}
    return value
