"""How listing commands print: a table that never cuts ids or reasons, or JSON with `--json`."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON (one array of objects) instead")]


def table(*columns: str, title: str | None = None) -> Table:
    """Columns wrap (long ids and reasons fold onto the next line) instead of ending in "…"."""
    grid = Table(title=title)
    for column in columns:
        grid.add_column(column, overflow="fold")
    return grid


def print_table(grid: Table) -> None:
    # Wide tables keep the terminal's width; a pipe gets enough width never to cut a cell.
    console = Console()
    if not console.is_terminal:
        console = Console(width=max(console.width, 200))
    console.print(grid)


def print_json(rows: Sequence[Mapping[str, Any]] | Mapping[str, Any]) -> None:
    typer.echo(json.dumps(rows, indent=2, ensure_ascii=False, default=str))
