"""`smith users add|import|list` (and `link`, once listening exists)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from smith.cli.arguments import bounded, email_address
from smith.cli.context import open_database, open_store
from smith.cli.errors import UserError
from smith.cli.output import JsonOption, print_json, print_table, table

# gradecore.persistence.store.people.Role, spelled out: importing the store would load SQLAlchemy for `--help`
# (docs/operations.md, command start-up); a test keeps the two equal.
Role = Literal["staff", "engineer", "admin"]

app = typer.Typer(help="Staff users who may grade.", no_args_is_help=True)


@app.command("add")
def add(
    email: str,
    name: Annotated[str, typer.Option(help="Full name")],
    role: Annotated[Role, typer.Option(help="Who they are to Smith")] = "staff",
) -> None:
    """Add one staff user."""
    from gradecore.persistence.entities import User

    address, full_name = email_address(email), bounded(name, (User, "name"), "--name")
    with open_store().unit() as unit:
        user = unit.users.add(address, full_name, role)
    typer.echo(f"added {user.email} ({user.role})")


@app.command("import")
def import_csv(path: Path) -> None:
    """Import users from a CSV with columns email,name,role (a header row is optional)."""
    from gradecore.persistence.store import DuplicateEmail

    rows = _read_rows(path)
    with open_store().unit() as unit:
        added = 0
        for number, (email, name, role) in rows:
            try:
                unit.users.add(email, name, _role(role, where=f"{path.name} line {number}"))
            except DuplicateEmail as exc:
                raise UserError(f"{path.name} line {number}: {exc}") from None
            added += 1
    typer.echo(f"imported {added} users")


@app.command("list")
def list_users(as_json: JsonOption = False) -> None:
    """List users."""
    from gradecore.persistence import listings

    with open_database().connect() as connection:
        rows: list[dict[str, Any]] = [
            {
                "email": user.email,
                "name": user.name,
                "role": user.role,
                "active": user.active,
                "slack": list(user.slack_user_ids),
            }
            for user in listings.users(connection)
        ]
    if as_json:
        print_json(rows)
        return
    grid = table("email", "name", "role", "active", "slack")
    for row in rows:
        grid.add_row(
            row["email"],
            row["name"],
            row["role"],
            "yes" if row["active"] else "no",
            ", ".join(row["slack"]) or "—",
        )
    print_table(grid)


def _role(role: str, *, where: str = "") -> Role:
    from gradecore.persistence.store import ROLES

    for known in ROLES:
        if role.strip().lower() == known:
            return known
    prefix = f"{where}: " if where else ""
    raise UserError(f"{prefix}role must be one of {', '.join(ROLES)}, not {role!r}")


def _read_rows(path: Path) -> list[tuple[int, tuple[str, str, str]]]:
    from gradecore.persistence.entities import User

    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UserError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read {path}: {exc}") from None
    rows: list[tuple[int, tuple[str, str, str]]] = []
    for number, row in enumerate(csv.reader(text.splitlines()), start=1):
        cells = [cell.strip() for cell in row]
        if not any(cells):
            continue
        if number == 1 and [c.lower() for c in cells[:3]] == ["email", "name", "role"]:
            continue
        if len(cells) != 3 or "@" not in cells[0] or not cells[1]:
            raise UserError(f"{path.name} line {number}: expected email,name,role")
        where = f"{path.name} line {number}"
        email = email_address(cells[0], where=where)
        rows.append((number, (email, bounded(cells[1], (User, "name"), f"{where}: the name"), cells[2])))
    if not rows:
        raise UserError(f"{path.name} has no users")
    return rows
