"""The engine's deadlines: PostgreSQL sessions carry statement and lock timeouts (and keep the URL's own
options), and SQLite waits for a lock no longer than the statement timeout.

Reproduction from the hardening report: there was no connect, statement or lock timeout, so a
stalled or locked database held a request for minutes.
"""

from __future__ import annotations

import socket
import threading

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import OperationalError

from gradecore.persistence.db import DatabaseTimeouts, create_db_engine


def _url(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=False)


@pytest.mark.backends("postgres")
def test_postgresql_sessions_carry_the_timeouts_and_keep_the_urls_options(engine: Engine) -> None:
    limits = DatabaseTimeouts(connect_seconds=3, statement_seconds=7, lock_seconds=1.5)
    timed = create_db_engine(_url(engine), timeouts=limits)
    try:
        with timed.connect() as connection:
            assert connection.execute(text("SHOW statement_timeout")).scalar_one() == "7s"
            assert connection.execute(text("SHOW lock_timeout")).scalar_one() == "1500ms"
            # The test URL's own `options` (the schema of this test) still apply.
            assert connection.execute(text("SHOW search_path")).scalar_one() == engine.url.query[
                "options"
            ].removeprefix("-csearch_path=")
    finally:
        timed.dispose()


@pytest.mark.backends("postgres")
def test_a_held_lock_is_an_error_after_the_lock_timeout_not_a_wait(engine: Engine) -> None:
    timed = create_db_engine(_url(engine), timeouts=DatabaseTimeouts(lock_seconds=0.5))
    outcome: list[BaseException | None] = []

    def update_the_locked_row() -> None:
        try:
            with timed.begin() as connection:
                connection.execute(text("UPDATE alembic_version SET version_num = version_num"))
            outcome.append(None)
        except OperationalError as exc:
            outcome.append(exc)

    try:
        with engine.connect() as holder, holder.begin():
            holder.execute(text("SELECT version_num FROM alembic_version FOR UPDATE"))
            worker = threading.Thread(target=update_the_locked_row)
            worker.start()
            worker.join(timeout=60)  # generous: the point is "an error", not how fast it comes
            assert not worker.is_alive(), "the update waited on the lock instead of timing out"
        assert len(outcome) == 1 and isinstance(outcome[0], OperationalError)
        assert "lock timeout" in str(outcome[0])
    finally:
        timed.dispose()


def test_a_server_that_never_answers_is_a_connect_error_not_a_wait() -> None:
    """A listening socket that never speaks: TCP connects, PostgreSQL's start-up reply never comes."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        timed = create_db_engine(
            f"postgresql+psycopg://smith@127.0.0.1:{port}/smith", timeouts=DatabaseTimeouts(connect_seconds=2)
        )
        outcome: list[BaseException] = []

        def connect() -> None:
            try:
                timed.connect().close()
            except OperationalError as exc:
                outcome.append(exc)

        worker = threading.Thread(target=connect, daemon=True)
        worker.start()
        worker.join(timeout=60)  # generous: the point is "an error", not how fast it comes
        assert not worker.is_alive(), "connecting waited on a silent server"
        assert len(outcome) == 1 and "timeout" in str(outcome[0])
        timed.dispose()


@pytest.mark.backends("sqlite")
def test_sqlite_waits_for_a_lock_no_longer_than_the_statement_timeout(engine: Engine) -> None:
    timed = create_db_engine(_url(engine), timeouts=DatabaseTimeouts(statement_seconds=4))
    try:
        with timed.connect() as connection:
            assert connection.execute(text("PRAGMA busy_timeout")).scalar_one() == 4000
    finally:
        timed.dispose()
