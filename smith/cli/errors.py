"""Turns the exceptions a user can cause into one line on stderr and an exit code.

Only the declared user errors (`USER_ERRORS`) are one-line mistakes. Anything else, a `ValueError`
included, is a bug in smith: it is told as one, with its traceback, and exits with EX_SOFTWARE.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer
from typer._click.exceptions import NoArgsIsHelpError, UsageError

if TYPE_CHECKING:
    from sqlalchemy.exc import SQLAlchemyError

# The errors below are named, not imported: importing their modules would load SQLAlchemy, pydantic and
# the engine for every command, `smith --help` included (docs/operations.md, command start-up). An
# exception can only be an instance of a class whose module is loaded, so an unloaded one is no match.
_VALIDATION_ERROR = ("pydantic_core", "ValidationError")
_DATABASE_ERROR = ("sqlalchemy.exc", "SQLAlchemyError")
_INTERRUPTED = ("smith.cli.output", "Interrupted")


class UserError(Exception):
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


# The declared user errors: each is raised on purpose, with a message that is the whole explanation.
USER_ERRORS: tuple[type[BaseException] | tuple[str, str], ...] = (
    UserError,
    ("gradecore.contract", "ContractViolation"),
    ("cerebrus.rules", "RulesError"),
    ("gradecore.db", "DatabaseError"),
    ("gradecore.store.errors", "StoreError"),
    ("smith.documents", "UnreadableInput"),
    ("smith.startup", "StartupError"),
    ("smith.settings", "EnvFileMissing"),
    ("gradecore.contract", "UnknownTimezone"),
)
_CONFIGURATION_ERROR = ("smith.settings", "ConfigurationError")
# sysexits.h: an internal software error, distinct from a user's mistake (1) and a usage error (2).
EX_SOFTWARE = 70
# sysexits.h: a mistake in the configuration (a setting's value, or settings that do not fit together).
EX_CONFIG = 78


def is_kind(exc: BaseException, kind: type[BaseException] | tuple[str, str]) -> bool:
    """`isinstance`, with a class given as (module, name) looked up only if its module is loaded."""
    if isinstance(kind, tuple):
        module = sys.modules.get(kind[0])
        found = getattr(module, kind[1], None) if module is not None else None
        return isinstance(found, type) and isinstance(exc, found)
    return isinstance(exc, kind)


def one_line(exc: BaseException) -> str:
    if is_kind(exc, _VALIDATION_ERROR):  # settings from the environment
        from pydantic import ValidationError

        assert isinstance(exc, ValidationError)
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
    except Exception as exc:
        if is_kind(exc, _INTERRUPTED):  # a long job's Ctrl-C: what was done, and what a rerun does
            print(f"smith: {exc}", file=sys.stderr)
            return 130
        told = _tell(exc)
        if told is None:
            traceback.print_exc(file=sys.stderr)
            print("smith: internal error: this is a bug in smith, not in how it was called", file=sys.stderr)
            return EX_SOFTWARE
        if isinstance(exc, UserError):
            tell(exc)
        else:
            print(f"smith: {told[0]}", file=sys.stderr)
        return told[1]
    return outcome if isinstance(outcome, int) else 0  # typer.Exit(n) comes back as n


def _tell(exc: Exception) -> tuple[str, int] | None:
    """The line and exit code for an exception a user can cause; None for any other."""
    if is_kind(exc, _VALIDATION_ERROR) or is_kind(exc, _CONFIGURATION_ERROR):
        return one_line(exc), EX_CONFIG
    if any(is_kind(exc, kind) for kind in USER_ERRORS):
        return one_line(exc), 1
    if is_kind(exc, _DATABASE_ERROR):
        from sqlalchemy.exc import SQLAlchemyError

        assert isinstance(exc, SQLAlchemyError)
        return database_failure(exc), 1
    return None


def one_line_usage(exc: UsageError) -> str:
    """`invalid value for '--role': 'owner' is not one of 'staff', 'engineer', 'admin'` and the command."""
    message = " ".join(exc.format_message().split()).rstrip(".").replace("Value error, ", "")
    command = exc.ctx.command_path if exc.ctx is not None else "smith"
    return f"{message[:1].lower()}{message[1:]} (see `{command} --help`)"
