"""GitHub Issues as the tracker, through PyGithub (docs/tickets.md).

Reads and idempotent writes (GET, PATCH) are retried on a 5xx by urllib3's `Retry`. A POST is not
idempotent: after an ambiguous failure (a 5xx, a dropped connection) the issue or comment may exist,
so it is looked up by its hidden marker before being sent again.

Rate limits are honoured as GitHub's REST documentation says, for every request alike: with
`retry-after`, wait that long; with `x-ratelimit-remaining: 0` (the primary limit), send nothing until
`x-ratelimit-reset` — the sync stops for this run and the sweep summary names the tickets postponed;
otherwise (a secondary limit) wait at least a minute, doubling each time. A rate-limited request was
not performed and is simply sent again after the wait.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from github import Auth, Github, GithubException
from github.Issue import Issue
from github.Repository import Repository
from urllib3.util.retry import Retry

from smith.tickets.render import TicketContent, marker
from smith.tickets.tracker import TicketRef, TrackerError, TrackerRateLimited

log = logging.getLogger(__name__)
T = TypeVar("T")

POST_ATTEMPTS = 4
LONGEST_WAIT_SECONDS = 60.0  # between attempts after a 5xx
# A secondary limit without `retry-after`: GitHub says wait at least a minute, longer each time.
SECONDARY_WAIT_SECONDS = 60.0
RATE_LIMIT_WAITS = 2  # 60 s, then 120 s; a third limit postpones the rest of the sync
LONGEST_RATE_LIMIT_WAIT_SECONDS = 300.0  # a longer `retry-after` postpones instead of blocking the sweep
# The search index lags behind writes; issues created this recently are also looked for by listing.
LISTING_SLACK = timedelta(hours=1)


class GitHubTracker:
    name = "github"

    def __init__(
        self,
        repository: str,
        token: str,
        *,
        base_url: str | None = None,
        seconds_between_writes: float | None = None,
        backoff_seconds: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
    ) -> None:
        retry = Retry(
            total=5,
            backoff_factor=backoff_seconds,
            status_forcelist=(500, 502, 503, 504),
            # POST is left out on purpose: see the module docstring.
            allowed_methods=frozenset({"GET", "HEAD", "PATCH", "PUT", "DELETE"}),
            raise_on_status=False,  # the last 5xx reaches PyGithub, which raises it as it is
        )
        options: dict[str, object] = {"auth": Auth.Token(token), "retry": retry, "timeout": 30, "lazy": True}
        if base_url is not None:
            options["base_url"] = base_url
        if seconds_between_writes is not None:
            options["seconds_between_writes"] = seconds_between_writes
            options["seconds_between_requests"] = seconds_between_writes
        self._github = Github(**options)  # type: ignore[arg-type]
        self._repository_name = repository
        self._repository: Repository | None = None
        self._sleep = sleep
        self._clock = clock
        self._backoff = backoff_seconds
        self._limited_until: float | None = None  # GitHub refuses everything before then

    # --- the protocol ----------------------------------------------------------------------------

    def find(self, signature_id: str, *, created_since: datetime | None) -> TicketRef | None:
        wanted = marker(signature_id)
        found = self._guard(lambda: self._search(wanted))
        if found is None and created_since is not None:
            found = self._guard(lambda: self._list_since(wanted, created_since - LISTING_SLACK))
        return None if found is None else TicketRef(str(found.number), found.html_url)

    def create(self, content: TicketContent) -> TicketRef:
        def send() -> Issue:
            issue = self._repo().create_issue(
                title=content.title, body=content.body, labels=list(content.labels)
            )
            if not content.open:
                issue.edit(state="closed", state_reason="completed")
            return issue

        def look() -> Issue | None:
            return self._search(marker(content.signature_id)) or self._list_since(
                marker(content.signature_id), None
            )

        issue = self._post(send, look)
        return TicketRef(str(issue.number), issue.html_url)

    def update(self, ref: TicketRef, content: TicketContent) -> None:
        def edit() -> None:
            issue = self._repo().get_issue(int(ref.ref))
            state = "open" if content.open else "closed"
            if content.open:
                issue.edit(title=content.title, body=content.body, state=state)
            else:
                issue.edit(title=content.title, body=content.body, state=state, state_reason="completed")

        self._guard(edit)

    def comment(self, ref: TicketRef, key: str, text: str) -> None:
        tagged = f"{text}\n\n<!-- smith-comment: {key} -->"

        def has_it() -> bool:
            issue = self._repo().get_issue(int(ref.ref))
            return any(f"smith-comment: {key} -->" in (c.body or "") for c in issue.get_comments())

        if self._guard(has_it):
            return  # an earlier run posted it and stopped before recording that it had

        def send() -> bool:
            self._repo().get_issue(int(ref.ref)).create_comment(tagged)
            return True

        self._post(send, lambda: True if has_it() else None)

    # --- plumbing --------------------------------------------------------------------------------

    def _repo(self) -> Repository:
        if self._repository is None:
            self._repository = self._github.get_repo(self._repository_name)
        return self._repository

    def _search(self, wanted: str) -> Issue | None:
        query = f'"{wanted.removeprefix("<!-- ").removesuffix(" -->")}" repo:{self._repository_name} in:body'
        for result in self._github.search_issues(query):
            if wanted in (result.body or ""):
                return self._repo().get_issue(result.number)
        return None

    def _list_since(self, wanted: str, since: datetime | None) -> Issue | None:
        if since is None:
            issues = self._repo().get_issues(state="all", labels=["smith"])
        else:
            issues = self._repo().get_issues(state="all", labels=["smith"], since=since)
        for issue in issues:
            if wanted in (issue.body or ""):
                return issue
        return None

    def _guard(self, action: Callable[[], T]) -> T:
        for attempt in itertools.count():
            self._refuse_while_limited()
            try:
                return action()
            except GithubException as exc:
                if not _rate_limited(exc):
                    raise TrackerError(f"GitHub answered {exc.status}: {_message(exc)}") from None
                self._wait_out(exc, attempt)
            except OSError as exc:  # connection refused or reset, after urllib3's own retries
                raise TrackerError(f"GitHub unreachable: {type(exc).__name__}") from None
        raise AssertionError("unreachable")

    def _post(self, send: Callable[[], T], look: Callable[[], T | None]) -> T:
        """Send a POST once; after an ambiguous failure look for its effect before sending again."""
        last = "no attempt"
        limited = 0
        attempt = 0
        while attempt < POST_ATTEMPTS:
            self._refuse_while_limited()
            try:
                return send()
            except GithubException as exc:
                last = f"GitHub answered {exc.status}: {_message(exc)}"
                if _rate_limited(exc):
                    self._wait_out(exc, limited)
                    limited += 1
                    continue  # refused before it was performed: nothing to look for
                if exc.status < 500:
                    raise TrackerError(last) from None
            except OSError as exc:
                last = f"GitHub unreachable: {type(exc).__name__}"
            # A 5xx or a dropped connection: the write may have happened.
            self._sleep(min(LONGEST_WAIT_SECONDS, self._backoff * 2**attempt))
            attempt += 1
            found = self._guard(look)
            if found is not None:
                log.info("GitHub write had happened despite the error; not sending it again")
                return found
        raise TrackerError(f"gave up after {POST_ATTEMPTS} attempts: {last}")

    def _refuse_while_limited(self) -> None:
        if self._limited_until is not None and self._clock() < self._limited_until:
            raise TrackerRateLimited(datetime.fromtimestamp(self._limited_until, UTC))

    def _wait_out(self, exc: GithubException, waited: int) -> None:
        """Wait as GitHub asks before the request is sent again, or postpone (`TrackerRateLimited`)
        when that would hold the sweep too long: the primary limit until its reset, a long
        `retry-after`, a secondary limit that outlasted `RATE_LIMIT_WAITS` waits."""
        headers = {k.lower(): str(v) for k, v in (exc.headers or {}).items()}
        now = self._clock()
        wait = _seconds(headers.get("retry-after"))
        if wait is None and headers.get("x-ratelimit-remaining") == "0":
            reset = _seconds(headers.get("x-ratelimit-reset"))
            wait = max(0.0, reset - now) if reset is not None else SECONDARY_WAIT_SECONDS
            if wait > 0:
                self._postpone(now + wait)
        if wait is None:
            wait = SECONDARY_WAIT_SECONDS * 2**waited
        if waited >= RATE_LIMIT_WAITS or wait > LONGEST_RATE_LIMIT_WAIT_SECONDS:
            self._postpone(now + wait)
        log.warning("GitHub rate limit: waiting %.0f s before sending the request again", wait)
        self._sleep(wait)

    def _postpone(self, until: float) -> None:
        self._limited_until = until
        raise TrackerRateLimited(datetime.fromtimestamp(until, UTC))


def _message(exc: GithubException) -> str:
    data = exc.data
    if isinstance(data, dict) and isinstance(data.get("message"), str):
        return str(data["message"])[:200]
    return "no message"


def _rate_limited(exc: GithubException) -> bool:
    headers = {k.lower(): str(v) for k, v in (exc.headers or {}).items()}
    return exc.status in (403, 429) and (
        exc.status == 429
        or "retry-after" in headers
        or headers.get("x-ratelimit-remaining") == "0"
        or "rate limit" in _message(exc).lower()
    )


def _seconds(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
