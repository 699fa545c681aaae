"""Runs the real `smith` command line in a subprocess, the way a user would, against a SQLite file."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from gradecore.persistence.db import create_db_engine
from gradecore.persistence.store import Store, Unit

# Settings a developer's shell may carry that would change what the command does (or reach Slack).
_FOREIGN = ("SMITH_", "SLACK_", "ANTHROPIC_")


@dataclass(frozen=True)
class Result:
    code: int
    stdout: str
    stderr: str

    @property
    def error_lines(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if line.strip()]

    def one_error_line(self) -> str:
        """The single stderr line a user mistake must produce (and never a traceback)."""
        assert "Traceback" not in self.stderr + self.stdout, self.stderr
        assert self.code != 0, (self.stdout, self.stderr)
        assert len(self.error_lines) == 1, self.error_lines
        line = self.error_lines[0]
        assert line.startswith("smith: "), line
        return line


def database_url(workdir: Path) -> str:
    return f"sqlite:///{workdir / 'smith.db'}"


def run_smith(
    workdir: Path,
    *args: str,
    stdin: bytes | None = None,
    database: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Result:
    """`smith ARGS` in `workdir`, on the SQLite file there unless `database` names another URL; `env`
    adds settings (the shell's own SMITH_/SLACK_/ANTHROPIC_ variables are never passed on)."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith(_FOREIGN)}
    environment.update(SMITH_DATABASE_URL=database or database_url(workdir), NO_COLOR="1", COLUMNS="200")
    environment.update(env or {})
    completed = subprocess.run(
        [sys.executable, "-c", "from smith_cli import main; main()", *args],
        cwd=workdir,
        env=environment,
        input=stdin,
        capture_output=True,
        timeout=120,
        check=False,
    )
    return Result(
        completed.returncode,
        completed.stdout.decode("utf-8", "replace"),
        completed.stderr.decode("utf-8", "replace"),
    )


def copy_database(template: Path, workdir: Path) -> None:
    shutil.copyfile(template, workdir / "smith.db")


@contextmanager
def reading(workdir: Path) -> Iterator[Unit]:
    """A unit of work on the database the command wrote, to check what it stored."""
    store = Store(create_db_engine(database_url(workdir)))
    try:
        with store.unit() as unit:
            yield unit
    finally:
        store.engine.dispose()
