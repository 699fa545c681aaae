"""How listing commands print: a table that never cuts ids or reasons, or JSON with `--json`."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from gradecore.errors import SmithError

if TYPE_CHECKING:
    from rich.table import Table

# rich is imported where a table or a bar is drawn: `--help` and `--version` do without it
# (docs/operations.md, command start-up).


class Interrupted(SmithError):
    """Ctrl-C during a long job: the message says what was done and what a rerun does."""

    exit_code = 130  # as a shell reports a process ended by SIGINT


JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON (one array of objects) instead")]


def table(*columns: str, title: str | None = None) -> Table:
    """Columns wrap (long ids and reasons fold onto the next line) instead of ending in "…"."""
    from rich.table import Table

    grid = Table(title=title)
    for column in columns:
        grid.add_column(column, overflow="fold")
    return grid


def print_table(grid: Table) -> None:
    """A drawn table in a terminal; in a pipe or a file, plain tab-separated lines (a title line, the
    header, one line per row) that `cut`, `sort` and spreadsheets read and nothing ever wraps."""
    from rich.console import Console

    console = Console()
    if console.is_terminal:
        console.print(grid)
        return
    for line in plain_lines(grid):
        typer.echo(line)


def plain_lines(grid: Table) -> list[str]:
    """The table as tab-separated lines; a tab or line break inside a cell becomes a space."""

    def flat(cell: object) -> str:
        return " ".join(str(cell).split())

    lines = [f"# {flat(grid.title)}"] if grid.title else []
    lines.append("\t".join(flat(column.header) for column in grid.columns))
    cells = [list(column.cells) for column in grid.columns]
    for index in range(grid.row_count):
        lines.append("\t".join(flat(column[index]) for column in cells))
    return lines


def print_json(rows: Sequence[Mapping[str, Any]] | Mapping[str, Any]) -> None:
    typer.echo(json.dumps(rows, indent=2, ensure_ascii=False, default=str))


@contextmanager
def progress(
    what: str, total: int | None, *, unit: str = "items", resume: str = "a rerun continues"
) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr while a long job runs (`total` None: a counter with a spinner).

    Shown only in a terminal, and only for more than one item: piped output and logs stay clean.
    Lines the job prints meanwhile appear above the bar. Ctrl-C ends the job with one line: how many
    `unit` were done, and `resume`, what a rerun does (`Interrupted`, exit 130).
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
    done = 0

    def advance() -> None:
        nonlocal done
        done += 1
        bar.advance(task)

    with Progress(*columns, TimeElapsedColumn(), console=console, transient=True, disable=not shown) as bar:
        task = bar.add_task(what, total=total)
        try:
            yield advance
        except KeyboardInterrupt:
            of = "" if total is None else f" of {total}"
            raise Interrupted(f"interrupted after {done}{of} {unit}: {resume}") from None
