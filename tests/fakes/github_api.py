"""A local fake of the GitHub Issues REST API: the real PyGithub client talks HTTP to it.

It serves one repository's issues and comments, issue search, and the faults a tracker must survive:
a rate limit (403 with `Retry-After`), a 5xx, and an *ambiguous* failure where the write happened but
the client was told 502. Its search index can lag behind writes, as GitHub's does. It runs in its own
thread and event loop, because the tracker is a synchronous client called from the sweep's thread.

    with FakeGitHub("acme/smith-tickets", token="t0ken") as github:
        GitHubTracker("acme/smith-tickets", "t0ken", base_url=github.base_url, seconds_between_writes=0)
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

from aiohttp import web

# "rate_limit" (403 with Retry-After), "primary_limit" (403, remaining 0, reset in an hour),
# "secondary_limit" (403 naming the secondary limit, no Retry-After), "server_error", "ambiguous"
Fault = str
PRIMARY_RESET_SECONDS = 3600


@dataclass
class FakeIssue:
    number: int
    title: str
    body: str
    labels: list[str]
    state: str = "open"
    state_reason: str | None = None
    comments: list[str] = field(default_factory=list)
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    updated_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    repository: str = ""

    def html_url(self) -> str:
        return f"https://tracker.test/{self.repository}/issues/{self.number}"


class FakeGitHub:
    def __init__(self, repository: str, *, token: str) -> None:
        self.repository = repository
        self.token = token
        self.issues: dict[int, FakeIssue] = {}
        self.requests: list[tuple[str, str]] = []  # (method, path) of every request served
        # Scripted faults, taken in order by the next matching request: ("POST", "/issues") etc.
        self.faults: dict[tuple[str, str], deque[Fault]] = {}
        # Issues this recent (by number, newest first) are missing from search results.
        self.search_lag = 0
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._runner: web.AppRunner | None = None
        self.base_url = ""

    # --- the test's side ---------------------------------------------------------------------------

    def fail_next(self, method: str, suffix: str, *faults: Fault) -> None:
        """The next requests `method` whose path ends with `suffix` get these faults, in order."""
        with self._lock:
            self.faults.setdefault((method, suffix), deque()).extend(faults)

    def writes(self) -> list[tuple[str, str]]:
        return [(m, p) for m, p in self.requests if m in ("POST", "PATCH")]

    def __enter__(self) -> FakeGitHub:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=30)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(timeout=30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=30)

    async def _start(self) -> None:
        app = web.Application(middlewares=[self._middleware])
        repo = "/repos/{owner}/{name}"
        app.router.add_post(f"{repo}/issues", self._create)
        app.router.add_get(f"{repo}/issues", self._list)
        app.router.add_get(f"{repo}/issues/{{number}}", self._get)
        app.router.add_patch(f"{repo}/issues/{{number}}", self._edit)
        app.router.add_get(f"{repo}/issues/{{number}}/comments", self._comments)
        app.router.add_post(f"{repo}/issues/{{number}}/comments", self._comment)
        app.router.add_get("/search/issues", self._search)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}"

    # --- the server's side -------------------------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        with self._lock:
            self.requests.append((request.method, request.path))
            fault = self._take_fault(request.method, request.path)
        if request.headers.get("Authorization", "") not in (f"token {self.token}", f"Bearer {self.token}"):
            return web.json_response({"message": "Bad credentials"}, status=401)
        if fault == "rate_limit":
            return web.json_response(
                {"message": "API rate limit exceeded"},
                status=403,
                headers={"Retry-After": "1", "X-RateLimit-Remaining": "0"},
            )
        if fault == "primary_limit":
            reset = int(time.time()) + PRIMARY_RESET_SECONDS
            return web.json_response(
                {"message": "API rate limit exceeded for installation ID 1."},
                status=403,
                headers={"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(reset)},
            )
        if fault == "secondary_limit":
            return web.json_response(
                {"message": "You have exceeded a secondary rate limit. Please wait a few minutes."},
                status=403,
                headers={"X-RateLimit-Remaining": "4000"},
            )
        if fault == "server_error":
            return web.json_response({"message": "Server Error"}, status=500)
        response: web.StreamResponse = await handler(request)
        if fault == "ambiguous":
            return web.json_response({"message": "Bad Gateway"}, status=502)  # the write did happen
        return response

    def _take_fault(self, method: str, path: str) -> Fault | None:
        for (wanted, suffix), queue in self.faults.items():
            if wanted == method and path.endswith(suffix) and queue:
                return queue.popleft()
        return None

    def _issue_json(self, issue: FakeIssue) -> dict[str, Any]:
        api = f"{self.base_url}/repos/{self.repository}/issues/{issue.number}"
        return {
            "id": 1000 + issue.number,
            "number": issue.number,
            "title": issue.title,
            "body": issue.body,
            "state": issue.state,
            "state_reason": issue.state_reason,
            "labels": [{"name": name} for name in issue.labels],
            "url": api,
            "comments_url": f"{api}/comments",
            "html_url": issue.html_url(),
            "comments": len(issue.comments),
            "created_at": issue.created_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "updated_at": issue.updated_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        }

    def _issue(self, request: web.Request) -> FakeIssue:
        issue = self.issues.get(int(request.match_info["number"]))
        if issue is None:
            raise web.HTTPNotFound(text='{"message": "Not Found"}', content_type="application/json")
        return issue

    async def _create(self, request: web.Request) -> web.Response:
        data = await request.json()
        with self._lock:
            number = len(self.issues) + 1
            labels = list(data.get("labels") or [])
            issue = FakeIssue(
                number, data["title"], data.get("body") or "", labels, repository=self.repository
            )
            self.issues[number] = issue
        return web.json_response(self._issue_json(issue), status=201)

    async def _list(self, request: web.Request) -> web.Response:
        state = request.query.get("state", "open")
        labels = [label for label in request.query.get("labels", "").split(",") if label]
        since = request.query.get("since")
        chosen = [
            issue
            for issue in sorted(self.issues.values(), key=lambda i: i.number, reverse=True)
            if (state == "all" or issue.state == state)
            and all(label in issue.labels for label in labels)
            and (since is None or issue.updated_at.strftime("%Y-%m-%dT%H:%M:%SZ") >= since)
        ]
        return web.json_response([self._issue_json(issue) for issue in chosen])

    async def _get(self, request: web.Request) -> web.Response:
        return web.json_response(self._issue_json(self._issue(request)))

    async def _edit(self, request: web.Request) -> web.Response:
        data = await request.json()
        issue = self._issue(request)
        for key in ("title", "body", "state", "state_reason"):
            if key in data:
                setattr(issue, key, data[key])
        issue.updated_at = datetime.now(UTC)
        return web.json_response(self._issue_json(issue))

    async def _comments(self, request: web.Request) -> web.Response:
        issue = self._issue(request)
        return web.json_response(
            [{"id": index + 1, "body": body} for index, body in enumerate(issue.comments)]
        )

    async def _comment(self, request: web.Request) -> web.Response:
        data = await request.json()
        issue = self._issue(request)
        issue.comments.append(data["body"])
        issue.updated_at = datetime.now(UTC)
        return web.json_response({"id": len(issue.comments), "body": data["body"]}, status=201)

    async def _search(self, request: web.Request) -> web.Response:
        query = request.query.get("q", "")
        phrase = query.split('"')[1] if query.count('"') >= 2 else query
        newest = sorted(self.issues, reverse=True)[: self.search_lag]
        found = [
            self._issue_json(issue)
            for number, issue in sorted(self.issues.items())
            if number not in newest and phrase in issue.body
        ]
        return web.json_response({"total_count": len(found), "incomplete_results": False, "items": found})
