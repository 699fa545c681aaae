"""Operability of the command line: what used to end in a traceback (or was silently accepted) is one
clear line on stderr and a non-zero exit, and a database error never prints the document it refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from tests.conftest import DEMO_DATA
from tests.gradecore.docs import demo_doc
from tests.smith.cli.runner import reading, run_smith
from tests.smith.cli.test_cli_variants import Smith, smith

__all__ = ["smith"]  # a fixture shared with the variants' module

CAMELLIA = "5ccefeb1-fd5b-4a67-aeeb-ea0f7137f437"
# What the Camellia demo document holds that must never reach a terminal or a log.
CAMELLIA_PII = ("Jordan", "Avery", "555-0187", "4155550187", "outlook.com", "4821")


def _with_deep_facts(depth: int) -> str:
    """The Camellia document with a facts value nested `depth` objects deep, as JSON text (written
    by hand: the encoder itself gives up before 990 levels inside a test)."""
    doc = demo_doc()
    doc["property"]["facts"]["deep"] = "DEEP"
    return json.dumps(doc).replace('"DEEP"', '{"a": ' * depth + "{}" + "}" * depth)


# --- documents nested ~990 deep -------------------------------------------------------------------


@pytest.mark.parametrize("command", ["ingest", "grade"])
def test_a_bare_array_nested_990_deep_is_one_line(smith: Smith, command: str) -> None:
    path = smith.write("deep.json", "[" * 990 + "]" * 990)
    line = smith(command, str(path)).one_error_line()
    assert line == "smith: deep.json is nested too deeply to be a conversation document"


@pytest.mark.parametrize("command", ["ingest", "grade"])
def test_a_document_nested_990_deep_inside_an_array_is_one_line(smith: Smith, command: str) -> None:
    path = smith.write("deep.json", f"[{_with_deep_facts(990)}]")
    result = smith(command, str(path))
    assert result.code != 0
    assert "Traceback" not in result.stderr + result.stdout
    assert result.error_lines and all(line.startswith("smith: ") for line in result.error_lines)
    with reading(smith.workdir) as unit:
        assert unit.conversations.get(CAMELLIA) is None


def test_a_deep_document_through_the_real_process(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text("[" * 990 + "]" * 990)
    result = run_smith(tmp_path, "grade", str(tmp_path / "deep.json"))
    assert result.one_error_line() == "smith: deep.json is nested too deeply to be a conversation document"


# --- arguments longer than where they are stored ---------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["properties", "set", "p" * 129, "--name", "P", "--timezone", "UTC"],
            "smith: the property id is 129 characters long; at most 128 fit",
        ),
        (
            ["properties", "set", "camellia", "--name", "n" * 257, "--timezone", "UTC"],
            "smith: --name is 257 characters long; at most 256 fit",
        ),
        (
            ["properties", "set", "camellia", "--name", "C", "--timezone", "A/" + "b" * 300],
            "smith: --timezone is 302 characters long; at most 64 fit",
        ),
        (
            ["users", "add", "maria@example.test", "--name", "m" * 300],
            "smith: --name is 300 characters long; at most 256 fit",
        ),
        (
            ["users", "link", "U" + "1" * 40, "maria@example.test"],
            "smith: the Slack user id is 41 characters long; at most 32 fit",
        ),
    ],
    ids=["property-id", "property-name", "timezone", "user-name", "slack-user-id"],
)
def test_an_argument_over_its_limit_is_one_line_and_stores_nothing(
    smith: Smith, args: list[str], expected: str
) -> None:
    assert smith(*args).one_error_line() == expected
    with reading(smith.workdir) as unit:
        assert unit.properties.list() == [] and unit.users.list() == []


def test_an_over_long_id_through_the_real_process(tmp_path: Path, engine: Engine) -> None:
    database = engine.url.render_as_string(hide_password=False)
    result = run_smith(
        tmp_path, "properties", "set", "p" * 200, "--name", "P", "--timezone", "UTC", database=database
    )
    assert result.one_error_line() == "smith: the property id is 200 characters long; at most 128 fit"


# --- channel ids, locales, e-mail addresses --------------------------------------------------------


@pytest.mark.parametrize("channel", ["general", "#general", "c0apt1", "C", "https://x.slack.com/archives/C0"])
def test_properties_set_refuses_a_channel_that_is_not_an_id(smith: Smith, channel: str) -> None:
    line = smith(
        "properties", "set", "camellia", "--name", "C", "--timezone", "UTC", "--channel", channel
    ).one_error_line()
    assert line.startswith(f"smith: --channel must be a Slack channel id such as C0123ABCD, not {channel!r}")
    with reading(smith.workdir) as unit:
        assert unit.properties.get("camellia") is None


@pytest.mark.parametrize("channel", ["C0APT1", "G0PRIVATE9"])
def test_properties_set_takes_public_and_private_channel_ids(smith: Smith, channel: str) -> None:
    result = smith("properties", "set", "camellia", "--name", "C", "--timezone", "UTC", "--channel", channel)
    assert result.code == 0, result.stderr
    with reading(smith.workdir) as unit:
        found = unit.properties.get("camellia")
        assert found is not None and found.slack_channel_id == channel


def test_an_empty_channel_still_unmaps_the_property(smith: Smith) -> None:
    assert (
        smith("properties", "set", "camellia", "--name", "C", "--timezone", "UTC", "--channel", "C0A").code
        == 0
    )
    result = smith("properties", "set", "camellia", "--channel", "")
    assert result.code == 0, result.stderr
    with reading(smith.workdir) as unit:
        found = unit.properties.get("camellia")
        assert found is not None and found.slack_channel_id is None


def test_properties_set_refuses_an_unsupported_locale(smith: Smith) -> None:
    line = smith("properties", "set", "camellia", "--name", "C", "--timezone", "UTC", "--locale", "fr")
    assert line.one_error_line() == (
        "smith: invalid value for '--locale': 'fr' is not one of 'en', 'es' "
        "(see `smith properties set --help`)"
    )
    with reading(smith.workdir) as unit:
        assert unit.properties.get("camellia") is None


def test_properties_set_takes_a_supported_locale_in_any_case(smith: Smith) -> None:
    result = smith("properties", "set", "camellia", "--name", "C", "--timezone", "UTC", "--locale", "ES")
    assert result.code == 0, result.stderr
    with reading(smith.workdir) as unit:
        found = unit.properties.get("camellia")
        assert found is not None and found.locale == "es"


@pytest.mark.parametrize("address", ["not an email", "maria@", "@example.test", "maria@@example.test"])
def test_users_add_refuses_what_is_not_an_email_address(smith: Smith, address: str) -> None:
    line = smith("users", "add", address, "--name", "María").one_error_line()
    assert line.startswith(f"smith: {address!r} is not an e-mail address")
    with reading(smith.workdir) as unit:
        assert unit.users.list() == []


def test_users_add_checks_syntax_only_no_dns(smith: Smith) -> None:
    # An internal mail domain that resolves nowhere is still a staff member's address.
    result = smith("users", "add", "maria@no-such-host-for-smith-tests.com", "--name", "María")
    assert result.code == 0, result.stderr


def test_users_import_refuses_a_row_whose_email_is_not_an_address(smith: Smith) -> None:
    path = smith.write("staff.csv", "a@example.test,A,staff\nb@,B,staff\n")
    line = smith("users", "import", str(path)).one_error_line()
    assert line.startswith("smith: staff.csv line 2: 'b@' is not an e-mail address")
    with reading(smith.workdir) as unit:
        assert unit.users.list() == []


# --- a database error while ingesting ------------------------------------------------------------


def _refuse_inserts(engine: Engine, conversation_id: str) -> None:
    """A trigger makes the real database refuse one conversation's row, quoting the row like a real
    error would (PostgreSQL's message names the document, as a constraint or type error can)."""
    with engine.begin() as connection:
        if engine.dialect.name == "sqlite":
            connection.execute(
                text(
                    "CREATE TRIGGER refuse_document BEFORE INSERT ON conversation_records "
                    f"WHEN NEW.conversation_id = '{conversation_id}' "
                    "BEGIN SELECT RAISE(ABORT, 'refused by the test trigger'); END"
                )
            )
            return
        connection.execute(
            text(
                "CREATE FUNCTION refuse_document() RETURNS trigger AS $$ BEGIN "
                "RAISE EXCEPTION 'refused: %', NEW.document; END $$ LANGUAGE plpgsql"
            )
        )
        connection.execute(
            text(
                "CREATE TRIGGER refuse_document BEFORE INSERT ON conversation_records FOR EACH ROW "
                f"WHEN (NEW.conversation_id = '{conversation_id}') EXECUTE FUNCTION refuse_document()"
            )
        )


def test_a_database_error_in_ingest_is_one_line_without_the_document(smith: Smith, engine: Engine) -> None:
    _refuse_inserts(engine, CAMELLIA)
    database = engine.url.render_as_string(hide_password=False)
    result = smith("ingest", str(DEMO_DATA / "camellia-double-send.json"), database=database)
    line = result.one_error_line()
    assert line.startswith("smith: camellia-double-send.json: the database refused the operation (")
    assert line.endswith("); nothing was stored for it")
    for secret in CAMELLIA_PII:
        assert secret not in result.stdout + result.stderr, secret


def test_a_database_error_on_one_document_keeps_the_others(smith: Smith, engine: Engine) -> None:
    _refuse_inserts(engine, CAMELLIA)
    other = demo_doc()
    other["conversation_id"] = "camellia-other"
    lines = [json.dumps(demo_doc()), json.dumps(other)]
    path = smith.write("two.jsonl", "\n".join(lines) + "\n")
    result = smith("ingest", str(path), database=engine.url.render_as_string(hide_password=False))
    assert result.code == 1
    assert "Traceback" not in result.stderr
    assert result.error_lines[0].startswith("smith: two.jsonl line 1: the database refused the operation")
    assert result.error_lines[1:] == ["smith: 1 document(s) rejected; nothing was stored for them"]
    assert result.stdout.startswith("camellia-other: new")
    for secret in CAMELLIA_PII:
        assert secret not in result.stdout + result.stderr, secret
