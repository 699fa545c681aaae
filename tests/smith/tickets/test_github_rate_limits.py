"""Issue 24, point 6: GitHub's rate limits honoured as GitHub documents them, through the real PyGithub
client and the fake GitHub API. A secondary limit without `retry-after` waits at least a minute, doubling;
the primary limit stops the sync until `x-ratelimit-reset`, the report names the tickets postponed, and
the next sweep files them; the rest of the sweep (the fixture drafts) is not held up."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from gradecore.persistence.store import Store
from smith.sweep.job import run_sweep
from smith.tickets.github import GitHubTracker
from tests.fakes.github_api import PRIMARY_RESET_SECONDS, FakeGitHub
from tests.smith.cli.in_process import run_in_process
from tests.smith.cli.runner import database_url
from tests.smith.tickets.world import confirm_failures

SETTLED = datetime(2026, 11, 2, 18, 0, tzinfo=UTC)
NOW = SETTLED + timedelta(days=1)
REPO = "acme/clara-integrations"
TOKEN = "ghp_fake_token_for_tests"


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    with FakeGitHub(REPO, token=TOKEN) as fake:
        yield fake


class Clock:
    """Wall time that moves only when the tracker sleeps (or the test says so)."""

    def __init__(self, start: float) -> None:
        self.now = start
        self.waits: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds


def tracker(github: FakeGitHub, clock: Clock) -> GitHubTracker:
    return GitHubTracker(
        REPO,
        TOKEN,
        base_url=github.base_url,
        seconds_between_writes=0,
        backoff_seconds=0,
        sleep=clock.sleep,
        clock=clock,
    )


def posts(github: FakeGitHub) -> int:
    return sum(1 for method, path in github.requests if method == "POST" and path.endswith("/issues"))


def test_a_secondary_limit_without_retry_after_waits_a_minute_then_two(
    store: Store, tmp_path: Path, github: FakeGitHub
) -> None:
    confirm_failures(store, SETTLED, {"secret": 2})
    clock = Clock(NOW.timestamp())
    github.fail_next("POST", "/issues", "secondary_limit", "secondary_limit")

    report = run_sweep(store, tmp_path, tracker=tracker(github, clock), now=NOW)

    assert clock.waits == [60.0, 120.0]
    assert len(report.tickets.new) == 1 and report.tickets.postponed == []
    assert len(github.issues) == 1 and posts(github) == 3


def test_a_secondary_limit_that_outlasts_the_waits_postpones_the_rest(
    store: Store, tmp_path: Path, github: FakeGitHub
) -> None:
    confirm_failures(store, SETTLED, {"secret": 2, "truncated": 2})
    clock = Clock(NOW.timestamp())
    github.fail_next("POST", "/issues", *["secondary_limit"] * 3)

    report = run_sweep(store, tmp_path, tracker=tracker(github, clock), now=NOW)

    assert clock.waits == [60.0, 120.0]
    assert len(report.tickets.postponed) == 2 and report.tickets.new == []
    assert report.tickets.postponed_until == datetime.fromtimestamp(clock.now + 240.0, UTC)
    assert github.issues == {}


def test_the_primary_limit_postpones_until_its_reset_and_the_next_sweep_files_them(
    store: Store, tmp_path: Path, github: FakeGitHub
) -> None:
    confirm_failures(store, SETTLED, {"secret": 2, "truncated": 2, "budget": 2})
    clock = Clock(datetime.now(UTC).timestamp())  # the fake's reset is an hour from its own clock
    limited = tracker(github, clock)
    github.fail_next("POST", "/issues", "primary_limit")

    report = run_sweep(store, tmp_path, tracker=limited, now=NOW)

    # One POST met the limit; none followed it while limited, and nothing slept for an hour.
    assert posts(github) == 1 and clock.waits == []
    assert len(report.tickets.postponed) == 3 and report.tickets.new == [] and report.tickets.failed == []
    until = report.tickets.postponed_until
    assert until is not None
    assert timedelta(seconds=PRIMARY_RESET_SECONDS - 60) < until - datetime.now(UTC)
    assert sum(report.written.values()) == 6  # the fixture drafts were written all the same

    # Before the reset, another sweep asks GitHub nothing.
    requests_before = len(github.requests)
    again = run_sweep(store, tmp_path, tracker=limited, now=NOW)
    assert len(again.tickets.postponed) == 3 and len(github.requests) == requests_before

    clock.now = until.timestamp() + 1
    after = run_sweep(store, tmp_path, tracker=limited, now=NOW)
    assert len(after.tickets.new) == 3 and after.tickets.postponed == []
    assert len(github.issues) == 3


def test_a_retry_after_is_honoured_on_a_read_too(github: FakeGitHub) -> None:
    clock = Clock(NOW.timestamp())
    github.fail_next("GET", "/search/issues", "rate_limit")

    assert tracker(github, clock).find("sig-none", created_since=None) is None

    assert clock.waits == [1.0]  # the fake's Retry-After
    assert [path for method, path in github.requests if method == "GET"].count("/search/issues") == 2


def test_smith_sweep_says_which_tickets_were_postponed(tmp_path: Path, github: FakeGitHub) -> None:
    from gradecore.persistence.db import create_db_engine, upgrade

    engine = create_db_engine(database_url(tmp_path))
    upgrade(engine)
    confirm_failures(Store(engine), SETTLED, {"secret": 3, "budget": 2})
    engine.dispose()
    github.fail_next("POST", "/issues", "primary_limit")
    env = {
        "SMITH_FIXTURES_DIR": str(tmp_path / "out"),
        "SMITH_TRACKER": "github",
        "SMITH_GITHUB_REPO": REPO,
        "SMITH_GITHUB_TOKEN": TOKEN,
        "SMITH_GITHUB_API_URL": github.base_url,
    }

    swept = run_in_process(tmp_path, "sweep", env=env)

    assert swept.code == 0, swept.stderr
    assert "tickets: 0 new" in swept.stdout
    assert "2 ticket(s) postponed: the tracker is rate limited until " in swept.stderr
    assert posts(github) == 1
    assert TOKEN not in swept.stdout + swept.stderr
