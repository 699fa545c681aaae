"""Turns the exceptions a user can cause into one line on stderr and an exit code."""

from __future__ import annotations

import sys

import typer
from pydantic import ValidationError
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from cerebrus import RulesError
from gradecore.contract import ContractViolation
from gradecore.db import DatabaseError
from gradecore.store import StoreError
from smith.documents import UnreadableInput
from smith.startup import StartupError


class UserError(Exception):
    """A mistake in how smith was called; its message is the whole explanation."""


USER_ERRORS: tuple[type[BaseException], ...] = (
    UserError,
    ContractViolation,
    RulesError,
    DatabaseError,
    StoreError,
    UnreadableInput,
    StartupError,
    ValueError,
)


def register_user_error(kind: type[BaseException]) -> None:
    """Later layers (rules, relay) add their own user-facing errors here."""
    global USER_ERRORS
    if kind not in USER_ERRORS:
        USER_ERRORS = (*USER_ERRORS, kind)


def one_line(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):  # settings from the environment
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return f"invalid setting {where}: {first['msg']}"
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]


def database_failure(exc: SQLAlchemyError) -> str:
    """The failure's kind, never its text: SQLAlchemy's and the driver's messages carry the statement's
    parameters, that is a stored document's names, phone numbers and access codes."""
    kind = type(exc).__name__
    driver = exc.orig if isinstance(exc, DBAPIError) else None
    if driver is not None and type(driver).__name__ != kind:
        kind = f"{kind}: {type(driver).__name__}"
    return f"the database refused the operation ({kind})"


def run_guarded(app: typer.Typer) -> int:
    try:
        app()  # standalone: typer reports usage mistakes itself and exits
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    except KeyboardInterrupt:
        print("smith: interrupted", file=sys.stderr)
        return 130
    except ValidationError as exc:
        print(f"smith: {one_line(exc)}", file=sys.stderr)
        return 2
    except USER_ERRORS as exc:
        print(f"smith: {one_line(exc)}", file=sys.stderr)
        return 1
    except SQLAlchemyError as exc:
        print(f"smith: {database_failure(exc)}", file=sys.stderr)
        return 1
    return 0
