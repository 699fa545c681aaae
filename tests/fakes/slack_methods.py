"""The Web API methods the fake Slack implements, one function per method over the shared Workspace.

Each handler takes the decoded request parameters and returns Slack's JSON body, or raises SlackError
with the error string Slack would answer (HTTP 200, ``ok: false``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from .slack_limits import MAX_MESSAGE_TEXT, validate_blocks, validate_metadata, validate_view
from .slack_state import Channel, Ephemeral, JsonDict, OpenedView, StoredMessage, Workspace

DEFAULT_PAGE_LIMIT = 100
MAX_PAGE_LIMIT = 1_000


class SlackError(Exception):
    """An ``ok: false`` answer, with Slack's optional ``response_metadata.messages``."""

    def __init__(self, error: str, messages: Sequence[str] = ()) -> None:
        super().__init__(error)
        self.error = error
        self.messages = list(messages)

    def body(self) -> JsonDict:
        body: JsonDict = {"ok": False, "error": self.error}
        if self.messages:
            body["response_metadata"] = {"messages": self.messages}
        return body


@dataclass(frozen=True)
class Bot:
    """Who the fake's bot token belongs to."""

    token: str
    user_id: str
    bot_id: str
    team_id: str


Handler = Callable[[Workspace, Bot, JsonDict], JsonDict]


def _str(params: JsonDict, key: str) -> str | None:
    value = params.get(key)
    return None if value is None or value == "" else str(value)


def _flag(params: JsonDict, key: str) -> bool:
    # Form and query bodies carry booleans as "1"/"true"; JSON bodies carry real booleans.
    return str(params.get(key, "")).lower() in ("1", "true")


def _json_field(params: JsonDict, key: str, error: str) -> Any:
    """A structured parameter, which slack_sdk sends as JSON inside JSON or as a string in a form body."""
    value = params.get(key)
    if isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            raise SlackError(error) from None
    return value


def _channel(ws: Workspace, params: JsonDict, *, writes: bool, needs_member: bool) -> Channel:
    channel = ws.channels.get(_str(params, "channel") or "")
    if channel is None:
        raise SlackError("channel_not_found")
    if writes and channel.is_archived:
        raise SlackError("is_archived")
    if needs_member and not channel.is_member:
        raise SlackError("not_in_channel")
    return channel


def _content(params: JsonDict, *, require: bool = True) -> tuple[str, list[JsonDict] | None]:
    text = _str(params, "text") or ""
    blocks = _json_field(params, "blocks", "invalid_blocks_format")
    if require and not text and not blocks and not params.get("attachments"):
        raise SlackError("no_text")
    if len(text) > MAX_MESSAGE_TEXT:
        raise SlackError("msg_too_long")
    if blocks is not None:
        problems = validate_blocks(blocks)
        if problems:
            raise SlackError("invalid_blocks", problems)
    return text, blocks


def _metadata(params: JsonDict) -> JsonDict | None:
    metadata = _json_field(params, "metadata", "invalid_metadata")
    if metadata is None:
        return None
    problems = validate_metadata(metadata)
    if problems:
        raise SlackError("invalid_metadata", problems)
    return {"event_type": metadata["event_type"], "event_payload": metadata["event_payload"]}


def _page(messages: list[StoredMessage], params: JsonDict, ws: Workspace) -> JsonDict:
    """Slack's windowing (oldest/latest/inclusive) and cursor pagination over an ordered list."""

    def bound(key: str) -> Decimal | None:
        try:
            raw = _str(params, key)
            return None if raw is None else Decimal(raw)
        except InvalidOperation:
            raise SlackError("invalid_ts_" + key) from None

    oldest, latest, inclusive = bound("oldest"), bound("latest"), _flag(params, "inclusive")
    window = [
        m
        for m in messages
        if (oldest is None or Decimal(m.ts) > oldest or (inclusive and Decimal(m.ts) == oldest))
        and (latest is None or Decimal(m.ts) < latest or (inclusive and Decimal(m.ts) == latest))
    ]
    try:
        limit = min(int(params.get("limit") or DEFAULT_PAGE_LIMIT), MAX_PAGE_LIMIT)
        start = int(_str(params, "cursor") or 0)
    except ValueError:
        raise SlackError("invalid_cursor") from None
    page, has_more = window[start : start + limit], start + limit < len(window)
    include = _flag(params, "include_all_metadata")
    return {
        "ok": True,
        "messages": [m.to_api(team_id=ws.team_id, include_metadata=include) for m in page],
        "has_more": has_more,
        "response_metadata": {"next_cursor": str(start + limit) if has_more else ""},
    }


