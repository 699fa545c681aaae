"""What the relay needs from a way of delivering posts, and the failures it must tell apart.

The relay owns retries, so a transport reports each failure as exactly one of these kinds and never
retries a post on its own.
"""

from __future__ import annotations

from typing import Any, Protocol

from gradecore.errors import SmithError

Payload = dict[str, Any]  # {"text": …, "blocks": […], "metadata": {"event_type": …, "event_payload": {…}}}


class DeliveryFailure(SmithError):
    """Base of the failures a transport reports."""


class RateLimited(DeliveryFailure):
    def __init__(self, retry_after: float) -> None:
        super().__init__(f"rate limited; retry after {retry_after:g}s")
        self.retry_after = retry_after


class PermanentFailure(DeliveryFailure):
    """Slack refused the post for a reason retrying cannot fix (channel_not_found, invalid_blocks, …)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class JoinRequired(PermanentFailure):
    """The bot is not in the channel (`not_in_channel`): join it and send again; where joining is
    refused (a private channel), an admin must invite the bot."""

    def __init__(self) -> None:
        super().__init__("not_in_channel")


class TransientFailure(DeliveryFailure):
    """The post certainly did not reach Slack; send it again later."""


class AmbiguousFailure(DeliveryFailure):
    """The post may have reached Slack (timeout, dropped connection, 5xx): look it up before resending."""


class Transport(Protocol):
    name: str

    async def post(self, channel: str, payload: Payload, *, thread_ts: str | None) -> str:
        """Send a new message; returns its ts."""
        ...

    async def update(self, channel: str, ts: str, payload: Payload) -> None:
        """Edit a message in place (idempotent: the same payload twice leaves the same message)."""
        ...

    async def post_ephemeral(
        self, channel: str, user: str, payload: Payload, *, thread_ts: str | None
    ) -> None:
        """Show a message to one person only (it never appears in history, so it cannot be looked up)."""
        ...

    async def find_posted(self, channel: str, idempotency_key: str, *, thread_ts: str | None) -> str | None:
        """The ts of a message already carrying this idempotency key in its metadata, if any."""
        ...

    async def join(self, channel: str) -> bool:
        """Join a channel; False when Slack refuses for good (a private channel, a missing scope).

        A failure that may pass (Slack unwell, rate limited) is raised, so the post is tried later."""
        ...
