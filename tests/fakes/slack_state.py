"""The fake Slack workspace's state: channels, messages, threads, users, and what was recorded.

Kept free of HTTP so the method handlers (``slack_methods``) and the test-facing introspection in
``slack_api.FakeSlack`` read and write one plain object.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

JsonDict = dict[str, Any]

# Slack timestamps are "<unix seconds>.<6 digits>"; starting at a fixed, realistic instant keeps them
# deterministic while still looking (and sorting) like the real thing.
DEFAULT_CLOCK_START = 1_764_540_000
TS_STEP_MICROS = 100


class Call(NamedTuple):
    """One request the fake received: the API method and its decoded parameters (no token)."""

    method: str
    params: JsonDict


class RateLimitHit(NamedTuple):
    """One HTTP 429 the fake served."""

    method: str
    channel: str | None
    retry_after: int


class FaultServed(NamedTuple):
    """One injected fault the fake applied to a request."""

    method: str
    kind: str


class ResponseUrlPost(NamedTuple):
    """One message posted to a ``response_url`` (a slash command's or an action's answer)."""

    key: str
    body: JsonDict


@dataclass
class Channel:
    id: str
    name: str
    is_member: bool = True
    is_archived: bool = False


@dataclass
class User:
    id: str
    name: str
    email: str | None = None
    real_name: str = ""
    is_bot: bool = False
    deleted: bool = False
    tz: str = "America/New_York"
    locale: str = "en-US"  # answered only when asked (`include_locale`), as Slack does

    def to_api(self, team_id: str) -> JsonDict:
        profile: JsonDict = {"real_name": self.real_name or self.name, "display_name": self.name}
        if self.email is not None:
            profile["email"] = self.email
        return {
            "id": self.id,
            "team_id": team_id,
            "name": self.name,
            "real_name": self.real_name or self.name,
            "deleted": self.deleted,
            "is_bot": self.is_bot,
            "is_app_user": self.is_bot,
            "tz": self.tz,
            "profile": profile,
        }


@dataclass
class StoredMessage:
    """A message as Slack keeps it; ``thread_ts`` is None for a top-level message without replies."""

    channel: str
    ts: str
    user: str
    text: str
    blocks: list[JsonDict] | None = None
    metadata: JsonDict | None = None
    thread_ts: str | None = None
    bot_id: str | None = None
    reply_ts: list[str] = field(default_factory=list)
    reactions: dict[str, list[str]] = field(default_factory=dict)
    edit_count: int = 0

    @property
    def is_reply(self) -> bool:
        return self.thread_ts is not None and self.thread_ts != self.ts

    def to_api(self, *, team_id: str, include_metadata: bool) -> JsonDict:
        body: JsonDict = {"type": "message", "user": self.user, "text": self.text, "ts": self.ts}
        body["team"] = team_id
        if self.bot_id is not None:
            body["bot_id"] = self.bot_id
        if self.blocks is not None:
            body["blocks"] = self.blocks
        if self.edit_count:
            body["edited"] = {"user": self.user, "ts": self.ts}
        if self.thread_ts is not None:
            body["thread_ts"] = self.thread_ts
        if self.reply_ts:
            body["reply_count"] = len(self.reply_ts)
            body["latest_reply"] = self.reply_ts[-1]
        if self.reactions:
            body["reactions"] = [
                {"name": name, "users": list(users), "count": len(users)}
                for name, users in self.reactions.items()
            ]
        # Slack only returns metadata to callers that ask for it (include_all_metadata).
        if include_metadata and self.metadata is not None:
            body["metadata"] = self.metadata
        return body


@dataclass(frozen=True)
class Ephemeral:
    channel: str
    user: str
    text: str
    blocks: list[JsonDict] | None
    thread_ts: str | None
    message_ts: str


@dataclass(frozen=True)
class OpenedView:
    view_id: str
    trigger_id: str
    view: JsonDict


class Workspace:
    """Everything the fake Slack knows; mutated only from the event loop, so no locking is needed."""

    def __init__(
        self,
        *,
        team_id: str,
        channels: Iterable[str],
        archived: Iterable[str],
        member_of: Iterable[str] | None,
        users: Iterable[User],
        clock_start: int = DEFAULT_CLOCK_START,
    ) -> None:
        self.team_id = team_id
        archived_ids = set(archived)
        all_ids = list(dict.fromkeys([*channels, *archived_ids]))
        members = set(all_ids) if member_of is None else set(member_of)
        self.channels: dict[str, Channel] = {
            cid: Channel(cid, f"channel-{cid.lower()}", cid in members, cid in archived_ids)
            for cid in all_ids
        }
        self.users: dict[str, User] = {u.id: u for u in users}
        self.by_channel: dict[str, list[StoredMessage]] = {cid: [] for cid in all_ids}
        self.ephemerals: list[Ephemeral] = []
        self.views: list[OpenedView] = []
        self.home_views: dict[str, JsonDict] = {}  # user id -> the Home tab last published for them
        # Who is in a channel (users.conversations); a channel not listed here has everyone in it.
        self.people: dict[str, set[str]] = {}
        self._next_micros = clock_start * 1_000_000

    def next_ts(self) -> str:
        self._next_micros += TS_STEP_MICROS
        return f"{self._next_micros // 1_000_000}.{self._next_micros % 1_000_000:06d}"

    def add_channel(self, channel_id: str, *, member: bool = True, archived: bool = False) -> Channel:
        channel = Channel(channel_id, f"channel-{channel_id.lower()}", member, archived)
        self.channels[channel_id] = channel
        self.by_channel.setdefault(channel_id, [])
        return channel

    def set_people(self, channel_id: str, user_ids: Iterable[str]) -> None:
        """Only these users are members of the channel from now on (issue 22: membership scoping)."""
        self.people[channel_id] = set(user_ids)

    def is_in(self, user_id: str, channel_id: str) -> bool:
        return user_id in self.people.get(channel_id, self.users.keys())

    def find(self, channel: str, ts: str) -> StoredMessage | None:
        return next((m for m in self.by_channel.get(channel, []) if m.ts == ts), None)

    def store(
        self,
        channel: str,
        *,
        user: str,
        text: str,
        blocks: list[JsonDict] | None = None,
        metadata: JsonDict | None = None,
        thread_ts: str | None = None,
        bot_id: str | None = None,
    ) -> StoredMessage:
        """Append a message; a reply is attached to its thread's parent (resolving a reply's ts)."""
        ts = self.next_ts()
        parent = self.find(channel, thread_ts) if thread_ts is not None else None
        if parent is not None and parent.is_reply:
            parent = self.find(channel, parent.thread_ts or "")
        message = StoredMessage(channel, ts, user, text, blocks, metadata, bot_id=bot_id)
        if parent is not None:
            message.thread_ts = parent.ts
            parent.thread_ts = parent.ts
            parent.reply_ts.append(ts)
        self.by_channel.setdefault(channel, []).append(message)
        return message

    def thread(self, channel: str, ts: str) -> list[StoredMessage]:
        """Parent first, then replies in order; empty when ``ts`` is unknown."""
        root = self.find(channel, ts)
        if root is None:
            return []
        if root.is_reply:
            root = self.find(channel, root.thread_ts or "") or root
        return [root, *(m for m in self.by_channel[channel] if m.is_reply and m.thread_ts == root.ts)]
