"""Runs the real `smith serve` as a subprocess from an async test, so a fake Slack served by the test's own
event loop can answer it, and reads its log as it starts."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from tests.smith.cli.runner import database_url

_FOREIGN = ("SMITH_", "SLACK_", "ANTHROPIC_")
SERVING = "smith serving on"
# Generous: starting imports the whole engine, Bolt and the SDKs on a machine shared by many runs.
START_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class Ended:
    code: int
    stderr: str

    @property
    def lines(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if line.strip()]

    def fatal_line(self) -> str:
        """The one `smith: …` line a failed start must end with: no traceback, a non-zero exit."""
        assert "Traceback" not in self.stderr, self.stderr
        assert self.code != 0, self.stderr
        own = [line for line in self.lines if line.startswith("smith: ")]
        assert len(own) == 1, self.lines
        assert self.lines[-1] == own[0], self.lines
        return own[0]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve_environment(workdir: Path, **settings: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(_FOREIGN)}
    env.update(
        SMITH_DATABASE_URL=database_url(workdir),
        SMITH_HOST="127.0.0.1",
        SMITH_PORT=str(free_port()),
        SMITH_LOG_LEVEL="INFO",
        NO_COLOR="1",
    )
    env.update(settings)
    return env


async def _spawn(workdir: Path, env: dict[str, str]) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "from smith_cli import main; main()",
        "serve",
        cwd=workdir,
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )


async def serve_until_it_ends(workdir: Path, env: dict[str, str]) -> Ended:
    """`smith serve` that is expected to stop by itself (a fatal start); killed and failed if it serves."""
    process = await _spawn(workdir, env)
    try:
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=START_TIMEOUT_S)
    except TimeoutError:
        process.kill()
        _, stderr = await process.communicate()
        raise AssertionError(f"smith serve kept running instead of stopping:\n{stderr.decode()}") from None
    assert process.returncode is not None
    return Ended(process.returncode, stderr.decode("utf-8", "replace"))


async def serve_until_serving(
    workdir: Path, env: dict[str, str], while_serving: Callable[[], Awaitable[None]] | None = None
) -> Ended:
    """`smith serve` until it says it is serving (and `while_serving` is done), then SIGTERM: what it
    logged, and how it exited."""
    process = await _spawn(workdir, env)
    assert process.stderr is not None
    seen: list[str] = []

    async def read_until_serving() -> None:
        assert process.stderr is not None
        while line := await process.stderr.readline():
            seen.append(line.decode("utf-8", "replace"))
            if SERVING in seen[-1]:
                return
        raise AssertionError("smith serve ended before serving:\n" + "".join(seen))

    try:
        await asyncio.wait_for(read_until_serving(), timeout=START_TIMEOUT_S)
        if while_serving is not None:
            await while_serving()
    finally:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        rest, _ = await asyncio.wait_for(_drain(process), timeout=START_TIMEOUT_S)
    return Ended(process.returncode if process.returncode is not None else -1, "".join(seen) + rest)


async def _drain(process: asyncio.subprocess.Process) -> tuple[str, int]:
    assert process.stderr is not None
    rest = (await process.stderr.read()).decode("utf-8", "replace")
    return rest, await process.wait()
