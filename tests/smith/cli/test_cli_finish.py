"""Issue 25, point 4: a command line that feels finished — one `--since` syntax, several files and
directories, every contract error listed, an https:// manifest URL, SMITH_ENV_FILE, examples in help,
and shell completion. Run in process (`in_process.run_in_process`) except where a real process matters."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import typer.main

from smith.cli import commands
from smith.cli.errors import UserError
from smith.cli.examples import EXAMPLES
from smith.cli.windows import since_start
from tests.conftest import DEMO_DATA
from tests.gradecore.docs import demo_doc
from tests.smith.cli.in_process import run_in_process
from tests.smith.cli.runner import reading, run_smith

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


def _write(folder: Path, name: str, content: Any) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


# --- one window syntax --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("since", "expected"),
    [
        (None, datetime(2026, 11, 6, 12, 0, tzinfo=UTC)),
        ("30d", datetime(2026, 11, 6, 12, 0, tzinfo=UTC)),
        ("7D", datetime(2026, 11, 29, 12, 0, tzinfo=UTC)),
        ("2026-11-01", datetime(2026, 11, 1, tzinfo=UTC)),
    ],
)
def test_since_is_days_or_a_date(since: str | None, expected: datetime) -> None:
    assert since_start(since, NOW) == expected


@pytest.mark.parametrize(
    ("since", "message"),
    [
        ("last week", "--since must be a number of days like 30d or a date like 2026-11-01, not 'last week'"),
        ("30", "--since must be a number of days like 30d or a date like 2026-11-01, not '30'"),
        ("2027-01-01", "--since 2027-01-01 is in the future"),
    ],
)
def test_since_refuses_what_it_cannot_read(since: str, message: str) -> None:
    with pytest.raises(UserError, match="^" + message.replace("(", r"\(").replace(")", r"\)") + "$"):
        since_start(since, NOW)


@pytest.mark.parametrize(
    "command",
    [
        ("agreement",),
        ("rules", "disagreements"),
        ("rules", "suggest"),
        ("regrade", "--dry-run"),
        ("tickets",),
    ],
)
def test_every_windowed_command_reads_the_same_since(workdir: Path, command: tuple[str, ...]) -> None:
    for since in ("30d", "2026-11-01"):
        result = run_in_process(workdir, *command, "--since", since)
        assert result.code == 0, (since, result.stderr)
    refused = run_in_process(workdir, *command, "--since", "yesterday")
    assert refused.one_error_line() == (
        "smith: --since must be a number of days like 30d or a date like 2026-11-01, not 'yesterday'"
    )


def test_tally_since_prints_each_day_until_yesterday(workdir: Path) -> None:
    assert run_in_process(workdir, "ingest", str(DEMO_DATA / "lampliter-unbacked-promise.json")).code == 0
    result = run_in_process(workdir, "tally", "--since", "3d", "--property", "lampliter", "--json")
    assert result.code == 0, result.stderr
    days = [row["date"] for row in json.loads(result.stdout)]
    assert len(days) in (3, 4)  # three days back from now, in the property's time zone, up to yesterday
    assert days == sorted(days) and len(set(days)) == len(days)
    both = run_in_process(workdir, "tally", "--since", "3d", "--date", "2026-11-30")
    assert both.one_error_line() == "smith: --date and --since choose the days in two ways: give one of them"


# --- several files and directories --------------------------------------------------------------------


def test_ingest_takes_files_and_directories(workdir: Path) -> None:
    folder = workdir / "exports"
    shutil.copy(DEMO_DATA / "camellia-double-send.json", _write(folder, "nested/a.json", "{}"))
    shutil.copy(DEMO_DATA / "oakridge-clean-maintenance.json", folder / "b.json")
    _write(folder, "notes.txt", "not a document")
    result = run_in_process(
        workdir, "ingest", str(folder), str(DEMO_DATA / "lampliter-unbacked-promise.json")
    )
    assert result.code == 0, result.stderr
    assert len(result.stdout.splitlines()) == 3 + 1  # a line per document, and the summary
    assert result.stdout.splitlines()[-1] == "3 documents: 3 new"
    with reading(workdir) as unit:
        assert {p.id for p in unit.properties.list()} == {"camellia", "oakridge", "lampliter"}


def test_a_directory_without_documents_is_one_line(workdir: Path) -> None:
    (workdir / "empty").mkdir()
    line = run_in_process(workdir, "ingest", str(workdir / "empty")).one_error_line()
    assert line == f"smith: {workdir / 'empty'} holds no .json or .jsonl file"


def test_grade_json_on_several_documents_is_json_lines(workdir: Path) -> None:
    result = run_in_process(
        workdir,
        "grade",
        str(DEMO_DATA / "camellia-double-send.json"),
        str(DEMO_DATA / "oakridge-clean-maintenance.json"),
        "--json",
    )
    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert [json.loads(line)["conversation_id"] for line in lines] == [
        demo_doc("camellia-double-send.json")["conversation_id"],
        demo_doc("oakridge-clean-maintenance.json")["conversation_id"],
    ]


# --- every contract error -----------------------------------------------------------------------------


def _fourteen_errors() -> dict[str, Any]:
    doc = demo_doc()
    for number in range(14):
        bad = dict(doc["messages"][0], id=f"x{number}", direction="sideways")
        doc["messages"].append(bad)
    return doc


def test_contract_errors_are_listed_the_first_ten_or_all(workdir: Path) -> None:
    path = _write(workdir, "many.json", _fourteen_errors())
    capped = run_in_process(workdir, "ingest", str(path))
    assert capped.code == 1
    lines = capped.error_lines
    assert lines[0] == "smith: many.json: 14 contract errors"
    assert lines[1].startswith("  messages.3.direction: ")
    assert len(lines) == 1 + 10 + 1
    assert lines[-1] == "  … and 4 more: add --all to list every one"
    every = run_in_process(workdir, "grade", str(path), "--all")
    assert every.error_lines[0] == "smith: many.json: 14 contract errors"
    assert len(every.error_lines) == 1 + 14
    assert "more" not in every.stderr


def test_a_batch_lists_each_rejected_documents_errors(workdir: Path) -> None:
    batch = _write(
        workdir, "batch.jsonl", json.dumps(_fourteen_errors()) + "\n" + json.dumps(demo_doc()) + "\n"
    )
    result = run_in_process(workdir, "ingest", str(batch), "--all")
    assert result.code == 1
    assert result.error_lines[0] == "smith: batch.jsonl line 1: 14 contract errors"
    assert len([line for line in result.error_lines if line.startswith("  messages.")]) == 14
    assert result.error_lines[-1] == "smith: 1 document(s) rejected; nothing was stored for them"


# --- manifest, settings file, unmigrated database -----------------------------------------------------


@pytest.mark.parametrize("url", ["http://smith.example.com", "smith.example.com", "https://"])
def test_manifest_url_must_be_https(workdir: Path, url: str) -> None:
    line = run_in_process(workdir, "manifest", "--url", url).one_error_line()
    assert line == f"smith: --url must be an https:// URL such as https://smith.example.com, not {url!r}"


def test_manifest_https_url_is_used(workdir: Path) -> None:
    result = run_in_process(workdir, "manifest", "--url", "https://smith.example.com")
    assert result.code == 0, result.stderr
    assert "https://smith.example.com/slack/events" in result.stdout


def test_env_file_named_by_smith_env_file(workdir: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    elsewhere = tmp_path_factory.mktemp("etc") / "smith.env"
    elsewhere.write_text("SMITH_TRIAGE_CHANNEL=C0FROMFILE\n", encoding="utf-8")
    result = run_in_process(workdir, "digest", "--post", env={"SMITH_ENV_FILE": str(elsewhere)})
    assert result.code == 0, result.stderr
    assert "queued for C0FROMFILE" in result.stdout
    missing = run_in_process(workdir, "digest", env={"SMITH_ENV_FILE": str(workdir / "nope.env")})
    assert (
        missing.one_error_line() == f"smith: SMITH_ENV_FILE names {workdir / 'nope.env'}, which is not a file"
    )


def test_env_file_in_the_working_directory(workdir: Path) -> None:
    _write(workdir, ".env", "SMITH_TRIAGE_CHANNEL=C0FROMCWD\n")
    result = run_in_process(workdir, "digest", "--post")
    assert "queued for C0FROMCWD" in result.stdout, result.stderr


def test_an_unmigrated_database_is_named_with_its_password_masked(tmp_path: Path) -> None:
    line = run_in_process(tmp_path, "users", "list").one_error_line()
    assert line.startswith(f"smith: the database sqlite:///{tmp_path / 'smith.db'} is empty, not at ")
    line = run_in_process(
        tmp_path, "users", "list", database="postgres://smith:s3cret@127.0.0.1:1/nowhere?connect_timeout=1"
    ).one_error_line()
    assert "s3cret" not in line


# --- help, version and completion ---------------------------------------------------------------------


def _leaves(command: Any, path: str = "") -> list[tuple[str, Any]]:
    children = getattr(command, "commands", None)
    if not children:
        return [(path.strip(), command)]
    return [leaf for name, child in children.items() for leaf in _leaves(child, f"{path} {name}")]


def test_every_command_shows_one_example() -> None:
    leaves = _leaves(typer.main.get_command(commands))
    assert len(leaves) >= 25
    for path, command in leaves:
        assert command.epilog == f"Example: {EXAMPLES[path]}", path
        assert EXAMPLES[path].startswith(f"smith {path}") or "smith serve" in EXAMPLES[path], path


def test_version_is_a_flag_in_help(workdir: Path) -> None:
    result = run_in_process(workdir, "--help")
    assert result.code == 0
    assert "--version" in result.stdout
    assert "--install-completion" in result.stdout


def test_shell_completion_installs_and_completes(tmp_path: Path) -> None:
    home = tmp_path / "home"
    installed = run_smith(
        tmp_path, "--install-completion", "bash", env={"HOME": str(home), "SHELL": "/bin/bash"}
    )
    assert installed.code == 0, installed.stderr
    assert "_SMITH_COMPLETE" in (home / ".bash_completions" / "smith.sh").read_text()
    completed = run_smith(
        tmp_path, env={"_SMITH_COMPLETE": "complete_bash", "COMP_WORDS": "smith pre", "COMP_CWORD": "1"}
    )
    assert completed.stdout.split() == ["preview"]
