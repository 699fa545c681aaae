"""Every row of the Slack error table, answered by the fake Slack server and read through slack_sdk.

Each test has the fake answer one documented error to one method, then checks what Smith makes of it:
the failure the relay acts on (chat.postMessage, chat.update), whether a join is refused for good or
tried again (conversations.join), and the handling of a Home tab publish (views.publish).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from gradecore.persistence.store import Store
from gradecore.persistence.store.outbox import FAILED, POSTED
from smith.transports.base import (
    AmbiguousFailure,
    DeliveryFailure,
    JoinRequired,
    PermanentFailure,
    RateLimited,
    TransientFailure,
)
from smith.transports.live import LiveTransport, build_post_client
from smith.transports.slack_errors import COMMON_ERRORS, METHOD_ERRORS, Handling, classify, handling
from tests.fakes.slack_api import FakeSlack
from tests.smith.outbox.harness import FAST, queue_plain, relay_for, statuses

APT, OPS = "C0APT", "C0OPS"
METHODS = ["chat.postMessage", "chat.update", "views.publish", "conversations.join"]
ROWS = [
    (method, error)
    for method in METHODS
    for error in sorted({*COMMON_ERRORS, *METHOD_ERRORS[method]})
    # A 429 is not an `ok: false` answer the fake serves per error string; it has its own test below.
    if error not in ("ratelimited", "rate_limited")
]
EXPECTED_FAILURE: dict[Handling, type[DeliveryFailure]] = {
    Handling.PERMANENT: PermanentFailure,
    Handling.RETRY_LATER: TransientFailure,
    Handling.RATE_LIMITED: RateLimited,
    Handling.JOIN_THEN_RETRY: JoinRequired,
    Handling.LOOK_UP: AmbiguousFailure,
}
PAYLOAD = {
    "text": "hello",
    "metadata": {"event_type": "smith_post", "event_payload": {"idempotency_key": "k"}},
}


def _transport(fake: FakeSlack) -> LiveTransport:
    return LiveTransport(build_post_client(fake.bot_token, base_url=fake.api_url))


async def _failure_of(fake: FakeSlack, method: str) -> DeliveryFailure | bool:
    """What Smith makes of the next call to `method` (the fake has been told how to answer it)."""
    transport = _transport(fake)
    try:
        if method == "chat.postMessage":
            await transport.post(APT, PAYLOAD, thread_ts=None)
        elif method == "chat.update":
            await transport.update(APT, fake.top_level(APT)[0].ts, PAYLOAD)
        elif method == "conversations.join":
            return await transport.join(APT)
        else:
            client = AsyncWebClient(token=fake.bot_token, base_url=fake.api_url + "/", retry_handlers=[])
            try:
                await client.views_publish(user_id="U0MARIA", view={"type": "home", "blocks": []})
            except SlackApiError as exc:
                return classify(method, exc)
    except DeliveryFailure as failure:
        return failure
    raise AssertionError(f"{method} should have failed")


@pytest.mark.parametrize(("method", "error"), ROWS, ids=[f"{m}:{e}" for m, e in ROWS])
async def test_each_documented_error_gets_its_handling(method: str, error: str) -> None:
    expected = handling(method, error)
    async with FakeSlack.running(channels=[APT], post_window_s=0) as fake:
        if method == "chat.update":
            await _transport(fake).post(APT, PAYLOAD, thread_ts=None)
        fake.fail_next(method, error)
        outcome = await _failure_of(fake, method)

    assert [f.kind for f in fake.faults_served] == [error]
    if method == "conversations.join":
        # A refused join returns False (ops are told to invite the bot); anything else is raised so
        # the post is tried again later.
        if expected is Handling.PERMANENT:
            assert outcome is False
        else:
            assert type(outcome) is EXPECTED_FAILURE[expected]
        return
    assert type(outcome) is EXPECTED_FAILURE[expected], outcome
    if expected in (Handling.PERMANENT, Handling.JOIN_THEN_RETRY):
        assert isinstance(outcome, PermanentFailure) and outcome.code == error


@pytest.mark.parametrize(
    ("method", "error"),
    [
        # The errors the issue found retried for minutes: each is now final at once.
        ("chat.postMessage", "restricted_action_read_only_channel"),
        ("chat.postMessage", "invalid_metadata_format"),
        ("chat.postMessage", "metadata_too_large"),
        ("chat.postMessage", "too_many_attachments"),
        ("chat.postMessage", "team_access_not_granted"),
        ("chat.update", "edit_window_closed"),
        ("chat.update", "is_inactive"),
    ],
)
def test_the_errors_once_taken_for_temporary_are_permanent(method: str, error: str) -> None:
    assert handling(method, error) is Handling.PERMANENT


def test_no_row_names_an_error_slack_never_sends() -> None:
    # `invalid_metadata` was listed once; Slack's pages say invalid_metadata_format / _schema.
    rows = {*COMMON_ERRORS, *(error for errors in METHOD_ERRORS.values() for error in errors)}
    assert "invalid_metadata" not in rows


def test_an_unlisted_error_is_retried_later() -> None:
    assert handling("chat.postMessage", "some_new_error") is Handling.RETRY_LATER


async def test_a_429_waits_for_retry_after() -> None:
    async with FakeSlack.running(channels=[APT], post_window_s=0) as fake:
        fake.fail_next("chat.postMessage", "ratelimited")
        outcome = await _failure_of(fake, "chat.postMessage")
    assert isinstance(outcome, RateLimited) and outcome.retry_after >= 1


@pytest.mark.parametrize(
    ("method", "expected"),
    [
        # A new message may have been stored behind the proxy: look it up before sending again.
        ("chat.postMessage", AmbiguousFailure),
        # An edit and a Home tab are the same after a second send: simply retried.
        ("chat.update", TransientFailure),
        ("views.publish", TransientFailure),
    ],
)
async def test_an_html_5xx_from_a_proxy_is_named_by_its_status(
    method: str, expected: type[DeliveryFailure]
) -> None:
    async with FakeSlack.running(channels=[APT], post_window_s=0) as fake:
        if method == "chat.update":
            await _transport(fake).post(APT, PAYLOAD, thread_ts=None)
        fake.fail_next(method, "html_502")
        outcome = await _failure_of(fake, method)
    assert type(outcome) is expected
    assert str(outcome) == "slack answered 502"


async def test_not_in_channel_is_a_join_required_outcome() -> None:
    async with FakeSlack.running(channels=[APT], member_of=[], post_window_s=0) as fake:
        outcome = await _failure_of(fake, "chat.postMessage")
    assert isinstance(outcome, JoinRequired) and outcome.code == "not_in_channel"


async def test_a_refused_join_fails_the_post_and_tells_ops_to_invite_the_bot(store: Store) -> None:
    (key,) = queue_plain(store, APT, ["private-0"])
    async with FakeSlack.running(channels=[APT, OPS], member_of=[OPS], post_window_s=0) as fake:
        fake.fail_next("conversations.join", "method_not_supported_for_channel_type")  # a private channel
        stats = await relay_for(store, fake, replace(FAST, ops_channel=OPS)).drain(within=10)

        assert fake.calls_to("conversations.join") == [{"channel": APT}]
        assert stats.failed == 1 and stats.retried == 0  # at once, not after minutes of retries
        assert statuses(store)[key] == FAILED
        [notice] = fake.top_level(OPS)
        assert "could not join it (a private channel?): invite the bot to it" in notice.text


async def test_a_join_slack_fails_on_its_side_is_tried_again_later(store: Store) -> None:
    (key,) = queue_plain(store, APT, ["join-later-0"])
    async with FakeSlack.running(channels=[APT], member_of=[], post_window_s=0) as fake:
        fake.fail_next("conversations.join", "internal_error")
        stats = await relay_for(store, fake).drain(within=10)

        assert len(fake.calls_to("conversations.join")) == 2  # the first failed; the retry joined
        assert stats.posted == 1 and stats.failed == 0
        assert statuses(store)[key] == POSTED
