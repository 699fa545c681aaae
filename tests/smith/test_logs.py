"""Issue 24, point 3: `SMITH_LOG_FORMAT=json` writes one JSON object per line with the context known
where the line was logged; APScheduler's per-run lines and Bolt's "Unhandled request" stay out of INFO."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest

from smith.logs import configure_logging, log_context


@pytest.fixture
def restored_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    scheduler_level = logging.getLogger("apscheduler").level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.getLogger("apscheduler").setLevel(scheduler_level)


def _lines(err: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in err.splitlines() if line.strip()]


@pytest.mark.usefixtures("restored_logging")
def test_json_lines_carry_the_context_they_were_logged_in(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("INFO", "json")
    log = logging.getLogger("smith.ingest")
    with log_context(request_id="req-1", conversation_id="conv-9"):
        with log_context(property="lampliter", channel="C0APT"):
            log.info("graded %s", "conv-9")
        log.info("stored")
    log.info("outside")

    first, second, third = _lines(capsys.readouterr().err)
    assert (
        first["message"] == "graded conv-9" and first["level"] == "INFO" and first["logger"] == "smith.ingest"
    )
    assert {k: first[k] for k in ("request_id", "conversation_id", "property", "channel")} == {
        "request_id": "req-1",
        "conversation_id": "conv-9",
        "property": "lampliter",
        "channel": "C0APT",
    }
    assert second["request_id"] == "req-1" and "property" not in second
    assert "request_id" not in third
    assert str(first["time"]).endswith("+00:00")


@pytest.mark.usefixtures("restored_logging")
def test_an_exception_stays_inside_its_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("INFO", "json")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        logging.getLogger("smith").exception("failed")
    (line,) = _lines(capsys.readouterr().err)
    assert line["message"] == "failed" and "RuntimeError: boom" in str(line["exception"])


@pytest.mark.usefixtures("restored_logging")
def test_scheduler_and_bolt_chatter_is_kept_out_of_info(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("INFO", "text")
    logging.getLogger("apscheduler.executors.default").info('Running job "tally"')
    logging.getLogger("slack_bolt.AsyncApp").warning('Unhandled request ({"type": "event_callback"})\n---')
    logging.getLogger("slack_bolt.AsyncApp").warning("a real Bolt warning")
    logging.getLogger("smith").info("smith line")
    err = capsys.readouterr().err
    assert "Running job" not in err and "Unhandled request" not in err
    assert "a real Bolt warning" in err and "smith line" in err


@pytest.mark.usefixtures("restored_logging")
def test_at_debug_an_unhandled_request_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("DEBUG", "text")
    logging.getLogger("slack_bolt.AsyncApp").warning('Unhandled request ({"type": "x"})\n---\n[Suggestion]')
    (line,) = capsys.readouterr().err.splitlines()
    assert " DEBUG slack_bolt.AsyncApp: unhandled Slack request (no listener for it)" in line
