"""The `smith` command line, run in the test's process (tests/smith/cli/in_process.py): what it stores,
what it prints, and that every user mistake is exactly one line on stderr, a non-zero exit and never a
traceback (docs/operations.md)."""

from __future__ import annotations

import json
from pathlib import Path

from gradecore.model.contract import SCHEMA_ID
from gradecore.persistence.db import head_revision
from tests.conftest import DEMO_DATA
from tests.gradecore.docs import demo_doc, with_message
from tests.smith.cli.in_process import run_in_process
from tests.smith.cli.runner import reading

CAMELLIA = "5ccefeb1-fd5b-4a67-aeeb-ea0f7137f437"


def _write(directory: Path, name: str, content: str | bytes) -> Path:
    path = directory / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


# --- the database -------------------------------------------------------------------------------------


def test_an_unmigrated_database_is_refused_with_the_fix(tmp_path: Path) -> None:
    result = run_in_process(tmp_path, "users", "list")
    assert result.code == 1
    assert "smith db upgrade" in result.one_error_line()


def test_db_upgrade_then_current(tmp_path: Path) -> None:
    first = run_in_process(tmp_path, "db", "upgrade")
    assert first.code == 0, first.stderr
    assert first.stdout.strip() == f"migrated empty → {head_revision()}"
    again = run_in_process(tmp_path, "db", "upgrade")
    assert (again.code, again.stdout.strip()) == (0, "database already at the latest schema")
    current = run_in_process(tmp_path, "db", "current")
    assert current.stdout.strip() == f"current: {head_revision()} · latest: {head_revision()}"


def test_an_unreachable_database_is_one_line(tmp_path: Path) -> None:
    url = "postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=2"
    result = run_in_process(tmp_path, "db", "current", database=url)
    assert result.one_error_line().startswith("smith: cannot reach the database")


# --- ingest -------------------------------------------------------------------------------------------


def test_ingest_new_then_unchanged_then_replaced(workdir: Path) -> None:
    demo = str(DEMO_DATA / "camellia-double-send.json")
    first = run_in_process(workdir, "ingest", demo)
    assert first.code == 0, first.stderr
    assert first.stdout.startswith(f"{CAMELLIA}: new")
    again = run_in_process(workdir, "ingest", demo)
    assert (again.code, again.stdout.strip()) == (0, f"{CAMELLIA}: unchanged")
    grown = _write(workdir, "grown.json", json.dumps(with_message(demo_doc(), "m4", "p1", "inbound", "ok?")))
    replaced = run_in_process(workdir, "ingest", str(grown))
    assert replaced.code == 0, replaced.stderr
    assert replaced.stdout.startswith(f"{CAMELLIA}: replaced")
    with reading(workdir) as unit:
        document = unit.conversations.document(CAMELLIA)
        assert document is not None and [m.id for m in document.messages][-1] == "m4"
        assert unit.properties.get("camellia") is not None  # registered from the document


def test_jsonl_stores_the_valid_line_and_names_the_bad_one(workdir: Path) -> None:
    bad = demo_doc("birchwood-dead-thread.json")
    bad["turns"][0]["trace"]["steps"][0]["stop_reason"] = "length"
    batch = _write(workdir, "batch.jsonl", json.dumps(demo_doc()) + "\n" + json.dumps(bad) + "\n")
    result = run_in_process(workdir, "ingest", str(batch))
    assert result.code == 1
    assert "Traceback" not in result.stderr
    assert result.stdout.startswith(f"{CAMELLIA}: new")
    named, summary = result.error_lines
    assert named.startswith("smith: batch.jsonl line 2: turns.0.trace.steps.0.stop_reason: ")
    assert summary == "smith: 1 document(s) rejected; nothing was stored for them"
    with reading(workdir) as unit:
        assert unit.conversations.get(CAMELLIA) is not None
        assert unit.conversations.get(bad["conversation_id"]) is None


def test_ingest_a_missing_file(workdir: Path) -> None:
    line = run_in_process(workdir, "ingest", "nope.json").one_error_line()
    assert line == "smith: no such file: nope.json"


def test_ingest_invalid_json(workdir: Path) -> None:
    path = _write(workdir, "bad.json", "{not json")
    line = run_in_process(workdir, "ingest", str(path)).one_error_line()
    assert line.startswith("smith: bad.json: $: not valid JSON")


