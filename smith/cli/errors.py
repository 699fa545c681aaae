"""Turns the exceptions a user can cause into one line on stderr and an exit code.

Only the declared user errors (`USER_ERRORS`) are one-line mistakes. Anything else, a `ValueError`
included, is a bug in smith: it is told as one, with its traceback, and exits with EX_SOFTWARE.
"""

from __future__ import annotations

import sys
import traceback

import typer
from pydantic import ValidationError
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from typer._click.exceptions import NoArgsIsHelpError, UsageError

from cerebrus import RulesError
from gradecore.contract import ContractViolation, UnknownTimezone
from gradecore.db import DatabaseError
from gradecore.store import StoreError
from smith.documents import UnreadableInput
from smith.startup import StartupError


class UserError(Exception):
    """A mistake in how smith was called; its message is the whole explanation."""


# The declared user errors: each is raised on purpose, with a message that is the whole explanation.
USER_ERRORS: tuple[type[BaseException], ...] = (
    UserError,
    ContractViolation,
    RulesError,
    DatabaseError,
    StoreError,
    UnreadableInput,
    StartupError,
    UnknownTimezone,
)
# sysexits.h: an internal software error, distinct from a user's mistake (1) and a usage error (2).
EX_SOFTWARE = 70


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
        # Not standalone: a usage mistake (an unknown option, a value outside its choices) comes back
        # here as an exception, to be told in one line rather than in a framed panel.
        outcome = app(standalone_mode=False, prog_name="smith")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    except NoArgsIsHelpError as exc:
        exc.show()  # `smith users` alone: the help of that group, as a standalone run shows it
        return exc.exit_code
    except UsageError as exc:
        print(f"smith: {one_line_usage(exc)}", file=sys.stderr)
        return exc.exit_code
    except typer.Abort:
        print("smith: interrupted", file=sys.stderr)
        return 130
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
    except Exception:
        traceback.print_exc(file=sys.stderr)
        print("smith: internal error: this is a bug in smith, not in how it was called", file=sys.stderr)
        return EX_SOFTWARE
    return outcome if isinstance(outcome, int) else 0  # typer.Exit(n) comes back as n


def one_line_usage(exc: UsageError) -> str:
    """`invalid value for '--role': 'owner' is not one of 'staff', 'engineer', 'admin'` and the command."""
    message = " ".join(exc.format_message().split()).rstrip(".").replace("Value error, ", "")
    command = exc.ctx.command_path if exc.ctx is not None else "smith"
    return f"{message[:1].lower()}{message[1:]} (see `{command} --help`)"
