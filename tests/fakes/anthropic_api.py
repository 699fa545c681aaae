"""A local fake of the Anthropic Messages API for tests: the real `AsyncAnthropic` talks HTTP to it.

Binds 127.0.0.1 on a random port, records every request body, and answers each request with whatever
the test's responder returns: a scripted `record_scores` tool call, an HTTP error, a delay longer
than the client's timeout, or a malformed answer. It tracks the most requests ever in flight at once.

    async with FakeAnthropicAPI(responder=lambda body: tool_answer(...)) as api:
        JudgeConfig(api_key="test-key", base_url=api.base_url)
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from aiohttp import web

Body = dict[str, Any]


@dataclass(frozen=True)
class Reply:
    """One programmed answer: an HTTP status and JSON body, optionally after a delay."""

    status: int = 200
    body: Body = field(default_factory=dict)
    delay_seconds: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


Responder = Callable[[Body], Reply]
_ids = itertools.count(1)


def _message(content: list[Body], *, stop_reason: str, usage: Body | None) -> Body:
    return {
        "id": f"msg_fake_{next(_ids)}",
        "type": "message",
        "role": "assistant",
        "model": "claude-fake",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": usage
        or {
            "input_tokens": 1200,
            "output_tokens": 80,
            "cache_read_input_tokens": 900,
            "cache_creation_input_tokens": 0,
        },
    }


def tool_input_answer(tool_input: Body, *, usage: Body | None = None, name: str = "record_scores") -> Reply:
    """A tool_use answer with exactly this input (use it for malformed inputs too)."""
    block = {"type": "tool_use", "id": f"toolu_fake_{next(_ids)}", "name": name, "input": tool_input}
    return Reply(body=_message([block], stop_reason="tool_use", usage=usage))


def tool_answer(
    tone: tuple[int, str, str], pacing: tuple[int, str, str], *, usage: Body | None = None
) -> Reply:
    """A well-formed `record_scores` call; each dimension is (score, quote, reason)."""
    scores = {
        name: {"score": score, "quote": quote, "reason": reason}
        for name, (score, quote, reason) in (("tone", tone), ("pacing", pacing))
    }
    return tool_input_answer(scores, usage=usage)


def text_only_answer(text: str = "I think the tone is fine.") -> Reply:
    """An answer with no tool call at all."""
    return Reply(body=_message([{"type": "text", "text": text}], stop_reason="end_turn", usage=None))


def error_reply(status: int, error_type: str = "api_error", message: str = "fake failure") -> Reply:
    headers = {"retry-after": "30"} if status == 429 else {}
    body = {"type": "error", "error": {"type": error_type, "message": message}}
    return Reply(status=status, body=body, headers=headers)


def delayed(reply: Reply, seconds: float) -> Reply:
    return Reply(status=reply.status, body=reply.body, delay_seconds=seconds, headers=reply.headers)


# Longer than any test runs: the server holds the request until the client gives up (the handler is
# cancelled when the client disconnects), so a timeout never depends on how fast the machine is.
_NEVER_SECONDS = 3600.0


def never_answered() -> Reply:
    """A request the server holds until the client times out and disconnects."""
    return Reply(delay_seconds=_NEVER_SECONDS)


class FakeAnthropicAPI:
    """An async context manager serving POST /v1/messages on 127.0.0.1."""

    def __init__(self, responder: Responder | None = None) -> None:
        self.responder: Responder = responder or (lambda body: text_only_answer())
        self.requests: list[Body] = []
        self.headers: list[dict[str, str]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.base_url = ""
        # When set, every request is held (after being recorded) until the test opens the gate: a
        # "slow judge" whose slowness the test controls, never a race against the clock.
        self.gate: asyncio.Event | None = None
        self._runner: web.AppRunner | None = None

    async def __aenter__(self) -> FakeAnthropicAPI:
        app = web.Application()
        app.router.add_post("/v1/messages", self._handle)
        # Cancel a delayed handler when the client gives up, and do not wait on it at shutdown.
        self._runner = web.AppRunner(app, handler_cancellation=True, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.base_url = f"http://{host}:{port}"
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _handle(self, request: web.Request) -> web.Response:
        body: Body = await request.json()
        self.requests.append(body)
        self.headers.append(dict(request.headers))
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.gate is not None:
                await self.gate.wait()
            reply = self.responder(body)
            # Hold every request briefly so concurrent callers really overlap on the server.
            await asyncio.sleep(max(reply.delay_seconds, 0.02))
            return web.json_response(reply.body, status=reply.status, headers=reply.headers)
        finally:
            self.in_flight -= 1


def user_text(body: Body) -> str:
    """The text of the (single) user message of a recorded request."""
    content = body["messages"][0]["content"]
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content)


def system_text(body: Body) -> str:
    system = body.get("system", "")
    if isinstance(system, str):
        return system
    return "".join(block.get("text", "") for block in system)


def judged_draft(body: Body) -> Body:
    """The message the judge lane marked `"draft": true` inside its data block, decoded."""
    text = user_text(body)
    block = text.split("<conversation_data>\n", 1)[1].split("\n</conversation_data>", 1)[0]
    for line in block.splitlines():
        record: Body = json.loads(line)
        if record.get("draft") is True:
            return record
    raise AssertionError("no draft in the data block")
