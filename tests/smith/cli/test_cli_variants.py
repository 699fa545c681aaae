"""More ways to get `smith` wrong, through the same entry point (`run_guarded`) inside the test process.

test_cli.py proves the real process boundary once per kind of mistake; each command imports the whole
engine, so the many variants of those mistakes run here, where they cost milliseconds.
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest

from smith.cli import commands, context
from smith.cli.errors import run_guarded
from tests.conftest import DEMO_DATA
from tests.gradecore.docs import demo_doc
from tests.smith.cli.runner import Result, copy_database, database_url, reading

CAMELLIA = "5ccefeb1-fd5b-4a67-aeeb-ea0f7137f437"


class Smith:
    """Runs `smith ARGS` in this process with the environment a fresh process would have."""

    def __init__(
        self, workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        self.workdir, self._monkeypatch, self._capsys = workdir, monkeypatch, capsys
        for key in list(os.environ):
            if key.startswith(("SMITH_", "SLACK_", "ANTHROPIC_")):
                monkeypatch.delenv(key)
        monkeypatch.setenv("SMITH_DATABASE_URL", database_url(workdir))
        monkeypatch.setenv("COLUMNS", "200")
        monkeypatch.chdir(workdir)

    def __call__(self, *args: str, stdin: bytes | None = None, database: str | None = None) -> Result:
        if database is not None:
            self._monkeypatch.setenv("SMITH_DATABASE_URL", database)
        context.settings.cache_clear()  # settings are read once per process; this is a new "process"
        context.rules.cache_clear()
        self._monkeypatch.setattr(sys, "argv", ["smith", *args])
        if stdin is not None:
            self._monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
        self._capsys.readouterr()
        code = run_guarded(commands)
        captured = self._capsys.readouterr()
        return Result(code, captured.out, captured.err)

    def write(self, name: str, content: str | bytes) -> Path:
        path = self.workdir / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path


@pytest.fixture
def smith(
    tmp_path: Path, migrated_sqlite: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Smith:
    copy_database(migrated_sqlite, tmp_path)
    return Smith(tmp_path, monkeypatch, capsys)


def test_ingest_from_stdin(smith: Smith) -> None:
    result = smith("ingest", "-", stdin=(DEMO_DATA / "camellia-double-send.json").read_bytes())
    assert result.code == 0, result.stderr
    assert result.stdout.startswith(f"{CAMELLIA}: new")


def test_ingest_a_json_array_names_the_bad_item(smith: Smith) -> None:
    bad = demo_doc("oakridge-clean-maintenance.json")
    bad["channel"] = "fax"
    result = smith("ingest", str(smith.write("batch.json", json.dumps([demo_doc(), bad]))))
    assert result.code == 1
    assert result.error_lines[0].startswith("smith: batch.json item 1: channel: ")
    assert result.stdout.startswith(f"{CAMELLIA}: new")


def test_ingest_a_pretty_printed_single_document(smith: Smith) -> None:
    result = smith("ingest", str(smith.write("pretty.json", json.dumps(demo_doc(), indent=2))))
    assert result.code == 0, result.stderr


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{}{", "smith: bad.json: $: not valid JSON"),
        (b"\xff\xfe{", "smith: bad.json: $: not valid JSON"),
        ("[1, 2", "smith: bad.json is not valid JSON"),
        ("  \n", "smith: bad.json is empty"),
        ('"just a string"', "smith: bad.json: $: a conversation document must be a JSON object"),
        ("[42]", "smith: bad.json item 0: $: a conversation document must be a JSON object"),
    ],
    ids=["two objects", "bytes", "broken array", "empty", "string", "array of a number"],
)
def test_ingest_unreadable_documents(smith: Smith, content: str | bytes, expected: str) -> None:
    result = smith("ingest", str(smith.write("bad.json", content)))
    assert result.code == 1
    assert result.one_error_line().startswith(expected)


def test_ingest_a_directory_without_documents(smith: Smith) -> None:
    # A directory is read for its .json/.jsonl files (issue 25); this one holds only the database.
    line = smith("ingest", str(smith.workdir)).one_error_line()
    assert line == f"smith: {smith.workdir} holds no .json or .jsonl file"


def test_ingest_a_document_over_the_size_limit(smith: Smith) -> None:
    doc = demo_doc()
    doc["messages"][0]["text"] = "x" * (2 * 1024 * 1024)  # the size limit is checked before any field
    path = smith.write("huge.json", json.dumps(doc))
    assert "the limit is 2 MiB" in smith("ingest", str(path)).one_error_line()


def test_ingest_a_document_with_an_unknown_timezone(smith: Smith) -> None:
    doc = demo_doc()
    doc["property"]["timezone"] = "Mars/Base"
    line = smith("ingest", str(smith.write("tz.json", json.dumps(doc)))).one_error_line()
    assert line.startswith("smith: tz.json: property.timezone: ")


def test_an_invalid_database_url(smith: Smith) -> None:
    assert (
        smith("users", "list", database="nonsense://")
        .one_error_line()
        .startswith("smith: invalid database URL")
    )


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("maria@example.test,María\n", "smith: staff.csv line 1: expected email,name,role"),
        (
            "email,name,role\na@example.test,A,staff\nb@example.test,B,boss\n",
            "smith: staff.csv line 3: role must be",
        ),
        ("a@example.test,A,staff\nA@EXAMPLE.TEST,B,staff\n", "smith: staff.csv line 2: a user with email"),
        ("email,name,role\n", "smith: staff.csv has no users"),
        ("a@example.test,,staff\n", "smith: staff.csv line 1: expected email,name,role"),
    ],
    ids=["short row", "bad role", "duplicate", "header only", "no name"],
)
def test_users_import_mistakes(smith: Smith, content: str, expected: str) -> None:
    result = smith("users", "import", str(smith.write("staff.csv", content)))
    assert result.one_error_line().startswith(expected)
    with reading(smith.workdir) as unit:
        assert unit.users.list() == []


def test_users_import_a_missing_file(smith: Smith) -> None:
    assert smith("users", "import", "gone.csv").one_error_line() == "smith: no such file: gone.csv"


def test_users_import_a_bom_and_crlf_file(smith: Smith) -> None:
    content = "\ufeffemail,name,role\r\nmaria@example.test,María,admin\r\n".encode()
    result = smith("users", "import", str(smith.write("staff.csv", content)))
    assert (result.code, result.stdout.strip()) == (0, "imported 1 users")


def test_users_list(smith: Smith) -> None:
    with reading(smith.workdir) as unit:
        unit.users.add("maria@example.test", "María López", "admin")
    result = smith("users", "list")
    assert result.code == 0
    assert (
        "maria@example.test" in result.stdout and "María López" in result.stdout and "admin" in result.stdout
    )


def test_properties_set_update_and_list(smith: Smith) -> None:
    created = smith(
        "properties", "set", "camellia", "--name", "Camellia", "--timezone", "America/Los_Angeles"
    )
    assert (created.code, created.stdout.strip()) == (
        0,
        "camellia: Camellia · America/Los_Angeles · channel not mapped",
    )
    renamed = smith("properties", "set", "camellia", "--name", "Camellia Gardens")
    assert renamed.stdout.strip() == "camellia: Camellia Gardens · America/Los_Angeles · channel not mapped"
    listed = smith("properties", "list")
    assert listed.code == 0
    assert "Camellia Gardens" in listed.stdout and "not mapped" in listed.stdout


def test_properties_set_a_bad_timezone_on_an_existing_property(smith: Smith) -> None:
    with reading(smith.workdir) as unit:
        unit.properties.set("camellia", name="Camellia", timezone="UTC")
    line = smith("properties", "set", "camellia", "--timezone", "Pacific Time").one_error_line()
    assert line.startswith("smith: unknown timezone 'Pacific Time'")


def test_properties_set_an_unknown_property_with_only_a_name(smith: Smith) -> None:
    line = smith("properties", "set", "nowhere", "--name", "Nowhere").one_error_line()
    assert line == "smith: unknown property 'nowhere': to create it, give --name and --timezone"


def test_an_unmigrated_database_for_every_storing_command(smith: Smith, tmp_path: Path) -> None:
    (smith.workdir / "smith.db").unlink()
    for args in (
        ["users", "list"],
        ["properties", "list"],
        ["ingest", str(DEMO_DATA / "camellia-double-send.json")],
    ):
        assert "smith db upgrade" in smith(*args).one_error_line(), args
