"""The engineers' queue end to end: 200 confirmed *ours* failures over 6 causes and 4 properties become
exactly 6 tickets with the right counts; a rerun changes nothing; a new occurrence updates one ticket;
14 quiet days close them; a recurrence reopens one — as markdown files and as issues in a fake GitHub."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from gradecore.persistence.store import Store
from smith.sweep.job import run_sweep
from smith.tickets.github import GitHubTracker
from smith.tickets.signature import signatures_of
from smith.tickets.tracker import MarkdownTracker, Tracker
from tests.fakes.github_api import FakeGitHub
from tests.smith.tickets.world import PROPERTIES, SPREAD, confirm_failures, failing_conversation, occur_again

SETTLED = datetime(2026, 11, 2, 18, 0, tzinfo=UTC)
REPO = "acme/clara-integrations"
TOKEN = "ghp_fake_token_for_tests"


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    with FakeGitHub(REPO, token=TOKEN) as fake:
        yield fake


def github_tracker(fake: FakeGitHub) -> GitHubTracker:
    return GitHubTracker(REPO, TOKEN, base_url=fake.base_url, seconds_between_writes=0)


def expected_counts() -> dict[str, tuple[int, Counter[str]]]:
    """Per cause's signature id: the total and the per-property counts the world was built with."""
    expected: dict[str, tuple[int, Counter[str]]] = {}
    index = 0
    for cause, count in SPREAD.items():
        signature = _signature_of(cause, index)
        places: Counter[str] = Counter()
        for offset in range(count):
            places[PROPERTIES[(index + offset) % len(PROPERTIES)]] += 1
        expected[signature] = (count, places)
        index += count
    return expected


def _signature_of(cause: str, index: int) -> str:
    """The signature id the grader gives this cause, read from a real grade of one of its conversations."""
    from cerebrus import grade

    result = grade(failing_conversation(cause, index, settled_at=SETTLED))
    dimensions = [d.model_dump(mode="json") for d in result.turns[0].dimensions]
    (signature,) = signatures_of(dimensions)
    return signature.id


def test_two_hundred_confirmed_failures_become_six_tickets_kept_current(
    store: Store, tmp_path: Path, github: FakeGitHub, backend: str
) -> None:
    # Each tracker once and each backend once (the pairs, not the whole matrix: neither tracker's
    # behaviour depends on the database): GitHub's claim-then-create runs on PostgreSQL's row locks.
    kind = "markdown" if backend == "sqlite" else "github"
    out = tmp_path / "fixtures"
    tracker: Tracker = MarkdownTracker(out) if kind == "markdown" else github_tracker(github)
    confirm_failures(store, SETTLED)

    day_one = SETTLED + timedelta(days=1)
    report = run_sweep(store, out, tracker=tracker, now=day_one)
    assert dict(report.written) == {"ours": 200}
    assert len(report.tickets.new) == 6 and report.tickets.failed == []

    expected = expected_counts()
    with store.unit() as unit:
        signatures = {s.id: s for s in unit.tickets.all()}
        assert set(signatures) == set(expected)
        for signature_id, (total, places) in expected.items():
            counts = unit.tickets.counts(signature_id, now=day_one)
            assert (counts.total, counts.last_7_days, counts.ups) == (total, total, total)
            assert counts.by_property == dict(places)
            assert signatures[signature_id].status == "open"
    bodies = _bodies(kind, out, github)
    assert set(bodies) == set(expected)
    for signature_id, (total, _) in expected.items():
        assert f"total: **{total}**" in bodies[signature_id]
        assert f"👍 on the failure: {total}" in bodies[signature_id]
        assert (
            "> `Thanks for letting us know," in bodies[signature_id]
        )  # an anonymized example, inert (issue 22)
        assert "Priya" not in bodies[signature_id]  # the resident's name never reaches a ticket
    if kind == "github":
        assert len(github.issues) == 6
        assert all(set(issue.labels) >= {"smith", "ours"} for issue in github.issues.values())
        assert {issue.labels[2] for issue in github.issues.values()} == {"tools", "shape", "truth"}

    # Re-running changes nothing: no write to the tracker, the same bytes on disk.
    writes_before, files_before = list(github.writes()), _files(out)
    again = run_sweep(store, out, tracker=tracker, now=day_one)
    assert (again.tickets.new, again.tickets.updated, again.tickets.closed) == ([], 0, [])
    assert github.writes() == writes_before and _files(out) == files_before

    # A new occurrence (graded, nobody reviewed it yet) updates exactly one ticket.
    secret = _signature_of("secret", 0)
    occur_again(store, "secret", 1000, settled_at=SETTLED + timedelta(days=2))
    later = run_sweep(store, out, tracker=tracker, now=SETTLED + timedelta(days=2, hours=1))
    assert later.tickets.updated == 1 and later.tickets.new == []
    assert "total: **51**" in _bodies(kind, out, github)[secret]
    if kind == "github":
        (write,) = github.writes()[len(writes_before) :]
        assert write[0] == "PATCH"
    else:
        changed = {path for path, data in _files(out).items() if files_before.get(path) != data}
        assert changed == {f"tickets/{secret}.md"}

    # Fourteen quiet days: every ticket is closed as "quiet — probably fixed".
    quiet = run_sweep(store, out, tracker=tracker, now=SETTLED + timedelta(days=16))
    assert len(quiet.tickets.closed) == 6
    for body in _bodies(kind, out, github).values():
        assert "quiet — probably fixed" in body
    if kind == "github":
        assert {issue.state for issue in github.issues.values()} == {"closed"}
        assert all(any("Quiet — probably fixed" in c for c in i.comments) for i in github.issues.values())

    # It happens again: that one ticket reopens, and says so; the others stay closed.
    occur_again(store, "secret", 1001, settled_at=SETTLED + timedelta(days=20))
    back = run_sweep(store, out, tracker=tracker, now=SETTLED + timedelta(days=20, hours=1))
    assert [link.signature_id for link in back.tickets.reopened] == [secret]
    bodies = _bodies(kind, out, github)
    assert "reopened" in bodies[secret]
    assert all("quiet — probably fixed" in body for sid, body in bodies.items() if sid != secret)
    if kind == "github":
        states = {sid: issue.state for sid, issue in _issues_by_signature(github).items()}
        assert states[secret] == "open" and Counter(states.values()) == {"closed": 5, "open": 1}
        assert any("Reopened" in c for c in _issues_by_signature(github)[secret].comments)
    with store.unit() as unit:
        reopened = unit.tickets.get(secret)
        assert reopened is not None and (reopened.status, reopened.times_reopened) == ("open", 1)


