"""Issue 25, point 3: `smith digest [--post] [--json]` and `smith home --user U` show what the weekly job
and the App Home tab would show now, from the configured database."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sqlmodel import select

from gradecore.persistence.entities import SlackPost
from tests.conftest import DEMO_DATA
from tests.smith.cli.in_process import run_in_process
from tests.smith.cli.runner import reading

LAMPLITER = str(DEMO_DATA / "lampliter-unbacked-promise.json")


def _graded(workdir: Path) -> None:
    """The Lampliter conversation graded, and its posts delivered to the property's channel (a ts each,
    as the relay records them)."""
    result = run_in_process(workdir, "ingest", LAMPLITER)
    assert result.code == 0, result.stderr
    with reading(workdir) as unit:
        for number, post in enumerate(unit.session.exec(select(SlackPost)).all(), start=1):
            post.channel, post.ts, post.status = "C0LAMPLITER", f"1700000000.{number:06d}", "posted"
            unit.session.add(post)
    mapped = run_in_process(workdir, "properties", "set", "lampliter", "--channel", "C0LAMPLITER")
    assert mapped.code == 0, mapped.stderr


def test_digest_prints_the_weekly_sections(workdir: Path) -> None:
    _graded(workdir)
    result = run_in_process(workdir, "digest")
    assert result.code == 0, result.stderr
    assert re.search(r"SMITH WEEKLY DIGEST · \d{4}-W\d{2}", result.stdout)
    assert "Reaction rate per channel (7 days)" in result.stdout
    assert "Lampliter" in result.stdout
    assert "judge lane off" in result.stdout


def test_digest_json_is_the_block_kit_message(workdir: Path) -> None:
    _graded(workdir)
    result = run_in_process(workdir, "digest", "--json")
    assert result.code == 0, result.stderr
    printed = json.loads(result.stdout)
    assert re.fullmatch(r"\d{4}-W\d{2}", printed["week"])
    assert printed["message"]["blocks"][0]["type"] == "header"
    assert printed["message"]["text"]


def test_digest_post_queues_once_for_the_triage_channel(workdir: Path) -> None:
    _graded(workdir)
    refused = run_in_process(workdir, "digest", "--post")
    assert (
        refused.one_error_line() == "smith: --post needs SMITH_TRIAGE_CHANNEL, the channel the digest goes to"
    )
    triage = {"SMITH_TRIAGE_CHANNEL": "C0TRIAGE"}
    first = run_in_process(workdir, "digest", "--post", env=triage)
    again = run_in_process(workdir, "digest", "--post", env=triage)
    assert re.fullmatch(r"digest \d{4}-W\d{2}: queued for C0TRIAGE\n", first.stdout), first.stderr
    assert "already queued for C0TRIAGE" in again.stdout
    with reading(workdir) as unit:
        posts = unit.session.exec(select(SlackPost).where(SlackPost.kind == "digest")).all()
    assert len(posts) == 1
    assert posts[0].channel == "C0TRIAGE"


def test_home_shows_what_waits_for_a_staff_member(workdir: Path) -> None:
    _graded(workdir)
    added = run_in_process(workdir, "users", "add", "maria@camellia.example", "--name", "María")
    assert added.code == 0, added.stderr
    result = run_in_process(workdir, "home", "--user", "maria@camellia.example")
    assert result.code == 0, result.stderr
    assert "SMITH — WHAT WAITS FOR YOU" in result.stdout
    assert "1 post waits for a review" in result.stdout
    assert "BLOCK · unbacked promise" in result.stdout


def test_home_of_an_unlinked_slack_account_is_the_not_linked_tab(workdir: Path) -> None:
    result = run_in_process(workdir, "home", "--user", "U0NOBODY")
    assert result.code == 0
    assert "U0NOBODY is not a linked, active staff member" in result.stderr
    assert "not linked" in result.stdout.lower()


def test_home_of_an_unknown_email_is_one_error_line(workdir: Path) -> None:
    result = run_in_process(workdir, "home", "--user", "nobody@example.test")
    assert (
        result.one_error_line()
        == "smith: no user with the e-mail address 'nobody@example.test' (see `smith users list`)"
    )
