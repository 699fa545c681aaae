"""Slack's request signature, checked over the raw bytes before anything reads the body.

Bolt parses a request before it verifies it, so an unsigned `[1,2]` or a non-numeric timestamp used to
end in a traceback and a 500. Here nothing is decoded until the signature matches: a malformed request
is answered 400, a forged or stale one 401, each with a reason the caller can log in one line.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

# Slack's own rule: a request signed more than five minutes ago may be a replay.
MAX_AGE_SECONDS = 300
_SIGNATURE_VERSION = "v0"
_TIMESTAMP_DIGITS = 12  # epoch seconds stay under 12 digits for the next 30,000 years


@dataclass(frozen=True)
class Refused:
    """Why a request to the events endpoint is refused, and the HTTP status that says so."""

    status: int
    reason: str


class SlackSignature:
    def __init__(self, signing_secret: str, *, clock: Callable[[], float] = time.time) -> None:
        self._secret = signing_secret.encode()
        self._clock = clock

    def check(self, body: bytes, headers: Mapping[str, str]) -> Refused | None:
        """None when Slack signed exactly these bytes within the last five minutes."""
        stamp = headers.get("X-Slack-Request-Timestamp")
        signature = headers.get("X-Slack-Signature")
        if stamp is None or signature is None:
            return Refused(401, "unsigned request (no X-Slack-Signature or X-Slack-Request-Timestamp)")
        # isdecimal alone accepts other scripts' digits; int() must only ever see ASCII digits.
        if not (stamp.isascii() and stamp.isdecimal() and len(stamp) <= _TIMESTAMP_DIGITS):
            return Refused(400, "X-Slack-Request-Timestamp is not a number of seconds")
        if abs(self._clock() - int(stamp)) > MAX_AGE_SECONDS:
            return Refused(401, "stale request (signed more than five minutes ago, or in the future)")
        if not signature.isascii():
            return Refused(401, "forged request (signature does not match)")
        expected = self._sign(stamp, body)
        if not hmac.compare_digest(expected.encode(), signature.encode()):
            return Refused(401, "forged request (signature does not match)")
        return None

    def _sign(self, stamp: str, body: bytes) -> str:
        base = f"{_SIGNATURE_VERSION}:{stamp}:".encode() + body
        return f"{_SIGNATURE_VERSION}=" + hmac.new(self._secret, base, hashlib.sha256).hexdigest()
