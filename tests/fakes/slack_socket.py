"""Socket Mode for the fake Slack: `apps.connections.open` hands out a ``ws://`` URL the fake serves, and
each WebSocket opened on it is a `SocketSession` a test can wait on, send envelopes down and read acks from.

Slack's side of the protocol, as slack_sdk's Socket Mode clients expect it: a ``hello`` message as soon as
the socket is open, then envelopes (``{"envelope_id", "type": "events_api", "payload", ...}``), each acked
by the app with ``{"envelope_id": ...}`` over the same socket.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from .slack_state import JsonDict

LINK_PATH = "/link/"


@dataclass
class SocketSession:
    """One WebSocket the app opened; ``client_close_code`` is None unless the app closed it properly."""

    ticket: str
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    # Text messages the app sent (acks), decoded, in arrival order.
    received: list[JsonDict] = field(default_factory=list)
    # The code of the close frame the app sent; None when the connection ended without one (dropped).
    client_close_code: int | None = None
    closed_by_fake: bool = False
    _arrived: asyncio.Condition = field(default_factory=asyncio.Condition, init=False)
    _ws: web.WebSocketResponse | None = field(default=None, init=False)

    async def send_envelope(self, payload: JsonDict, *, kind: str = "events_api", envelope_id: str) -> None:
        """Deliver ``payload`` as Slack does over Socket Mode; the app should ack ``envelope_id``."""
        assert self._ws is not None and not self.ended.is_set(), "the socket is not open"
        envelope: dict[str, Any] = {
            "envelope_id": envelope_id,
            "type": kind,
            "payload": payload,
            "accepts_response_payload": False,
            "retry_attempt": 0,
            "retry_reason": "",
        }
        await self._ws.send_str(json.dumps(envelope))

    async def ack_of(self, envelope_id: str) -> JsonDict:
        """The app's ack of ``envelope_id``, once it arrives (bound the wait with ``asyncio.timeout``)."""
        async with self._arrived:
            await self._arrived.wait_for(lambda: self._find(envelope_id) is not None)
        found = self._find(envelope_id)
        assert found is not None
        return found

    def _find(self, envelope_id: str) -> JsonDict | None:
        return next((m for m in self.received if m.get("envelope_id") == envelope_id), None)

    async def run(self, ws: web.WebSocketResponse, hello: JsonDict) -> None:
        """Say hello, then record what the app sends until the connection ends, whoever ends it."""
        self._ws = ws
        try:
            await ws.send_json(hello)
            self.connected.set()
            while True:
                message = await ws.receive()
                if message.type == WSMsgType.TEXT:
                    async with self._arrived:
                        self.received.append(json.loads(message.data))
                        self._arrived.notify_all()
                elif message.type == WSMsgType.CLOSE:
                    if not self.closed_by_fake:  # else this frame only answers the fake's own
                        self.client_close_code = int(message.data)
                    return
                elif message.type in (WSMsgType.CLOSED, WSMsgType.CLOSING, WSMsgType.ERROR):
                    return  # dropped, or closed by the fake itself: no close frame from the app
        finally:
            self.ended.set()

    async def close(self) -> None:
        """Close the socket from Slack's side, as Slack does when it goes away."""
        if self._ws is not None and not self.ended.is_set():
            self.closed_by_fake = True
            await self._ws.close(code=WSCloseCode.GOING_AWAY)


class SocketModeEndpoint:
    """The WebSocket side of the fake; `FakeSlack` routes ``LINK_PATH`` here."""

    def __init__(self, app_id: str) -> None:
        self.app_id = app_id
        self.sessions: list[SocketSession] = []
        self._opened = asyncio.Event()
        self._tickets = itertools.count(1)

    def connections_open(self, root_url: str) -> JsonDict:
        """What `apps.connections.open` answers: a fresh URL to open the socket on."""
        ws_root = "ws://" + root_url.removeprefix("http://").rstrip("/")
        query = f"ticket={next(self._tickets)}&app_id={self.app_id}"
        return {"ok": True, "url": f"{ws_root}{LINK_PATH}?{query}"}

    async def first_session(self) -> SocketSession:
        """The first WebSocket the app opened, once it is open (bound the wait with ``asyncio.timeout``)."""
        await self._opened.wait()
        await self.sessions[0].connected.wait()
        return self.sessions[0]

    async def serve(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()  # answers the app's pings, and its close frame with one of its own
        await ws.prepare(request)
        session = SocketSession(ticket=request.query.get("ticket", ""))
        self.sessions.append(session)
        self._opened.set()
        hello = {
            "type": "hello",
            "num_connections": len([s for s in self.sessions if not s.ended.is_set()]),
            "debug_info": {"host": "fake-slack", "build_number": 1, "approximate_connection_time": 18060},
            "connection_info": {"app_id": self.app_id},
        }
        await session.run(ws, hello)
        return ws

    async def close_all(self) -> None:
        """The fake is stopping: close what is still open."""
        for session in self.sessions:
            await session.close()
