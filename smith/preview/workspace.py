"""An in-memory Slack workspace that the real relay delivers to: what `smith preview` renders.

It keeps what Slack would keep: each channel's messages in order, thread replies under their parent, and
each message's latest content (an edit replaces it in place, as `chat.update` does).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from smith.transports.base import Payload


@dataclass
class Message:
    channel: str
    ts: str
    payload: Payload
    thread_ts: str | None = None
    edited: bool = False
    replies: list[Message] = field(default_factory=list)


@dataclass
class Channel:
    id: str
    messages: list[Message] = field(default_factory=list)  # top-level messages, oldest first


class InMemorySlack:
    """A `Transport` whose Slack is a few dictionaries: nothing leaves the process."""

    name = "preview"

    def __init__(self) -> None:
        self.channels: dict[str, Channel] = {}
        self._by_ts: dict[tuple[str, str], Message] = {}
        self._counter = itertools.count(1)

    async def post(self, channel: str, payload: Payload, *, thread_ts: str | None) -> str:
        ts = f"1700000000.{next(self._counter):06d}"
        message = Message(channel, ts, payload, thread_ts)
        parent = self._by_ts.get((channel, thread_ts)) if thread_ts else None
        if parent is not None:
            parent.replies.append(message)
        else:
            self._channel(channel).messages.append(message)
        self._by_ts[(channel, ts)] = message
        return ts

    async def update(self, channel: str, ts: str, payload: Payload) -> None:
        message = self._by_ts.get((channel, ts))
        if message is not None:
            message.payload = payload
            message.edited = True

    async def post_ephemeral(
        self, channel: str, user: str, payload: Payload, *, thread_ts: str | None
    ) -> None:
        """Ephemeral messages are not part of any channel's history; the preview does not show them."""

    async def find_posted(self, channel: str, idempotency_key: str, *, thread_ts: str | None) -> str | None:
        for (where, ts), message in self._by_ts.items():
            metadata = message.payload.get("metadata") or {}
            if (
                where == channel
                and (metadata.get("event_payload") or {}).get("idempotency_key") == idempotency_key
            ):
                return ts
        return None

    async def join(self, channel: str) -> bool:
        self._channel(channel)
        return True

    def _channel(self, channel: str) -> Channel:
        return self.channels.setdefault(channel, Channel(channel))
