"""Issue 13, point 8: `smith --version`, fixed choices typed as choices with one-line errors, `--json`
on every listing, and tables that never cut ids or reasons. `--version` and the terminal's
progress bar run through the real process, the rest in the test's process."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import get_args

import pytest

from blocks.locales import SUPPORTED_LOCALES
from gradecore.persistence.entities import SlackPost
from smith.cli.properties import Locale
from tests.conftest import DEMO_DATA
from tests.smith.cli.in_process import run_in_process
from tests.smith.cli.runner import reading, run_smith


def test_version(tmp_path: Path) -> None:
    result = run_smith(tmp_path, "--version")
    assert result.code == 0, result.stderr
    assert re.fullmatch(r"smith \d+\.\d+\.\d+\S* · engine cerebrus-\S+", result.stdout.strip())


def test_the_locale_choices_are_the_supported_locales() -> None:
    assert get_args(Locale) == SUPPORTED_LOCALES


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ("properties", "set", "camellia", "--name", "C", "--timezone", "UTC", "--locale", "fr"),
            "smith: invalid value for '--locale': 'fr' is not one of 'en', 'es' "
            "(see `smith properties set --help`)",
        ),
        (
            ("outbox", "--status", "lost"),
            "smith: invalid value for '--status': 'lost' is not one of 'pending', 'posted', 'failed', "
            "'unrouted' (see `smith outbox --help`)",
        ),
        (
            ("agreement", "--by", "mood"),
            "smith: invalid value for '--by': 'mood' is not one of 'grader', 'check', 'property' "
            "(see `smith agreement --help`)",
        ),
        (("users", "list", "--colour"), "smith: no such option: --colour (see `smith users list --help`)"),
    ],
)
def test_a_value_outside_its_choices_is_one_line(workdir: Path, args: tuple[str, ...], expected: str) -> None:
    assert run_in_process(workdir, *args).one_error_line() == expected


def test_a_supported_locale_is_stored(workdir: Path) -> None:
    result = run_in_process(
        workdir, "properties", "set", "camellia", "--name", "C", "--timezone", "UTC", "--locale", "es"
    )
    assert result.code == 0, result.stderr
    with reading(workdir) as unit:
        prop = unit.properties.get("camellia")
        assert prop is not None and prop.locale == "es"


def test_every_listing_speaks_json(workdir: Path) -> None:
    with reading(workdir) as unit:
        unit.users.add("maria@example.test", "María López", "admin")
        unit.properties.set("camellia", name="Camellia", timezone="America/New_York", locale="es")

    users = json.loads(run_in_process(workdir, "users", "list", "--json").stdout)
    assert users == [
        {"email": "maria@example.test", "name": "María López", "role": "admin", "active": True, "slack": []}
    ]
    properties = json.loads(run_in_process(workdir, "properties", "list", "--json").stdout)
    assert properties == [
        {
            "id": "camellia",
            "name": "Camellia",
            "timezone": "America/New_York",
            "locale": "es",
            "channel": None,
        }
    ]
    outbox = json.loads(run_in_process(workdir, "outbox", "--json").stdout)
    assert outbox["posts"] == [] and outbox["counts"]["pending"] == 0
    agreement = json.loads(run_in_process(workdir, "agreement", "--json").stdout)
    assert agreement == [
        {"grader": "all", "acts": 0, "agreeing": None, "kappa": None, "kappa_binary": None, "kappa_n": 0}
    ]
    tally = json.loads(run_in_process(workdir, "tally", "--date", "2026-11-30", "--json").stdout)
    assert tally[0]["property"] == "camellia" and tally[0]["graded"] == 0
    # Every figure of the line, and whose line it is (issue 23).
    assert {key: tally[0][key] for key in ("name", "channel", "graded", "pass", "below", "reacted")} == {
        "name": "Camellia",
        "channel": None,
        "graded": 0,
        "pass": 0,
        "below": 0,
        "reacted": 0,
    }
    assert tally[0]["line"] == "Camellia · lun 30 nov: 0 calificadas — no llegó ninguna conversación"


def test_tables_never_cut_ids_or_reasons(workdir: Path) -> None:
    error = "channel_not_found:" + "".join(f"C{index:04d}" for index in range(60))  # 318 characters
    with reading(workdir) as unit:
        unit.outbox.add(
            SlackPost(
                kind="notice",
                idempotency_key="notice:x",
                channel="C0OPS",
                payload={"text": "x"},
                status="failed",
                last_error=error,
            )
        )
    result = run_in_process(workdir, "outbox")
    assert result.code == 0, result.stderr
    cells = "".join(re.sub(r"[│┃|\s]", "", line) for line in result.stdout.splitlines())
    assert error in cells
    assert "…" not in result.stdout


def _with_a_terminal_for_stderr(workdir: Path, *args: str) -> tuple[int, str, str]:
    """`smith ARGS` with stderr on a pseudo-terminal (where progress bars show) and stdout piped.

    The terminal is read while the command runs: a bar redraws many times a second, and a terminal
    nobody reads fills up and blocks the writer (on a slow machine, before the command is done)."""
    master, slave = os.openpty()
    env = {key: value for key, value in os.environ.items() if not key.startswith(("SMITH_", "SLACK_"))}
    env |= {"SMITH_DATABASE_URL": f"sqlite:///{workdir / 'smith.db'}", "COLUMNS": "120", "TERM": "xterm"}
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal's other end is closed: everything has been read
                return
            if not chunk:
                return
            chunks.append(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        completed = subprocess.run(
            [sys.executable, "-c", "from smith_cli import main; main()", *args],
            cwd=workdir,
            env=env,
            stdout=subprocess.PIPE,
            stderr=slave,
            timeout=300,
            check=False,
        )
    finally:
        os.close(slave)
        reader.join(timeout=60)
        os.close(master)
    return completed.returncode, completed.stdout.decode(), b"".join(chunks).decode("utf-8", "replace")


def test_ingesting_many_documents_shows_a_progress_bar_in_a_terminal(workdir: Path) -> None:
    lines = [json.dumps(json.loads(path.read_text())) for path in sorted(DEMO_DATA.glob("*.json"))]
    many = workdir / "many.jsonl"
    many.write_text("\n".join(lines) + "\n", encoding="utf-8")

    code, out, terminal = _with_a_terminal_for_stderr(workdir, "ingest", str(many))
    assert code == 0, terminal
    assert "Ingesting" in terminal and f"{len(lines)}/{len(lines)}" in terminal
    # stdout keeps one plain line per document, and the batch's one-line summary (issue 25)
    assert len(out.splitlines()) == len(lines) + 1
    assert out.splitlines()[-1] == f"{len(lines)} documents: {len(lines)} new"

    piped = run_in_process(workdir, "ingest", str(many))  # no terminal: no bar at all
    assert "Ingesting" not in piped.stdout + piped.stderr


def test_regrading_shows_a_progress_bar_in_a_terminal(workdir: Path) -> None:
    lines = [json.dumps(json.loads(path.read_text())) for path in sorted(DEMO_DATA.glob("*.json"))]
    many = workdir / "many.jsonl"
    many.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert run_in_process(workdir, "ingest", str(many)).code == 0
    (workdir / "rules.toml").write_text("[thresholds]\ntoken_budget = 59999\n", encoding="utf-8")

    env_rules = {"SMITH_RULES_FILE": str(workdir / "rules.toml")}
    args = ("regrade", "--since", "2026-01-01", "--dry-run")
    code, out, terminal = _with_a_terminal_for_stderr(workdir, *args)
    assert code == 0, terminal
    assert "Regrading stored conversations" in terminal and f"{len(lines)} stored conversations" in out

    piped = run_in_process(workdir, *args, env=env_rules)
    assert piped.code == 0 and "Regrading" not in piped.stdout + piped.stderr
    assert f"would regrade {len(lines)}" in piped.stdout  # a new rubric: every conversation is regraded
