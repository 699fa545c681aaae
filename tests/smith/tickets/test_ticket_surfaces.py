"""Where engineers meet the tickets: `smith sweep` and `smith tickets` on the command line, the nightly
summary in the triage channel (new and reopened, with links), and the weekly digest's top root causes."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError

from gradecore.persistence.store import Store
from scheduler import JobConfig, Jobs
from smith.cli.errors import one_line
from smith.reports.digest import digest_sections
from smith.settings import Settings
from smith.sweep.job import run_sweep
from smith.tickets import TrackerSettingsError, build_tracker
from smith.tickets.github import GitHubTracker
from smith.tickets.tracker import MarkdownTracker
from tests.fakes.github_api import FakeGitHub
from tests.smith.cli.in_process import run_in_process
from tests.smith.cli.runner import database_url
from tests.smith.tickets.world import confirm_failures, occur_again

SETTLED = datetime(2026, 11, 2, 18, 0, tzinfo=UTC)


def test_smith_sweep_files_tickets_and_smith_tickets_lists_them(tmp_path: Path) -> None:
    from gradecore.persistence.db import create_db_engine, upgrade

    engine = create_db_engine(database_url(tmp_path))
    upgrade(engine)
    confirm_failures(Store(engine), SETTLED, {"secret": 3, "budget": 2})
    engine.dispose()
    env_dir = tmp_path / "out"
    (tmp_path / ".env").write_text(f"SMITH_FIXTURES_DIR={env_dir}\n", encoding="utf-8")

    swept = run_in_process(tmp_path, "sweep")
    assert swept.code == 0, swept.stderr
    assert "tickets: 2 new · 0 reopened" in swept.stdout
    assert len(list((env_dir / "tickets").glob("*.md"))) == 2

    listed = run_in_process(tmp_path, "tickets", "--json")
    assert listed.code == 0, listed.stderr
    rows = json.loads(listed.stdout)
    assert sorted((row["check"], row["total"], row["ups"], row["status"]) for row in rows) == [
        ("token_budget", 2, 2, "open"),
        ("tools_succeeded", 3, 3, "open"),
    ]
    assert all(row["ticket"].endswith(".md") for row in rows)
    table = run_in_process(tmp_path, "tickets")
    assert table.code == 0
    assert all(row["signature"] in table.stdout for row in rows)  # ids are never cut


def test_smith_tickets_on_an_empty_database_says_so(tmp_path: Path) -> None:
    from gradecore.persistence.db import create_db_engine, upgrade

    upgrade(create_db_engine(database_url(tmp_path)))
    result = run_in_process(tmp_path, "tickets")
    assert result.code == 0 and "no ours failures recorded yet" in result.stdout


async def test_the_nightly_summary_lists_new_and_reopened_tickets_with_links(
    store: Store, tmp_path: Path
) -> None:
    confirm_failures(store, SETTLED, {"secret": 2, "truncated": 1})
    with FakeGitHub("acme/queue", token="t") as github:
        tracker = GitHubTracker("acme/queue", "t", base_url=github.base_url, seconds_between_writes=0)
        moments = iter(
            [
                SETTLED + timedelta(days=1, hours=3),
                SETTLED + timedelta(days=17),
                SETTLED + timedelta(days=18, hours=3),
            ]
        )
        clock = {"now": next(moments)}
        jobs = Jobs(
            store,
            JobConfig(fixtures_dir=tmp_path, triage_channel="C0TRIAGE"),
            tracker=tracker,
            clock=lambda: clock["now"],
        )
        await jobs.tick()
        clock["now"] = next(moments)
        await jobs.tick()  # sixteen quiet days: both close
        occur_again(store, "truncated", 500, settled_at=SETTLED + timedelta(days=18))
        clock["now"] = next(moments)
        await jobs.tick()  # it recurs
        urls = {issue.html_url() for issue in github.issues.values()}

    texts = _summary_texts(store)
    # The quiet night (tickets only closed) posts no summary: it would have said nothing (docs/jobs.md).
    first, third = texts
    assert "New integration tickets" in first and all(f"<{url}|" in first for url in urls)
    assert "Reopened" in third and sum(f"<{url}|" in third for url in urls) == 1


def test_the_weekly_digest_ranks_root_causes_by_occurrences_this_week(store: Store, tmp_path: Path) -> None:
    confirm_failures(store, SETTLED, {"secret": 3, "timeout": 2, "truncated": 1})
    for index in range(4):
        occur_again(store, "timeout", 900 + index, settled_at=SETTLED + timedelta(days=8))
    now = SETTLED + timedelta(days=9)
    run_sweep(store, tmp_path, tracker=MarkdownTracker(tmp_path), now=now)
    with store.unit() as unit:
        lines = dict(digest_sections(unit, now, judge_drift=None))[
            "Top root causes of failures on our side (this week, vs last week)"
        ]
    # Four this week against the two of the week before.
    assert lines[0] == (
        "tools_succeeded: tool get_unit_profile → timeout after <n> calling <url> — 4 (+2 vs last week)"
    )
    assert len(lines) == 1  # the others happened only last week


def test_github_tracker_settings_are_checked_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SMITH_TRACKER", "github")
    monkeypatch.setenv("SMITH_GITHUB_TOKEN", "secret-token-value")
    with pytest.raises(TrackerSettingsError, match="needs SMITH_GITHUB_REPO") as missing:
        build_tracker(Settings(_env_file=None))  # type: ignore[call-arg]
    assert "secret-token-value" not in str(missing.value)
    monkeypatch.setenv("SMITH_GITHUB_REPO", "not a repo")
    with pytest.raises(ValidationError) as malformed:
        Settings(_env_file=None)  # type: ignore[call-arg]
    assert (
        one_line(malformed.value)
        == "invalid setting SMITH_GITHUB_REPO: Value error, must look like owner/name"
    )
    monkeypatch.setenv("SMITH_GITHUB_REPO", "acme/queue")
    assert isinstance(build_tracker(Settings(_env_file=None)), GitHubTracker)  # type: ignore[call-arg]
    monkeypatch.setenv("SMITH_TRACKER", "off")
    assert build_tracker(Settings(_env_file=None)) is None  # type: ignore[call-arg]


def _summary_texts(store: Store) -> list[str]:
    from sqlmodel import col, select

    from gradecore.persistence.entities import SlackPost

    with store.unit() as unit:
        posts = unit.session.exec(
            select(SlackPost)
            .where(col(SlackPost.idempotency_key).startswith("sweep:"))
            .order_by(col(SlackPost.id))
        ).all()
        return [json.dumps(post.payload, ensure_ascii=False) for post in posts]