class DiesAfterCreating(GitHubTracker):
    """The real tracker, in a process that dies the moment GitHub has accepted the new issue."""

    def create(self, content):  # type: ignore[no-untyped-def]
        super().create(content)
        raise SystemExit("killed between create and record")


def test_a_crash_after_create_and_before_recording_leaves_one_issue(
    store: Store, tmp_path: Path, github: FakeGitHub
) -> None:
    confirm_failures(store, SETTLED, {"secret": 3})
    now = SETTLED + timedelta(days=1)
    dying = DiesAfterCreating(REPO, TOKEN, base_url=github.base_url, seconds_between_writes=0)
    with pytest.raises(SystemExit):
        run_sweep(store, tmp_path, tracker=dying, now=now)
    assert len(github.issues) == 1
    github.search_lag = 1  # the search index has not seen the new issue yet; listing must find it

    report = run_sweep(store, tmp_path, tracker=github_tracker(github), now=now)
    assert len(github.issues) == 1
    assert [link.url for link in report.tickets.new] == [github.issues[1].html_url()]
    with store.unit() as unit:
        (signature,) = unit.tickets.all()
        assert (signature.tracker_ref, signature.creating_since) == ("1", None)
    # And from then on it is simply kept current.
    assert run_sweep(store, tmp_path, tracker=github_tracker(github), now=now).tickets.new == []
    assert len(github.issues) == 1


def test_rate_limits_ambiguous_failures_and_outages_neither_lose_nor_duplicate(
    store: Store, tmp_path: Path, github: FakeGitHub
) -> None:
    confirm_failures(store, SETTLED, {"secret": 2, "truncated": 2, "budget": 2})
    now = SETTLED + timedelta(days=1)
    waits: list[float] = []
    tracker = GitHubTracker(
        REPO, TOKEN, base_url=github.base_url, seconds_between_writes=0, backoff_seconds=0, sleep=waits.append
    )

    # GitHub is down for the whole first run: nothing is filed, nothing is recorded as filed.
    github.fail_next("GET", "/search/issues", *["server_error"] * 100)
    github.fail_next("POST", "/issues", *["server_error"] * 100)
    down = run_sweep(store, tmp_path, tracker=tracker, now=now)
    assert down.tickets.new == [] and len(down.tickets.failed) == 3
    assert github.issues == {}
    github.faults.clear()

    # Next run: one create is rate limited (waited out, sent again), one is answered 502 after it
    # happened (found by its marker, not sent again).
    github.fail_next("POST", "/issues", "rate_limit", "ambiguous")
    report = run_sweep(store, tmp_path, tracker=tracker, now=now)
    assert len(report.tickets.new) == 3 and report.tickets.failed == []
    assert len(github.issues) == 3
    assert 1.0 in waits  # Retry-After honoured
    markers = Counter(
        line
        for issue in github.issues.values()
        for line in issue.body.splitlines()
        if "smith-signature" in line
    )
    assert set(markers.values()) == {1}


def _issues_by_signature(github: FakeGitHub) -> dict[str, object]:
    found = {}
    for issue in github.issues.values():
        line = next(line for line in issue.body.splitlines() if "smith-signature:" in line)
        found[line.split("smith-signature:")[1].split("-->")[0].strip()] = issue
    return found  # type: ignore[return-value]


def _bodies(kind: str, out: Path, github: FakeGitHub) -> dict[str, str]:
    if kind == "github":
        return {sid: issue.body for sid, issue in _issues_by_signature(github).items()}  # type: ignore[attr-defined]
    return {path.stem: path.read_text(encoding="utf-8") for path in (out / "tickets").glob("*.md")}


def _files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
