"""What a `smith` process imports: each command loads only what it runs on (docs/operations.md, command
start-up). Pinned by the modules a real process holds when it exits, never by timing; bench/startup.py
measures the time."""

from __future__ import annotations

import gc
import json
import os
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

import pytest

from gradecore.persistence.store import ROLES
from smith.cli import commands, context, users
from smith.cli.errors import run_guarded
from tests.smith.cli.runner import copy_database, database_url

_DEMO_DOCUMENT = Path(__file__).parents[3] / "smith" / "demo_data" / "lampliter-unbacked-promise.json"

# Loaded by no command that only prints what it already knows (help, version).
_HEAVY = (
    "sqlalchemy",
    "sqlmodel",
    "alembic",
    "pydantic_settings",
    "slack_bolt",
    "slack_sdk",
    "aiohttp",
    "anthropic",
    "lingua",
    "cerebrus.engine",
    "gradecore.persistence.entities",
)
# Loaded by no command that only reads the database: migrations, Slack, the judge and the engine.
_NOT_FOR_READING = ("alembic", "slack_bolt", "slack_sdk", "aiohttp", "anthropic", "lingua", "cerebrus.engine")
# Loaded by no listing: it reads a few columns through SQLAlchemy Core (gradecore.persistence.listings).
_ORM = ("sqlalchemy.orm", "sqlmodel", "gradecore.persistence.entities", "gradecore.persistence.store")

# Runs `smith ARGS` as the console script does, then writes the loaded modules and the frozen heap's size.
_PROBE = """
import atexit, gc, json, sys
path = sys.argv[1]
def report():
    with open(path, "w") as out:
        held = {"modules": sorted(sys.modules), "frozen": gc.get_freeze_count(), "collecting": gc.isenabled()}
        json.dump(held, out)
atexit.register(report)
sys.argv = ["smith", *sys.argv[2:]]
from smith_cli import main
main()
"""


@dataclass(frozen=True)
class Exit:
    """What a `smith` process held when it exited."""

    modules: set[str]
    frozen: int  # objects moved out of the collector's reach (gc.freeze)
    collecting: bool  # whether the cyclic collector was on


def _run(workdir: Path, *args: str, env: dict[str, str] | None = None, succeeds: bool = True) -> Exit:
    """What `smith ARGS` held when it exited."""
    foreign = ("SMITH_", "SLACK_", "ANTHROPIC_")  # a developer's shell settings must not change the command
    environment = {key: value for key, value in os.environ.items() if not key.startswith(foreign)}
    environment.update(SMITH_DATABASE_URL=database_url(workdir), **(env or {}))
    report = workdir / "report.json"
    completed = subprocess.run(
        [sys.executable, "-c", _PROBE, str(report), *args],
        cwd=workdir,
        env=environment,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert (completed.returncode == 0) == succeeds, completed.stderr.decode()
    found = json.loads(report.read_text(encoding="utf-8"))
    return Exit(set(found["modules"]), int(found["frozen"]), bool(found["collecting"]))


def _loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return [name for name in names if name in modules]


@pytest.mark.parametrize("args", [("--version",), ("--help",)])
def test_version_and_help_import_nothing_heavy(tmp_path: Path, args: tuple[str, ...]) -> None:
    modules = _run(tmp_path, *args).modules
    assert "typer" in modules  # the probe sees the command's own imports
    # asyncio too: only the commands that run a loop (ingest, demo, joining a channel) import it
    assert _loaded(modules, (*_HEAVY, "pydantic", "asyncio")) == []


@pytest.mark.parametrize("args", [("users", "--help"), ("rules", "try", "--help"), ("ingest", "--help")])
def test_a_commands_help_imports_nothing_heavy(tmp_path: Path, args: tuple[str, ...]) -> None:
    """Typer itself reads a command's parameters with pydantic; nothing else heavy comes with them."""
    modules = _run(tmp_path, *args).modules
    assert "typer" in modules
    assert _loaded(modules, _HEAVY) == []


def test_a_database_listing_reads_through_core_without_the_orm_migrations_slack_or_engine(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    copy_database(migrated_sqlite, tmp_path)
    for args in (("users", "list"), ("outbox",), ("properties", "list")):
        ended = _run(tmp_path, *args)
        assert {"sqlalchemy", "gradecore.persistence.listings"} <= ended.modules, args
        assert _loaded(ended.modules, (*_NOT_FOR_READING, *_ORM)) == [], args
        assert ended.frozen > 0, args  # the start-up heap is frozen once the work begins


def test_a_command_that_writes_opens_the_store(tmp_path: Path, migrated_sqlite: Path) -> None:
    copy_database(migrated_sqlite, tmp_path)
    ended = _run(tmp_path, "outbox", "--retry-failed")
    assert {"sqlmodel", "gradecore.persistence.entities", "gradecore.persistence.store"} <= ended.modules
    assert _loaded(ended.modules, _NOT_FOR_READING) == []
    assert ended.frozen > 0


@pytest.mark.parametrize(
    "args",
    [
        ("users", "list"),
        ("agreement",),
        ("grade", str(_DEMO_DOCUMENT)),
        ("db", "current"),
    ],
)
def test_the_collector_is_on_again_once_a_commands_work_begins(
    tmp_path: Path, migrated_sqlite: Path, args: tuple[str, ...]
) -> None:
    """Off while the modules load, on again (with the start-up heap frozen) once the work begins: a
    command reading or grading a large input must not run without the cyclic collector."""
    copy_database(migrated_sqlite, tmp_path)
    ended = _run(tmp_path, *args)
    assert ended.collecting, args
    assert ended.frozen > 0, args


def test_serve_runs_with_the_collector_on(tmp_path: Path, migrated_sqlite: Path) -> None:
    """The server, the one long-running command, must never run without the cyclic collector. Started on
    a port already taken, it stops after reading its settings and building the app."""
    copy_database(migrated_sqlite, tmp_path)
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = str(holder.getsockname()[1])
        ended = _run(
            tmp_path, "serve", env={"SMITH_PORT": port, "SMITH_POST_MODE": "dry_run"}, succeeds=False
        )
    assert "app" in ended.modules  # it got as far as the server
    assert ended.collecting


def test_a_command_run_inside_another_process_leaves_its_heap_alone(
    tmp_path: Path, migrated_sqlite: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Freezing is for the `smith` process only: a test (or a caller) running a command keeps its GC."""
    copy_database(migrated_sqlite, tmp_path)
    monkeypatch.setenv("SMITH_DATABASE_URL", database_url(tmp_path))
    monkeypatch.setattr(sys, "argv", ["smith", "users", "list"])
    context.settings.cache_clear()
    before = gc.get_freeze_count()
    try:
        assert run_guarded(commands) == 0
    finally:
        context.settings.cache_clear()
    assert gc.get_freeze_count() == before


def test_the_cli_spells_the_roles_as_the_store_does() -> None:
    assert get_args(users.Role) == ROLES
