"""Typed views of the raw Slack payloads kept in the inbox: what happened, by whom, on which message."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from smith.listening.corrections import reply_text

THUMBS = {"+1": "up", "thumbsup": "up", "-1": "down", "thumbsdown": "down"}
# Message subtypes that are people writing; anything else (joins, bot messages, …) is not a reply.
_HUMAN_SUBTYPES = {None, "", "thread_broadcast", "file_share"}
_STAMP = re.compile(r"[0-9]{1,12}\.[0-9]{1,9}")


@dataclass(frozen=True)
class ReactionEvent:
    event_id: str
    team_id: str
    user: str
    signal: str | None  # up | down | None for emoji Smith does not read
    channel: str
    ts: str
    added: bool


@dataclass(frozen=True)
class ReplyEvent:
    event_id: str
    team_id: str
    user: str
    channel: str
    ts: str
    thread_ts: str
    text: str
    edit_of: str | None  # the edit's own stamp when this supersedes an earlier version


@dataclass(frozen=True)
class ReplyDeleted:
    event_id: str
    team_id: str
    user: str
    channel: str
    deleted_ts: str
    thread_ts: str


@dataclass(frozen=True)
class Ignored:
    why: str


ParsedEvent = ReactionEvent | ReplyEvent | ReplyDeleted | Ignored


def skin_toneless(name: str) -> str:
    """`+1::skin-tone-3` → `+1`."""
    return name.split("::", 1)[0]


def _object(value: object) -> dict[str, Any]:
    """A nested part of Slack's payload, or {} when it is missing or of an unexpected shape."""
    return value if isinstance(value, dict) else {}


def _text(value: object) -> str:
    """A string field of Slack's payload, or "" when it is missing or not a string."""
    return storable(value) if isinstance(value, str) else ""


def storable(text: str) -> str:
    """`text` as the database can keep it: JSON may carry NUL characters and lone surrogates, which
    PostgreSQL text (and UTF-8 itself) cannot hold; they are dropped or replaced, never an error."""
    if text.isascii() and "\x00" not in text:
        return text
    return text.replace("\x00", "").encode("utf-8", "replace").decode("utf-8")


def _ts(value: object) -> str:
    """A message stamp (`1700000000.123456`), or "" for anything else: stamps are compared as numbers."""
    return value if isinstance(value, str) and _STAMP.fullmatch(value) else ""


def parse_event(body: dict[str, Any]) -> ParsedEvent:
    """What a recorded event means. Odd shapes (a field of another type, a part missing) are ignored,
    never an error: the inbox row would otherwise fail on every try."""
    event = _object(body.get("event"))
    event_id, team_id = _text(body.get("event_id")), _text(body.get("team_id"))
    kind = event.get("type")
    if kind in ("reaction_added", "reaction_removed"):
        item = _object(event.get("item"))
        user = _text(event.get("user"))
        if item.get("type") != "message" or not user:
            return Ignored("reaction not on a message")
        return ReactionEvent(
            event_id=event_id,
            team_id=team_id,
            user=user,
            signal=THUMBS.get(skin_toneless(_text(event.get("reaction")))),
            channel=_text(item.get("channel")),
            ts=_ts(item.get("ts")),
            added=kind == "reaction_added",
        )
    if kind == "message":
        return _parse_message(event, event_id, team_id)
    return Ignored(f"event type {str(kind)[:64]!r} is not read")


def _parse_message(event: dict[str, Any], event_id: str, team_id: str) -> ParsedEvent:
    subtype = event.get("subtype")
    channel = _text(event.get("channel"))
    if subtype == "message_deleted":
        previous = _object(event.get("previous_message"))
        user, thread_ts = _text(previous.get("user")), _ts(previous.get("thread_ts"))
        if not thread_ts or not user or previous.get("bot_id"):
            return Ignored("deleted message was not a human thread reply")
        deleted_ts = _ts(event.get("deleted_ts"))
        if not deleted_ts:
            return Ignored("a deletion without the deleted message's stamp")
        return ReplyDeleted(event_id, team_id, user, channel, deleted_ts, thread_ts)
    edit_of = None
    if subtype == "message_changed":
        message = _object(event.get("message"))
        previous = _object(event.get("previous_message"))
        if _text_of(message) == _text_of(previous):
            return Ignored("an edit that changed no text (an unfurl, a reply count)")
        edited = _text(_object(message.get("edited")).get("ts"))
        edit_of = edited or _text(event.get("event_ts")) or event_id
        event, subtype = message, message.get("subtype")
    if event.get("bot_id") or not isinstance(subtype, str | None) or subtype not in _HUMAN_SUBTYPES:
        return Ignored("not a person's message")
    thread_ts, ts, user = _ts(event.get("thread_ts")), _ts(event.get("ts")), _text(event.get("user"))
    if not thread_ts or not ts or thread_ts == ts or not user:
        return Ignored("not a thread reply")
    return ReplyEvent(
        event_id=event_id,
        team_id=team_id,
        user=user,
        channel=channel or _text(event.get("channel")),
        ts=ts,
        thread_ts=thread_ts,
        text=_text_of(event),
        edit_of=edit_of,
    )


def _text_of(message: dict[str, Any]) -> str:
    try:
        return storable(reply_text(message))
    except (AttributeError, TypeError, RecursionError):  # blocks of a shape the composer never sends
        return _text(message.get("text"))


@dataclass(frozen=True)
class ButtonValue:
    """What the "Correct grade" button carries: which conversation/turn/grade the post showed."""

    conversation_id: str
    turn_id: str | None
    machine_grade_id: str | None

    @classmethod
    def parse(cls, value: str) -> ButtonValue | None:
        try:
            data = json.loads(value)
            conversation, turn, grade = data["c"], data.get("t"), data.get("g")
        except (ValueError, KeyError, TypeError, RecursionError):
            return None
        if not isinstance(conversation, str) or not all(isinstance(v, str | None) for v in (turn, grade)):
            return None
        return cls(conversation, turn, grade)
