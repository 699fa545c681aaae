"""The outbox: what grading queues for Slack, and the relay that delivers it."""

from smith.outbox.relay import Relay, RelayConfig, RelayStats

__all__ = ["Relay", "RelayConfig", "RelayStats"]