def auth_test(ws: Workspace, bot: Bot, params: JsonDict) -> JsonDict:
    return {
        "ok": True,
        "url": "https://fake-smith.slack.com/",
        "team": "Fake Apartments",
        "user": "smith",
        "team_id": bot.team_id,
        "user_id": bot.user_id,
        "bot_id": bot.bot_id,
        "is_enterprise_install": False,
    }


def chat_post_message(ws: Workspace, bot: Bot, params: JsonDict) -> JsonDict:
    channel = _channel(ws, params, writes=True, needs_member=True)
    text, blocks = _content(params)
    metadata = _metadata(params)
    thread_ts = _str(params, "thread_ts")
    if thread_ts is not None and ws.find(channel.id, thread_ts) is None:
        raise SlackError("invalid_thread_ts")
    message = ws.store(
        channel.id,
        user=bot.user_id,
        text=text,
        blocks=blocks,
        metadata=metadata,
        thread_ts=thread_ts,
        bot_id=bot.bot_id,
    )
    reply = message.to_api(team_id=ws.team_id, include_metadata=False)
    return {"ok": True, "channel": channel.id, "ts": message.ts, "message": reply}


def chat_update(ws: Workspace, bot: Bot, params: JsonDict) -> JsonDict:
    channel = _channel(ws, params, writes=True, needs_member=False)
    message = ws.find(channel.id, _str(params, "ts") or "")
    if message is None:
        raise SlackError("message_not_found")
    if message.user != bot.user_id:
        raise SlackError("cant_update_message")
    text, blocks = _content(params)
    metadata = _metadata(params)
    message.text = text
    if "blocks" in params:
        message.blocks = blocks
    if metadata is not None:
        message.metadata = metadata
    message.edit_count += 1
    reply = message.to_api(team_id=ws.team_id, include_metadata=False)
    return {"ok": True, "channel": channel.id, "ts": message.ts, "text": text, "message": reply}


def chat_post_ephemeral(ws: Workspace, bot: Bot, params: JsonDict) -> JsonDict:
    channel = _channel(ws, params, writes=True, needs_member=True)
    user = _str(params, "user")
    if user is None or user not in ws.users:
        raise SlackError("user_not_found")
    text, blocks = _content(params)
    message_ts = ws.next_ts()
    ws.ephemerals.append(Ephemeral(channel.id, user, text, blocks, _str(params, "thread_ts"), message_ts))
    return {"ok": True, "message_ts": message_ts}


def conversations_join(ws: Workspace, bot: Bot, params: JsonDict) -> JsonDict:
    channel = _channel(ws, params, writes=True, needs_member=False)
    already = channel.is_member
    channel.is_member = True
    body: JsonDict = {
        "ok": True,
        "channel": {"id": channel.id, "name": channel.name, "is_channel": True, "is_member": True},
    }
    if already:
        body["warning"] = "already_in_channel"
        body["response_metadata"] = {"warnings": ["already_in_channel"]}
    return body


def conversations_info(ws: Workspace, bot: Bot, params: JsonDict) -> JsonDict:
    channel = _channel(ws, params, writes=False, needs_member=False)
    return {
        "ok": True,
        "channel": {
            "id": channel.id,
            "name": channel.name,
            "is_channel": True,
            "is_member": channel.is_member,
            "is_archived": channel.is_archived,
        },
    }


