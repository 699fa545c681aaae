"""The store's exception tree, in one place. Each message is one line a user can act on."""

from __future__ import annotations

from sqlalchemy.exc import DisconnectionError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from gradecore.errors import SmithError


class StoreError(SmithError):
    """Base of every error the store raises on purpose."""


class DuplicateEmail(StoreError):
    def __init__(self, email: str) -> None:
        super().__init__(f"a user with email {email} already exists")


class UnknownUser(StoreError):
    def __init__(self, who: str) -> None:
        super().__init__(f"no user {who}")


class UnknownProperty(StoreError):
    def __init__(self, property_id: str) -> None:
        super().__init__(f"unknown property {property_id!r}")


class UnknownItem(StoreError):
    def __init__(self, what: str) -> None:
        super().__init__(f"nothing graded as {what}")


class PropertyChanged(StoreError):
    """A known conversation re-sent with another `property.id` (docs/verdicts.md): refused, nothing stored, so
    no edit of its posts can reach another property's channel."""

    def __init__(self, conversation_id: str, stored: str, sent: str) -> None:
        self.conversation_id, self.stored, self.sent = conversation_id, stored, sent
        super().__init__(
            f"conversation {conversation_id!r} belongs to property {stored!r} and was sent with property "
            f"{sent!r}: a conversation's property never changes; nothing was stored"
        )


class AppendOnlyViolation(StoreError):
    """Raised at flush time if anything tries to change or delete an append-only row."""


def database_unavailable(error: BaseException) -> bool:
    """True when `error` says the database cannot be reached or cannot serve now (retrying may help).

    Connection failures, timeouts and lock waits are OperationalErrors on both backends; an integrity,
    data or programming error is a fault in what was sent or in Smith, and retrying it never helps.
    """
    return isinstance(error, (OperationalError, DisconnectionError, PoolTimeout))
