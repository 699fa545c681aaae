"""Checks on what a person types on the command line, made before anything reaches the database.

Each check raises `UserError` with the whole explanation. Lengths are read from the columns themselves,
so an argument accepted here always fits where it is stored (PostgreSQL refuses an over-long value;
SQLite would silently keep it).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from smith.cli.errors import UserError

if TYPE_CHECKING:
    from sqlmodel import SQLModel

# The entities and validators are imported inside each check: the command modules import this one at
# their top, and `--help` must not pay for SQLAlchemy (docs/operations.md, command start-up).

# Public channels start with C, private channels (and old private groups) with G.
_CHANNEL_ID = re.compile(r"[CG][A-Z0-9]{2,}")
# The languages Smith writes its posts in; a property's staff read one of them.


def column_length(entity: type[SQLModel], field: str) -> int:
    """The declared length of a string column (`Property`, `"id"` → 128)."""
    from sqlalchemy import inspect

    length = getattr(inspect(entity).columns[field].type, "length", None)
    assert isinstance(length, int), f"{entity.__name__}.{field} is not a string column with a length"
    return length


def bounded(value: str, column: tuple[type[SQLModel], str], what: str) -> str:
    """`value`, if it is not empty and fits its column (given as entity and field)."""
    limit = column_length(*column)
    if not value.strip():
        raise UserError(f"{what} must not be empty")
    if len(value) > limit:
        raise UserError(f"{what} is {len(value)} characters long; at most {limit} fit")
    return value


def channel_id(value: str) -> str:
    """A Slack channel id (C… or G…), not a channel name: names change, ids do not. Empty unmaps."""
    from gradecore.persistence.entities import Property

    if not value.strip():
        return ""
    if not _CHANNEL_ID.fullmatch(value):
        hint = " (that looks like a channel name)" if not value[:1].isupper() or "#" in value else ""
        raise UserError(
            f"--channel must be a Slack channel id such as C0123ABCD, not {value!r}{hint}: "
            "open the channel's details in Slack, the id is at the bottom"
        )
    return bounded(value, (Property, "slack_channel_id"), "--channel")


def email_address(value: str, *, where: str = "") -> str:
    """A syntactically valid address (no DNS look-up: the staff's mail domain may be internal)."""
    from email_validator import EmailNotValidError, validate_email

    from gradecore.persistence.entities import User

    prefix = f"{where}: " if where else ""
    try:
        # test_environment: syntax only, no DNS, and the reserved `.test` domain Smith's own examples and
        # anonymized fixtures use (`@example.test`) is accepted; other reserved names are still refused.
        validate_email(value, check_deliverability=False, test_environment=True)
    except EmailNotValidError as exc:
        raise UserError(f"{prefix}{value!r} is not an e-mail address: {exc}") from None
    return bounded(value, (User, "email"), f"{prefix}the e-mail address")
