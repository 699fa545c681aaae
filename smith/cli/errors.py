"""Turns the exceptions a user can cause into one line on stderr and an exit code.

Every error Smith raises on purpose is a `SmithError` (gradecore/errors.py draws the tree), told in one
line with the exit code it carries. Two kinds come from libraries: pydantic's `ValidationError` (a
setting's value, exit 78) and SQLAlchemy's errors (told by kind, never by text). Anything else, a
`ValueError` included, is a bug in smith: it is told as one, with its traceback, and exits with
EX_SOFTWARE.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer
from typer._click.exceptions import NoArgsIsHelpError, UsageError

from gradecore.errors import EX_CONFIG, SmithError

if TYPE_CHECKING:
    from sqlalchemy.exc import SQLAlchemyError

__all__ = ["EX_CONFIG", "EX_SOFTWARE", "UserError", "one_line", "run_guarded", "tell", "violation_error"]

# sysexits.h: an internal software error, distinct from a user's mistake (1) and a usage error (2).
EX_SOFTWARE = 70


class UserError(SmithError):
    """A mistake in how smith was called; its message is the whole explanation, and `details` (each
    printed on a line of its own, indented) list what it is made of, such as every contract error."""

    def __init__(self, message: str, details: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.details = list(details)


# Contract errors listed by default; `--all` lists every one.
SHOWN_VIOLATIONS = 10
ShowAll = Annotated[
    bool,
    typer.Option(
        "--all", help=f"List every contract error of a rejected document (default: {SHOWN_VIOLATIONS})"
    ),
]


def violation_lines(violation: BaseException, *, show_all: bool) -> list[str]:
    """Each error of a contract violation as `path: message`, the first ten unless `show_all`."""
    errors: list[tuple[str, str]] = list(getattr(violation, "errors", None) or [("$", str(violation))])
    shown = errors if show_all else errors[:SHOWN_VIOLATIONS]
    lines = [f"{path}: {message}" for path, message in shown]
    if len(shown) < len(errors):
        lines.append(f"… and {len(errors) - len(shown)} more: add --all to list every one")
    return lines


def tell(error: UserError) -> None:
    """A user error told without ending the command (one rejected document of a batch)."""
    print(f"smith: {error}", file=sys.stderr)
    for detail in error.details:
        print(f"  {detail}", file=sys.stderr)


def violation_error(where: str, violation: BaseException, *, show_all: bool) -> UserError:
    """One error: one line, as before. Several: how many, then each on its own line."""
    lines = violation_lines(violation, show_all=show_all)
    if len(lines) == 1:
        return UserError(f"{where}: {lines[0]}")
    count = len(getattr(violation, "errors", lines))
    return UserError(f"{where}: {count} contract errors", lines)


def one_line(exc: BaseException) -> str:
    # Imported on the way out, once something failed: `--help` never loads pydantic.
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):  # settings from the environment
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return f"invalid setting {where}: {first['msg']}"
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]


def database_failure(exc: SQLAlchemyError) -> str:
    """The failure's kind, never its text: SQLAlchemy's and the driver's messages carry the statement's
    parameters, that is a stored document's names, phone numbers and access codes."""
    from sqlalchemy.exc import DBAPIError

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
    except SmithError as exc:
        if isinstance(exc, UserError):
            tell(exc)
        else:
            print(f"smith: {one_line(exc)}", file=sys.stderr)
        return exc.exit_code
    except Exception as exc:
        told = _library_error(exc)
        if told is None:
            traceback.print_exc(file=sys.stderr)
            print("smith: internal error: this is a bug in smith, not in how it was called", file=sys.stderr)
            return EX_SOFTWARE
        print(f"smith: {told[0]}", file=sys.stderr)
        return told[1]
    return outcome if isinstance(outcome, int) else 0  # typer.Exit(n) comes back as n


def _library_error(exc: Exception) -> tuple[str, int] | None:
    """The line and exit code for a library's error a user can cause; None for any other. Imported on
    the way out: a command that never loaded pydantic or SQLAlchemy cannot have raised their errors."""
    from pydantic import ValidationError
    from sqlalchemy.exc import SQLAlchemyError

    if isinstance(exc, ValidationError):
        return one_line(exc), EX_CONFIG
    if isinstance(exc, SQLAlchemyError):
        return database_failure(exc), 1
    return None


def one_line_usage(exc: UsageError) -> str:
    """`invalid value for '--role': 'owner' is not one of 'staff', 'engineer', 'admin'` and the command."""
    message = " ".join(exc.format_message().split()).rstrip(".").replace("Value error, ", "")
    command = exc.ctx.command_path if exc.ctx is not None else "smith"
    return f"{message[:1].lower()}{message[1:]} (see `{command} --help`)"
