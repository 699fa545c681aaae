"""The dry-run transport: shows each post as staff would see it and keeps its JSON payload.

Nothing leaves the machine. It is the default without a bot token, and what `smith demo` uses.
"""

from __future__ import annotations

import itertools
import json
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from smith.transports.base import Payload
from smith.transports.render import render_payload

Printer = Callable[[str], None]
# The relay asks for a key only shortly after an ambiguous send, so recent keys are all that is
# needed; remembering every key for ever grows without bound in a long-running `smith serve`.
RECENT_KEYS = 10_000


class DryRunTransport:
    name = "dry_run"

    def __init__(
        self, printer: Printer, *, payload_dir: Path | None = None, recent_keys: int = RECENT_KEYS
    ) -> None:
        self._print = printer
        self._payload_dir = payload_dir
        self._counter = itertools.count(1)
        self._base = int(time.time())
        self._recent_keys = recent_keys
        self._sent: OrderedDict[str, str] = OrderedDict()  # idempotency key → ts, oldest first

    async def post(self, channel: str, payload: Payload, *, thread_ts: str | None) -> str:
        ts = f"{self._base}.{next(self._counter):06d}"
        where = f"#{channel}" + (" · thread reply" if thread_ts else "")
        self._print(f"┌─ {where}")
        for line in render_payload(payload, indent="│ "):
            self._print(line)
        self._print("└─")
        self._remember(ts, payload)
        return ts

    async def update(self, channel: str, ts: str, payload: Payload) -> None:
        self._print(f"┌─ #{channel} · edited in place")
        for line in render_payload(payload, indent="│ "):
            self._print(line)
        self._print("└─")
        self._remember(ts, payload, suffix="-edit")

    async def post_ephemeral(
        self, channel: str, user: str, payload: Payload, *, thread_ts: str | None
    ) -> None:
        self._print(f"┌─ #{channel} · only visible to {user}")
        for line in render_payload(payload, indent="│ "):
            self._print(line)
        self._print("└─")

    async def find_posted(self, channel: str, idempotency_key: str, *, thread_ts: str | None) -> str | None:
        return self._sent.get(idempotency_key)

    async def join(self, channel: str) -> bool:
        return True

    def _remember(self, ts: str, payload: Payload, suffix: str = "") -> None:
        key = str(((payload.get("metadata") or {}).get("event_payload") or {}).get("idempotency_key", ts))
        self._sent[key] = ts
        self._sent.move_to_end(key)
        while len(self._sent) > self._recent_keys:
            self._sent.popitem(last=False)
        if self._payload_dir is not None:
            self._payload_dir.mkdir(parents=True, exist_ok=True)
            safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in key)
            path = self._payload_dir / f"{safe}{suffix}.json"
            path.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
