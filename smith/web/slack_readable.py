"""Which signed Slack requests Smith can read: a verified body becomes a Bolt request, or a reason.

Only Slack can sign, so an odd signed payload is Slack's (a new event shape, a test from the app's
settings page), never an attack. Such a payload is acked and ignored: answering 500 would make Slack
deliver it again and again, and recording it would leave an inbox row no one can ever process.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from slack_bolt.request.async_request import AsyncBoltRequest

# Slack's event ids are short ASCII tokens (`Ev0ABC12DEF`); the inbox keys rows by them (128 chars).
_EVENT_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
# A view submission is keyed `view:<view id>` in the inbox, under the same 128 characters.
_VIEW_ID = re.compile(r"[A-Za-z0-9._-]{1,100}")


@dataclass(frozen=True)
class Unreadable:
    """A signed request Smith cannot interpret, and why (logged in one line, then acked)."""

    reason: str


def read_signed(body: bytes, query: str, headers: Mapping[str, str]) -> AsyncBoltRequest | Unreadable:
    """The Bolt request for a verified body, or why Smith cannot read it."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return Unreadable("the body is not UTF-8")
    try:
        # Bolt parses the body (JSON, or a form with or without a `payload` field) and reads the
        # team, user and channel out of it as it builds the request.
        request = AsyncBoltRequest(body=text, query=query, headers=dict(headers))
    except Exception as exc:  # any parse failure of Slack's body is the same answer: unreadable
        return Unreadable(f"Bolt cannot parse it ({type(exc).__name__})")
    why = _why_unreadable(request.body)
    return request if why is None else Unreadable(why)


def _why_unreadable(payload: Any) -> str | None:
    if not isinstance(payload, dict):
        return f"the body is a JSON {type(payload).__name__}, not an object"
    kind = payload.get("type")
    if kind == "event_callback":
        event_id = payload.get("event_id")
        if not isinstance(event_id, str) or not _EVENT_ID.fullmatch(event_id):
            return "an event without a usable event_id"
        event = payload.get("event")
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            return "an event without an event type"
    if kind in ("view_submission", "view_closed"):
        view = payload.get("view")
        view_id = view.get("id") if isinstance(view, dict) else None
        if not isinstance(view_id, str) or not _VIEW_ID.fullmatch(view_id):
            return "a view payload without a usable view id"
        if not isinstance(view, dict) or not isinstance(view.get("type"), str):
            return "a view payload without a view type"  # Bolt reads it to tell workflow steps apart
    if kind == "block_actions":
        actions = payload.get("actions")
        if not isinstance(actions, list) or not actions or not all(isinstance(a, dict) for a in actions):
            return "block actions without a list of actions"
    return None