def test_ingest_a_contract_violation_names_the_path(workdir: Path) -> None:
    doc = demo_doc()
    doc["turns"][0]["message_id"] = "m1"  # an inbound message can never be a graded turn
    path = _write(workdir, "violation.json", json.dumps(doc, indent=2))
    line = run_in_process(workdir, "ingest", str(path)).one_error_line()
    assert line.startswith("smith: violation.json: turns.0.message_id: ")
    with reading(workdir) as unit:
        assert unit.conversations.get(CAMELLIA) is None


# --- users --------------------------------------------------------------------------------------------


def test_users_add(workdir: Path) -> None:
    added = run_in_process(
        workdir, "users", "add", "Pat@Example.test", "--name", "Pat Doe", "--role", "admin"
    )
    assert (added.code, added.stdout.strip()) == (0, "added pat@example.test (admin)")
    with reading(workdir) as unit:
        user = unit.users.by_email("pat@example.test")
        assert user is not None and (user.name, user.role) == ("Pat Doe", "admin")


def test_users_add_a_duplicate_email_in_another_case(workdir: Path) -> None:
    with reading(workdir) as unit:
        unit.users.add("pat@example.test", "Pat Doe")
    duplicate = run_in_process(workdir, "users", "add", "PAT@example.TEST", "--name", "Someone")
    assert duplicate.one_error_line() == "smith: a user with email pat@example.test already exists"


def test_users_add_with_a_bad_role(workdir: Path) -> None:
    line = run_in_process(
        workdir, "users", "add", "pat@example.test", "--name", "Pat", "--role", "owner"
    ).one_error_line()
    # Issue 13: --role is typed as a choice; the mistake is still one line, naming the choices.
    assert line == (
        "smith: invalid value for '--role': 'owner' is not one of 'staff', 'engineer', 'admin' "
        "(see `smith users add --help`)"
    )


def test_users_import_csv_with_a_header(workdir: Path) -> None:
    csv = _write(
        workdir,
        "staff.csv",
        "email,name,role\nmaria@example.test,María López,staff\n\nSam@Example.test, Sam Roe ,ENGINEER\n",
    )
    result = run_in_process(workdir, "users", "import", str(csv))
    assert (result.code, result.stdout.strip()) == (0, "imported 2 users")
    with reading(workdir) as unit:
        assert [(u.email, u.name, u.role) for u in unit.users.list()] == [
            ("maria@example.test", "María López", "staff"),
            ("sam@example.test", "Sam Roe", "engineer"),
        ]


def test_users_import_names_the_bad_line_and_imports_nothing(workdir: Path) -> None:
    csv = _write(
        workdir, "staff.csv", "email,name,role\nmaria@example.test,María,staff\nnot-an-email,Sam,staff\n"
    )
    line = run_in_process(workdir, "users", "import", str(csv)).one_error_line()
    assert line == "smith: staff.csv line 3: expected email,name,role"
    with reading(workdir) as unit:
        assert unit.users.list() == []


# --- properties ---------------------------------------------------------------------------------------


def test_properties_set_an_unknown_property_without_a_name(workdir: Path) -> None:
    line = run_in_process(workdir, "properties", "set", "nowhere", "--timezone", "UTC").one_error_line()
    assert "unknown property 'nowhere'" in line
    assert "--name" in line and "--timezone" in line


def test_properties_set_a_bad_timezone(workdir: Path) -> None:
    result = run_in_process(
        workdir, "properties", "set", "camellia", "--name", "Camellia", "--timezone", "Mars/Base"
    )
    assert result.one_error_line() == (
        "smith: unknown timezone 'Mars/Base' (use an IANA name such as America/Los_Angeles)"
    )
    with reading(workdir) as unit:
        assert unit.properties.get("camellia") is None


# --- schema -------------------------------------------------------------------------------------------


def test_schema_prints_the_contract(tmp_path: Path) -> None:
    result = run_in_process(tmp_path, "schema")
    assert result.code == 0, result.stderr
    schema = json.loads(result.stdout)
    assert schema["$id"] == SCHEMA_ID
    assert "conversation_id" in schema["properties"]
    assert schema["additionalProperties"] is False


def test_grade_json_names_the_rule_entry_that_fired(tmp_path: Path) -> None:
    example = DEMO_DATA / "camellia-double-send.json"
    result = run_in_process(tmp_path, "grade", str(example), "--json")
    assert result.code == 0, result.stderr
    graded = json.loads(result.stdout)
    entries = {
        (dimension["check"], evidence["rule_entry"])
        for turn in graded["turns"]
        for dimension in turn["dimensions"]
        for evidence in dimension["evidence"]
        if evidence["rule_entry"]
    }
    assert ("no_internal_narration", "narration.failure_en") in entries
    assert ("no_access_code_to_prospect", "access_code.whole_token") in entries
