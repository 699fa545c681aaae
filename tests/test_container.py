"""Issue 24, point 2: the Dockerfile and compose.yaml, checked by reading them (no image is built on
these machines), and the container's command line — migrations, then `smith serve` — run as the image
would run it, against a local PostgreSQL, with the image's health check asking `/healthz`."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml
from sqlalchemy import Engine

from tests.smith.cli.serving import free_port

ROOT = Path(__file__).resolve().parents[1]
START_TIMEOUT_S = 120.0  # generous: start-up imports the whole engine on a shared machine


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) per Dockerfile instruction, continuation lines joined, comments left out."""
    text = (ROOT / "Dockerfile").read_text()
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n\s*", " ", "\n".join(lines))
    found = []
    for line in joined.splitlines():
        if line.strip():
            keyword, _, rest = line.strip().partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def only(keyword: str) -> str:
    values = [rest for key, rest in instructions() if key == keyword]
    assert len(values) == 1, (keyword, values)
    return values[0]


def image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for key, rest in instructions():
        if key == "ENV":
            env.update(pair.split("=", 1) for pair in shlex.split(rest))
    return env


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "compose.yaml").read_text())
    assert isinstance(loaded, dict)
    return loaded


def test_the_image_is_slim_python_installed_from_the_lock_and_runs_unprivileged() -> None:
    assert only("FROM") == "python:3.11-slim"
    runs = [rest for key, rest in instructions() if key == "RUN"]
    assert any("pip install --require-hashes -r requirements/runtime.txt" in run for run in runs)
    assert any("pip install --no-deps ." in run for run in runs)
    assert not any("requirements/dev.txt" in run or "[dev]" in run for run in runs)
    user = only("USER")
    assert user not in ("root", "0") and int(user) >= 1000
    for key, rest in instructions():
        if key == "COPY":
            *sources, _ = rest.split()
            for source in sources:
                assert (ROOT / source).exists(), f"COPY {source}: no such file in the project"


def test_the_health_check_asks_healthz_and_the_command_migrates_then_serves() -> None:
    assert "/healthz" in only("HEALTHCHECK")
    command = json.loads(only("CMD"))
    assert command[:2] == ["sh", "-c"]
    assert command[2] == "smith db upgrade && exec smith serve"
    env = image_env()
    assert env["SMITH_HOST"] == "0.0.0.0" and only("EXPOSE") == env["SMITH_PORT"]


def test_compose_starts_smith_on_postgresql_once_it_is_healthy() -> None:
    services = compose()["services"]
    assert services["db"]["image"].startswith("postgres:16")
    assert "pg_isready" in " ".join(services["db"]["healthcheck"]["test"])
    smith = services["smith"]
    assert smith["build"] == "."
    assert smith["depends_on"]["db"]["condition"] == "service_healthy"
    assert smith["environment"]["SMITH_DATABASE_URL"].startswith("postgresql+psycopg://smith:")
    assert "@db:5432/smith" in smith["environment"]["SMITH_DATABASE_URL"]
    assert smith["ports"] == ["3000:3000"]


def test_the_build_context_leaves_out_secrets_and_local_environments() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".env", ".venv", ".git", "tests"):
        assert entry in ignored


def _compose_environment() -> dict[str, str]:
    """The smith service's environment with each ${NAME:-default} given its default, as compose does
    when the shell does not set NAME."""
    raw = compose()["services"]["smith"]["environment"]
    return {key: re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", str(value)) for key, value in raw.items()}


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return int(response.status)
    except OSError:
        return 0


@pytest.mark.backends("postgres")
def test_the_containers_command_migrates_and_serves_on_postgresql(
    empty_engine: Engine, tmp_path: Path
) -> None:
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("SMITH_", "SLACK_", "ANTHROPIC_"))
    }
    env.update(image_env())
    env.update(_compose_environment())
    env.update(
        # Outside a container: the test's PostgreSQL schema instead of the `db` service, loopback only.
        SMITH_DATABASE_URL=empty_engine.url.render_as_string(hide_password=False),
        SMITH_HOST="127.0.0.1",
        SMITH_PORT=str(port),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
    )
    command = json.loads(only("CMD"))
    process = subprocess.Popen(command, cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while _get(f"http://127.0.0.1:{port}/healthz") != 200:
            assert process.poll() is None, process.communicate()[1]
            assert time.monotonic() < deadline, "smith serve did not answer /healthz"
            time.sleep(0.5)
        assert _get(f"http://127.0.0.1:{port}/readyz") == 200  # migrated: the schema is current
        health_check = json.loads(only("HEALTHCHECK").split("CMD", 1)[1])
        assert subprocess.run(health_check, env=env, check=False, timeout=60).returncode == 0
    finally:
        process.send_signal(signal.SIGTERM)  # `exec`: the signal reaches smith itself
        _, stderr = process.communicate(timeout=START_TIMEOUT_S)
    assert process.returncode == 0, stderr
    logged = [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]
    assert any("smith serving on" in str(line["message"]) for line in logged), stderr
    assert "Traceback" not in stderr
