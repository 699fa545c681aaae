"""A Slack post's delivery states, in a module of their own: the outbox's repository and the CLI's
Core-only listings (which must not load the ORM) both read them from here."""

from __future__ import annotations

from typing import Final

PENDING: Final = "pending"  # waiting for the relay
POSTED: Final = "posted"  # Slack answered with a ts
FAILED: Final = "failed"  # given up on after its attempts; `smith outbox --retry-failed` re-queues it
UNROUTED: Final = "unrouted"  # its property has no channel yet; routed when one is set
STATUSES: Final = (PENDING, POSTED, FAILED, UNROUTED)
# Slack's answers that mean "this channel is wrong", not "this post is wrong" (docs/verdicts.md): a post that
# failed with one goes to its property's channel as it is when re-queued.
CHANNEL_FAILURES: Final = ("channel_not_found", "not_in_channel", "is_archived")
