"""Ways of delivering posts: live (Slack's Web API), dry-run (rendered locally). `off` posts nothing."""

from smith.transports.base import (
    AmbiguousFailure,
    DeliveryFailure,
    JoinRequired,
    Payload,
    PermanentFailure,
    RateLimited,
    TransientFailure,
    Transport,
)

__all__ = [
    "AmbiguousFailure",
    "DeliveryFailure",
    "JoinRequired",
    "Payload",
    "PermanentFailure",
    "RateLimited",
    "TransientFailure",
    "Transport",
]
