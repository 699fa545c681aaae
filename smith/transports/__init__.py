"""Ways of delivering posts: live (Slack's Web API), dry-run (rendered locally). `off` posts nothing."""

from smith.transports.base import (
    AmbiguousFailure,
    DeliveryFailure,
    Payload,
    PermanentFailure,
    RateLimited,
    TransientFailure,
    Transport,
)

__all__ = [
    "AmbiguousFailure",
    "DeliveryFailure",
    "Payload",
    "PermanentFailure",
    "RateLimited",
    "TransientFailure",
    "Transport",
]
