"""Runs the real `smith` command tree inside the test's process: the same parsing, commands and error
handling as the console script (`run_guarded`), without paying a Python start-up per call. Tests of what
a process does at its edges (start-up imports, signals, the exit of `main()`) use `runner.run_smith`."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Mapping
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from smith.cli import commands, run_guarded
from smith.cli.context import rules, settings
from tests.smith.cli.runner import Result, database_url

_FOREIGN = ("SMITH_", "SLACK_", "ANTHROPIC_")


def run_in_process(
    workdir: Path,
    *args: str,
    database: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Result:
    """`smith ARGS` in `workdir`, on its SQLite file unless `database` names another URL; `env` adds
    settings, and the shell's own SMITH_/SLACK_/ANTHROPIC_ variables are hidden from the command."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        for key in [key for key in os.environ if key.startswith(_FOREIGN)]:
            patch.delenv(key)
        patch.setenv("SMITH_DATABASE_URL", database or database_url(workdir))
        patch.setenv("NO_COLOR", "1")
        patch.setenv("COLUMNS", "200")
        for key, value in (env or {}).items():
            patch.setenv(key, value)
        patch.chdir(workdir)
        patch.setattr(sys, "argv", ["smith", *args])
        # Settings and rules are read once per process; each call here is a process of its own.
        settings.cache_clear()
        rules.cache_clear()
        try:
            with redirect_stdout(out), redirect_stderr(err):
                code = run_guarded(commands)
        finally:
            settings.cache_clear()
            rules.cache_clear()
    return Result(code, out.getvalue(), err.getvalue())
