"""Typed views of the raw Slack payloads kept in the inbox: what happened, by whom, on which message."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from smith.corrections import reply_text

THUMBS = {"+1": "up", "thumbsup": "up", "-1": "down", "thumbsdown": "down"}
# Message subtypes that are people writing; anything else (joins, bot messages, …) is not a reply.
_HUMAN_SUBTYPES = {None, "", "thread_broadcast", "file_share"}


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


def parse_event(body: dict[str, Any]) -> ParsedEvent:
    event = body.get("event") or {}
    event_id, team_id = str(body.get("event_id", "")), str(body.get("team_id", ""))
    kind = event.get("type")
    if kind in ("reaction_added", "reaction_removed"):
        item = event.get("item") or {}
        if item.get("type") != "message" or not event.get("user"):
            return Ignored("reaction not on a message")
        return ReactionEvent(
            event_id=event_id,
            team_id=team_id,
            user=str(event["user"]),
            signal=THUMBS.get(skin_toneless(str(event.get("reaction", "")))),
            channel=str(item.get("channel", "")),
            ts=str(item.get("ts", "")),
            added=kind == "reaction_added",
        )
    if kind == "message":
        return _parse_message(event, event_id, team_id)
    return Ignored(f"event type {kind!r} is not read")


def _parse_message(event: dict[str, Any], event_id: str, team_id: str) -> ParsedEvent:
    subtype = event.get("subtype")
    channel = str(event.get("channel", ""))
    if subtype == "message_deleted":
        previous = event.get("previous_message") or {}
        if not previous.get("thread_ts") or not previous.get("user") or previous.get("bot_id"):
            return Ignored("deleted message was not a human thread reply")
        return ReplyDeleted(
            event_id,
            team_id,
            str(previous["user"]),
            channel,
            str(event.get("deleted_ts", "")),
            str(previous["thread_ts"]),
        )
    edit_of = None
    if subtype == "message_changed":
        message = event.get("message") or {}
        previous = event.get("previous_message") or {}
        if _text_of(message) == _text_of(previous):
            return Ignored("an edit that changed no text (an unfurl, a reply count)")
        edit_of = str((message.get("edited") or {}).get("ts") or event.get("event_ts") or event_id)
        event, subtype = message, message.get("subtype")
    if event.get("bot_id") or subtype not in _HUMAN_SUBTYPES:
        return Ignored("not a person's message")
    thread_ts, ts = event.get("thread_ts"), event.get("ts")
    if not thread_ts or thread_ts == ts or not event.get("user"):
        return Ignored("not a thread reply")
    return ReplyEvent(
        event_id=event_id,
        team_id=team_id,
        user=str(event["user"]),
        channel=channel or str(event.get("channel", "")),
        ts=str(ts),
        thread_ts=str(thread_ts),
        text=_text_of(event),
        edit_of=edit_of,
    )


def _text_of(message: dict[str, Any]) -> str:
    return reply_text(message)


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
            return cls(str(data["c"]), data.get("t"), data.get("g"))
        except (ValueError, KeyError, TypeError):
            return None