def conversations_history(ws: Workspace, bot: Bot, params: JsonDict) -> JsonDict:
    channel = _channel(ws, params, writes=False, needs_member=True)
    top_level = [m for m in ws.by_channel[channel.id] if not m.is_reply]
    return _page(list(reversed(top_level)), params, ws)


def conversations_replies(ws: Workspace, bot: Bot, params: JsonDict) -> JsonDict:
    channel = _channel(ws, params, writes=False, needs_member=True)
    thread = ws.thread(channel.id, _str(params, "ts") or "")
    if not thread:
        raise SlackError("thread_not_found")
    return _page(thread, params, ws)


def users_info(ws: Workspace, bot: Bot, params: JsonDict) -> JsonDict:
    user = ws.users.get(_str(params, "user") or "")
    if user is None:
        raise SlackError("user_not_found")
    answer = user.to_api(ws.team_id)
    if params.get("include_locale") in (True, "true", "1", 1):
        answer["locale"] = user.locale
    return {"ok": True, "user": answer}


def users_conversations(ws: Workspace, bot: Bot, params: JsonDict) -> JsonDict:
    """The channels a user is a member of, a page at a time (`cursor` is the index to start at)."""
    user = _str(params, "user") or ""
    if user not in ws.users:
        raise SlackError("user_not_found")
    theirs = [c for c in ws.channels.values() if ws.is_in(user, c.id)]
    if _flag(params, "exclude_archived"):
        theirs = [c for c in theirs if not c.is_archived]
    start = int(_str(params, "cursor") or 0)
    limit = int(_str(params, "limit") or 100)
    page = theirs[start : start + limit]
    following = str(start + limit) if start + limit < len(theirs) else ""
    return {
        "ok": True,
        "channels": [{"id": c.id, "name": c.name, "is_archived": c.is_archived} for c in page],
        "response_metadata": {"next_cursor": following},
    }


def views_open(ws: Workspace, bot: Bot, params: JsonDict) -> JsonDict:
    trigger_id = _str(params, "trigger_id")
    if trigger_id is None:
        raise SlackError("invalid_trigger_id")
    view = _json_field(params, "view", "invalid_arguments")
    problems = validate_view(view)
    if problems:
        raise SlackError("invalid_arguments", problems)
    opened = OpenedView(f"V{len(ws.views) + 1:08d}", trigger_id, view)
    ws.views.append(opened)
    return {
        "ok": True,
        "view": {**view, "id": opened.view_id, "team_id": ws.team_id, "state": {"values": {}}},
    }


def views_publish(ws: Workspace, bot: Bot, params: JsonDict) -> JsonDict:
    user_id = _str(params, "user_id")
    if user_id is None or user_id not in ws.users:
        raise SlackError("user_not_found")
    view = _json_field(params, "view", "invalid_arguments")
    problems = validate_view(view)
    if view.get("type") != "home":
        problems.append("views.publish publishes a home view")
    if problems:
        raise SlackError("invalid_arguments", problems)
    ws.home_views[user_id] = view
    return {"ok": True, "view": {**view, "id": f"VH{user_id}", "team_id": ws.team_id}}


def reactions_get(ws: Workspace, bot: Bot, params: JsonDict) -> JsonDict:
    channel = _channel(ws, params, writes=False, needs_member=False)
    message = ws.find(channel.id, _str(params, "timestamp") or "")
    if message is None:
        raise SlackError("message_not_found")
    body = message.to_api(team_id=ws.team_id, include_metadata=False)
    return {"ok": True, "type": "message", "channel": channel.id, "message": body}


HANDLERS: dict[str, Handler] = {
    "auth.test": auth_test,
    "chat.postMessage": chat_post_message,
    "chat.update": chat_update,
    "chat.postEphemeral": chat_post_ephemeral,
    "conversations.join": conversations_join,
    "conversations.info": conversations_info,
    "conversations.history": conversations_history,
    "conversations.replies": conversations_replies,
    "users.info": users_info,
    "users.conversations": users_conversations,
    "views.open": views_open,
    "views.publish": views_publish,
    "reactions.get": reactions_get,
}
