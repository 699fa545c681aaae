"""Issue 24, point 4: every configuration mistake is one line, exit 78 (EX_CONFIG), before anything
starts — in `smith serve` (nothing logged, nothing served) and in each command that uses the setting."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import pytest

from smith.cli.errors import EX_CONFIG
from tests.smith.cli.runner import run_smith
from tests.smith.cli.serving import (
    SERVING,
    START_TIMEOUT_S,
    free_port,
    serve_environment,
    serve_until_it_ends,
)

GITHUB_INCOMPLETE = "smith: SMITH_TRACKER=github needs SMITH_GITHUB_REPO (owner/name) and SMITH_GITHUB_TOKEN"
# Each setting with a fixed set of values, given one outside it, and the line that says so.
FIXED_CHOICES = [
    (
        "SMITH_LOG_LEVEL",
        "verbose",
        "smith: invalid setting SMITH_LOG_LEVEL: Value error, must be one of DEBUG, INFO, WARNING, "
        "ERROR, CRITICAL",
    ),
    (
        "SMITH_LOG_FORMAT",
        "xml",
        "smith: invalid setting SMITH_LOG_FORMAT: Input should be 'text' or 'json'",
    ),
    (
        "SMITH_POST_MODE",
        "loud",
        "smith: invalid setting SMITH_POST_MODE: Input should be 'live', 'dry_run' or 'off'",
    ),
    (
        "SMITH_TRACKER",
        "jira",
        "smith: invalid setting SMITH_TRACKER: Input should be 'markdown', 'github' or 'off'",
    ),
]


def test_sweep_with_an_incomplete_github_tracker_is_one_line(workdir: Path) -> None:
    result = run_smith(workdir, "sweep", env={"SMITH_TRACKER": "github", "SMITH_GITHUB_TOKEN": "ghp-secret"})
    assert result.one_error_line() == GITHUB_INCOMPLETE
    assert result.code == EX_CONFIG
    assert "ghp-secret" not in result.stderr


async def test_serve_with_an_incomplete_github_tracker_stops_before_serving(workdir: Path) -> None:
    env = serve_environment(workdir, SMITH_POST_MODE="dry_run", SMITH_TRACKER="github")
    ended = await serve_until_it_ends(workdir, env)
    assert ended.fatal_line() == GITHUB_INCOMPLETE
    assert ended.code == EX_CONFIG
    assert SERVING not in ended.stderr and " settings: " not in ended.stderr  # nothing started


@pytest.mark.parametrize(("name", "value", "line"), FIXED_CHOICES, ids=[c[0] for c in FIXED_CHOICES])
def test_a_value_outside_a_settings_choices_is_one_line(
    workdir: Path, name: str, value: str, line: str
) -> None:
    result = run_smith(workdir, "outbox", env={name: value})
    assert result.one_error_line() == line
    assert result.code == EX_CONFIG


async def test_serve_with_an_unknown_log_level_stops_before_serving(workdir: Path) -> None:
    env = serve_environment(workdir, SMITH_POST_MODE="dry_run", SMITH_LOG_LEVEL="verbose")
    ended = await serve_until_it_ends(workdir, env)
    assert ended.fatal_line() == FIXED_CHOICES[0][2]
    assert ended.code == EX_CONFIG


def test_log_level_and_format_accept_any_case(workdir: Path) -> None:
    result = run_smith(workdir, "outbox", env={"SMITH_LOG_LEVEL": "debug", "SMITH_LOG_FORMAT": "JSON"})
    assert result.code == 0, result.stderr


async def test_serve_host_and_port_options_override_the_settings(workdir: Path) -> None:
    port = free_port()
    env = serve_environment(workdir, SMITH_POST_MODE="dry_run", SMITH_HOST="192.0.2.1", SMITH_PORT="1")
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "from smith_cli import main; main()",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        cwd=workdir,
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    seen = []
    try:
        async with asyncio.timeout(START_TIMEOUT_S):
            while line := (await process.stderr.readline()).decode():
                seen.append(line)
                if SERVING in line:
                    break
    finally:
        process.send_signal(signal.SIGTERM)
        await process.wait()
    assert any(f"{SERVING} http://127.0.0.1:{port} " in line for line in seen), seen
