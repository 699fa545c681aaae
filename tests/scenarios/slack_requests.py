"""Signed Slack requests, built the way Slack sends them: events (JSON), interactivity and slash
commands (form-encoded), each with `X-Slack-Signature` v0 and `X-Slack-Request-Timestamp`.

Payload builders are plain functions returning dicts; `sign` turns a body into headers. The scenario
tests post these into the real aiohttp app, so Bolt's own verification and dispatch run.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import time
from typing import Any
from urllib.parse import urlencode

TEAM_ID = "T0FAKE"
JSON_TYPE = "application/json"
FORM_TYPE = "application/x-www-form-urlencoded"
_ids = itertools.count(1)


def signature(secret: str, timestamp: str, body: bytes) -> str:
    base = b"v0:" + timestamp.encode() + b":" + body
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


def sign(
    secret: str, body: bytes, content_type: str, *, timestamp: int | None = None, retry_num: int | None = None
) -> dict[str, str]:
    stamp = str(int(time.time()) if timestamp is None else timestamp)
    headers = {
        "Content-Type": content_type,
        "X-Slack-Request-Timestamp": stamp,
        "X-Slack-Signature": signature(secret, stamp, body),
    }
    if retry_num is not None:
        headers["X-Slack-Retry-Num"] = str(retry_num)
        headers["X-Slack-Retry-Reason"] = "http_timeout"
    return headers


def json_bytes(body: dict[str, Any]) -> bytes:
    return json.dumps(body, separators=(",", ":")).encode()


def new_event_id() -> str:
    return f"Ev{next(_ids):08d}{int(time.time() * 1000) % 100000:05d}"


def event_body(event: dict[str, Any], *, event_id: str | None = None) -> dict[str, Any]:
    """Slack's Events API envelope around one event."""
    return {
        "token": "legacy-verification-token",
        "team_id": TEAM_ID,
        "api_app_id": "A0SMITH",
        "type": "event_callback",
        "event_id": event_id or new_event_id(),
        "event_time": int(time.time()),
        "authorizations": [{"team_id": TEAM_ID, "user_id": "U0SMITH", "is_bot": True}],
        "event": event,
    }


def reaction(user: str, name: str, channel: str, ts: str, *, added: bool = True) -> dict[str, Any]:
    return {
        "type": "reaction_added" if added else "reaction_removed",
        "user": user,
        "reaction": name,
        "item_user": "U0SMITH",
        "item": {"type": "message", "channel": channel, "ts": ts},
        "event_ts": f"{time.time():.6f}",
    }


def message(
    user: str,
    channel: str,
    ts: str,
    text: str,
    *,
    thread_ts: str | None,
    blocks: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": "message",
        "channel": channel,
        "channel_type": "channel",
        "user": user,
        "text": text,
        "ts": ts,
        "event_ts": ts,
    }
    if thread_ts is not None:
        event["thread_ts"] = thread_ts
    if blocks is not None:
        event["blocks"] = blocks
    return event


def message_changed(
    user: str, channel: str, ts: str, thread_ts: str, old_text: str, new_text: str, *, edited_ts: str
) -> dict[str, Any]:
    old = {"type": "message", "user": user, "text": old_text, "ts": ts, "thread_ts": thread_ts}
    new = {**old, "text": new_text, "edited": {"user": user, "ts": edited_ts}}
    return {
        "type": "message",
        "subtype": "message_changed",
        "channel": channel,
        "hidden": True,
        "message": new,
        "previous_message": old,
        "ts": edited_ts,
        "event_ts": edited_ts,
    }


def message_deleted(user: str, channel: str, ts: str, thread_ts: str, text: str) -> dict[str, Any]:
    stamp = f"{time.time():.6f}"
    return {
        "type": "message",
        "subtype": "message_deleted",
        "channel": channel,
        "hidden": True,
        "deleted_ts": ts,
        "previous_message": {"type": "message", "user": user, "text": text, "ts": ts, "thread_ts": thread_ts},
        "ts": stamp,
        "event_ts": stamp,
    }


def rich_text(text: str) -> list[dict[str, Any]]:
    """What Slack's composer sends: the words in a rich_text block."""
    section = {"type": "rich_text_section", "elements": [{"type": "text", "text": text}]}
    return [{"type": "rich_text", "block_id": "rt1", "elements": [section]}]


def button_click(
    user: str, channel: str, message_ts: str, value: str, *, response_url: str
) -> dict[str, Any]:
    """A block_actions payload for the "Correct grade" button."""
    return {
        "type": "block_actions",
        "team": {"id": TEAM_ID, "domain": "fake"},
        "user": {"id": user, "team_id": TEAM_ID},
        "api_app_id": "A0SMITH",
        "trigger_id": f"trigger-{next(_ids)}",
        "channel": {"id": channel},
        "container": {"type": "message", "message_ts": message_ts, "channel_id": channel},
        "message": {"ts": message_ts, "type": "message"},
        "response_url": response_url,
        "actions": [
            {
                "type": "button",
                "action_id": "smith_correct_grade",
                "block_id": "actions",
                "value": value,
                "action_ts": f"{time.time():.6f}",
            }
        ],
    }


def view_submission(
    user: str,
    view: dict[str, Any],
    *,
    view_id: str,
    level: str | None,
    principles: list[str] = (),  # type: ignore[assignment]
    new_principle: str | None = None,
    reason: str | None = None,
) -> dict[str, Any]:
    """The modal Smith opened, submitted with these values (Slack's `state.values` shape)."""
    values: dict[str, Any] = {
        "level": {
            "level": {
                "type": "static_select",
                "selected_option": None if level is None else {"value": level, "text": {"text": level}},
            }
        },
        "new_principle": {"new_principle": {"type": "plain_text_input", "value": new_principle}},
        "reason": {"reason": {"type": "plain_text_input", "value": reason}},
    }
    if principles:
        values["principles"] = {
            "principles": {
                "type": "multi_static_select",
                "selected_options": [{"value": p, "text": {"text": p}} for p in principles],
            }
        }
    return {
        "type": "view_submission",
        "team": {"id": TEAM_ID, "domain": "fake"},
        "user": {"id": user, "team_id": TEAM_ID},
        "api_app_id": "A0SMITH",
        "trigger_id": f"trigger-{next(_ids)}",
        "view": {**view, "id": view_id, "team_id": TEAM_ID, "state": {"values": values}},
    }


def interaction_form(payload: dict[str, Any]) -> bytes:
    return urlencode({"payload": json.dumps(payload)}).encode()


def command_form(user: str, channel: str, text: str, *, response_url: str) -> bytes:
    return urlencode(
        {
            "token": "legacy-verification-token",
            "team_id": TEAM_ID,
            "team_domain": "fake",
            "channel_id": channel,
            "channel_name": "apartments",
            "user_id": user,
            "user_name": user.lower(),
            "command": "/smith",
            "text": text,
            "api_app_id": "A0SMITH",
            "response_url": response_url,
            "trigger_id": f"trigger-{next(_ids)}",
        }
    ).encode()
