"""How listing commands print: a table that never cuts ids or reasons, or JSON with `--json`."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rich.table import Table

# rich is imported where a table or a bar is drawn: `--help` and `--version` do without it
# (docs/operations.md, command start-up).

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON (one array of objects) instead")]


def table(*columns: str, title: str | None = None) -> Table:
    """Columns wrap (long ids and reasons fold onto the next line) instead of ending in "…"."""
    from rich.table import Table

    grid = Table(title=title)
    for column in columns:
        grid.add_column(column, overflow="fold")
    return grid


def print_table(grid: Table) -> None:
    from rich.console import Console

    # Wide tables keep the terminal's width; a pipe gets enough width never to cut a cell.
    console = Console()
    if not console.is_terminal:
        console = Console(width=max(console.width, 200))
    console.print(grid)


def print_json(rows: Sequence[Mapping[str, Any]] | Mapping[str, Any]) -> None:
    typer.echo(json.dumps(rows, indent=2, ensure_ascii=False, default=str))


@contextmanager
def progress(what: str, total: int | None) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr while a long job runs (`total` None: a counter with a spinner).

    Shown only in a terminal, and only for more than one item: piped output and logs stay clean.
    Lines the job prints meanwhile appear above the bar.
    """
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    console = Console(stderr=True)
    shown = console.is_terminal and (total is None or total > 1)
    columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn()]
    with Progress(*columns, TimeElapsedColumn(), console=console, transient=True, disable=not shown) as bar:
        task = bar.add_task(what, total=total)
        yield lambda: bar.advance(task)
