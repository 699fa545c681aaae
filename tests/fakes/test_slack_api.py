"""The fake Slack Web API, exercised through the real slack_sdk AsyncWebClient over HTTP."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import aiohttp
import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.models.blocks import HeaderBlock, SectionBlock
from slack_sdk.socket_mode.aiohttp import SocketModeClient
from slack_sdk.socket_mode.request import SocketModeRequest
from slack_sdk.socket_mode.response import SocketModeResponse
from slack_sdk.web.async_client import AsyncWebClient

from .slack_api import FakeSlack, User

APT = "C0APT1"
OTHER = "C0APT2"
OUTSIDE = "C0OUTSIDE"
OLD = "C0ARCHIVED"
STAFF = User("U0MARIA", "maria", email="Maria@Example.com", real_name="Maria Lopez")
META = {"event_type": "smith_grade", "event_payload": {"idempotency_key": "conv-1:parent"}}


@pytest.fixture
async def fake() -> AsyncIterator[FakeSlack]:
    async with FakeSlack.running(
        channels=[APT, OTHER, OUTSIDE],
        archived=[OLD],
        member_of=[APT, OTHER],
        users=[STAFF],
        post_window_s=0.3,
        fault_delay_s=1.5,
    ) as running:
        yield running


@pytest.fixture
def client(fake: FakeSlack) -> AsyncWebClient:
    # No retry handlers: tests must see the raw failure, not slack_sdk's recovery from it.
    return AsyncWebClient(token=fake.bot_token, base_url=fake.api_url, retry_handlers=[], timeout=1)


async def error_of(call: object) -> SlackApiError:
    assert asyncio.iscoroutine(call)
    with pytest.raises(SlackApiError) as caught:
        await call
    return caught.value


async def test_auth_test_names_the_bot_and_rejects_other_tokens(
    fake: FakeSlack, client: AsyncWebClient
) -> None:
    reply = await client.auth_test()
    assert (reply["user_id"], reply["team_id"], reply["bot_id"]) == ("U0SMITH", "T0FAKE", fake.bot_id)
    assert fake.url == fake.api_url
    assert fake.api_url.endswith("/api/")

    stranger = AsyncWebClient(token="xoxb-wrong", base_url=fake.api_url, retry_handlers=[])
    assert (await error_of(stranger.auth_test())).response["error"] == "invalid_auth"
    anonymous = AsyncWebClient(base_url=fake.api_url, retry_handlers=[])
    assert (await error_of(anonymous.auth_test())).response["error"] == "invalid_auth"
    assert (await error_of(client.api_call("chat.scheduleMessage"))).response["error"] == "unknown_method"


async def test_post_and_thread_reply(fake: FakeSlack, client: AsyncWebClient) -> None:
    parent = await client.chat_postMessage(channel=APT, text="BLOCK · unbacked promise")
    await asyncio.sleep(0.35)
    reply = await client.chat_postMessage(channel=APT, text="Turn 2", thread_ts=parent["ts"])

    assert re.fullmatch(r"\d{10}\.\d{6}", parent["ts"])
    assert reply["ts"] > parent["ts"]
    assert [m.text for m in fake.thread(APT, parent["ts"])] == ["BLOCK · unbacked promise", "Turn 2"]
    assert fake.message(APT, reply["ts"]).thread_ts == parent["ts"]

    history = await client.conversations_history(channel=APT)
    assert [m["ts"] for m in history["messages"]] == [parent["ts"]]
    assert history["messages"][0]["reply_count"] == 1
    assert history["messages"][0]["bot_id"] == fake.bot_id
    replies = await client.conversations_replies(channel=APT, ts=parent["ts"])
    assert [m["ts"] for m in replies["messages"]] == [parent["ts"], reply["ts"]]
    assert replies["messages"][1]["thread_ts"] == parent["ts"]

    missing = await error_of(client.conversations_replies(channel=APT, ts="1764540000.999999"))
    assert missing.response["error"] == "thread_not_found"
    bad_thread = await error_of(client.chat_postMessage(channel=OTHER, text="x", thread_ts="1.000001"))
    assert bad_thread.response["error"] == "invalid_thread_ts"


async def test_update_edits_the_message_in_place(fake: FakeSlack, client: AsyncWebClient) -> None:
    posted = await client.chat_postMessage(channel=APT, text="1 of 6 turns flagged")
    updated = await client.chat_update(channel=APT, ts=posted["ts"], text="2 of 6 turns flagged")

    assert updated["ts"] == posted["ts"]
    assert [m.text for m in fake.messages(APT)] == ["2 of 6 turns flagged"]
    assert fake.message(APT, posted["ts"]).edit_count == 1
    missing = await error_of(client.chat_update(channel=APT, ts="1764540000.000001", text="x"))
    assert missing.response["error"] == "message_not_found"

    human = fake.add_message(APT, "hello", user=STAFF.id)
    foreign = await error_of(client.chat_update(channel=APT, ts=human.ts, text="x"))
    assert foreign.response["error"] == "cant_update_message"


async def test_metadata_is_returned_only_when_asked_for(fake: FakeSlack, client: AsyncWebClient) -> None:
    parent = await client.chat_postMessage(channel=APT, text="parent", metadata=META)
    await asyncio.sleep(0.35)
    await client.chat_postMessage(channel=APT, text="reply", thread_ts=parent["ts"], metadata=META)

    plain = await client.conversations_history(channel=APT)
    assert "metadata" not in plain["messages"][0]
    with_meta = await client.conversations_history(channel=APT, include_all_metadata=True)
    assert with_meta["messages"][0]["metadata"] == META

    plain_thread = await client.conversations_replies(channel=APT, ts=parent["ts"])
    assert all("metadata" not in m for m in plain_thread["messages"])
    thread = await client.conversations_replies(channel=APT, ts=parent["ts"], include_all_metadata=True)
    assert [m["metadata"] for m in thread["messages"]] == [META, META]
    assert len(fake.posts_by_metadata("idempotency_key", "conv-1:parent")) == 2
    assert fake.posts_by_metadata("idempotency_key", "conv-9:parent") == []


async def test_form_encoded_bodies_with_json_strings_are_understood(
    fake: FakeSlack, client: AsyncWebClient
) -> None:
    blocks = [SectionBlock(text="*Turn 1*").to_dict()]
    form = {"channel": APT, "text": "t", "blocks": json.dumps(blocks), "metadata": json.dumps(META)}
    posted = await client.api_call("chat.postMessage", data=form)

    stored = fake.message(APT, posted["ts"])
    assert (stored.blocks, stored.metadata) == (blocks, META)
    assert fake.calls_to("chat.postMessage")[0]["channel"] == APT
    assert all("token" not in params for _, params in fake.calls)


async def test_second_post_within_the_window_gets_429_with_retry_after(
    fake: FakeSlack, client: AsyncWebClient
) -> None:
    await client.chat_postMessage(channel=APT, text="first")
    limited = await error_of(client.chat_postMessage(channel=APT, text="second"))
    await client.chat_postMessage(channel=OTHER, text="another channel is not limited")

    assert limited.response.status_code == 429
    assert limited.response["error"] == "ratelimited"
    assert int(limited.response.headers["Retry-After"]) >= 1
    assert [(hit.method, hit.channel) for hit in fake.rate_limited] == [("chat.postMessage", APT)]
    assert [m.text for m in fake.messages(APT)] == ["first"]

    await asyncio.sleep(0.35)
    await client.chat_postMessage(channel=APT, text="second, after the window")
    assert len(fake.messages(APT)) == 2


async def test_http_500_fault_fails_once_and_stores_nothing(fake: FakeSlack, client: AsyncWebClient) -> None:
    fake.fail_next("chat.postMessage", "http_500")
    failed = await error_of(client.chat_postMessage(channel=APT, text="x"))

    assert failed.response.status_code == 500
    assert fake.messages(APT) == []
    await client.chat_postMessage(channel=APT, text="x")
    assert len(fake.messages(APT)) == 1


async def test_timeout_fault_stalls_past_the_client_timeout(fake: FakeSlack, client: AsyncWebClient) -> None:
    fake.fail_next("chat.postMessage", "timeout")
    with pytest.raises(TimeoutError):
        await client.chat_postMessage(channel=APT, text="slow")
    assert fake.messages(APT) == []

    # Like Slack, the stalled request still completes after its delay although the caller gave up.
    await asyncio.sleep(0.7)
    assert [m.text for m in fake.messages(APT)] == ["slow"]


async def test_drop_after_accept_stores_the_message_but_never_answers(
    fake: FakeSlack, client: AsyncWebClient
) -> None:
    fake.fail_next("chat.postMessage", "drop_after_accept")
    with pytest.raises(aiohttp.ClientConnectionError):
        await client.chat_postMessage(channel=APT, text="ambiguous", metadata=META)

    assert [m.text for m in fake.messages(APT)] == ["ambiguous"]
    assert len(fake.posts_by_metadata("idempotency_key")) == 1


async def test_default_client_retry_after_a_drop_posts_twice() -> None:
    # Why the relay must disable slack_sdk's connection-error retry for chat.postMessage.
    async with FakeSlack.running(post_window_s=0) as fake:
        retrying = AsyncWebClient(token=fake.bot_token, base_url=fake.api_url)
        fake.fail_next("chat.postMessage", "drop_after_accept")
        await retrying.chat_postMessage(channel="C0APT1", text="once?")
        assert [m.text for m in fake.messages("C0APT1")] == ["once?", "once?"]


async def test_slack_error_faults_and_times(fake: FakeSlack, client: AsyncWebClient) -> None:
    fake.fail_next("users.info", "user_not_found", times=2)
    fake.fail_next("conversations.history", "ratelimited")
    for _ in range(2):
        assert (await error_of(client.users_info(user=STAFF.id))).response["error"] == "user_not_found"
    assert (await client.users_info(user=STAFF.id))["ok"]

    limited = await error_of(client.conversations_history(channel=APT))
    assert (limited.response.status_code, limited.response.headers["Retry-After"]) == (429, "1")
    assert [f.kind for f in fake.faults_served] == ["user_not_found", "user_not_found", "ratelimited"]
    with pytest.raises(ValueError, match="unknown fault kind"):
        fake.fail_next("chat.postMessage", "Explode!")


@pytest.mark.parametrize(
    ("blocks", "text", "error"),
    [
        ([{"type": "divider"}] * 51, "t", "invalid_blocks"),
        ([{"type": "section", "text": {"type": "mrkdwn", "text": "x" * 3001}}], "t", "invalid_blocks"),
        ([{"type": "header", "text": {"type": "plain_text", "text": "h" * 151}}], "t", "invalid_blocks"),
        ([{"type": "section", "text": {"type": "markdown", "text": "x"}}], "t", "invalid_blocks"),
        ([{"type": "context", "elements": [{"type": "mrkdwn", "text": "c"}] * 11}], "t", "invalid_blocks"),
        (
            [
                {
                    "type": "actions",
                    "elements": [{"type": "button", "text": {"type": "plain_text", "text": "b" * 76}}],
                }
            ],
            "t",
            "invalid_blocks",
        ),
        ([{"type": "divider", "block_id": "b" * 256}], "t", "invalid_blocks"),
        (None, "x" * 40_001, "msg_too_long"),
        pytest.param(
            None, "", "no_text", marks=pytest.mark.filterwarnings("ignore:The top-level `text`:UserWarning")
        ),
    ],
)
async def test_slack_limits_are_enforced(
    fake: FakeSlack, client: AsyncWebClient, blocks: list[dict[str, object]] | None, text: str, error: str
) -> None:
    rejected = await error_of(client.chat_postMessage(channel=APT, text=text, blocks=blocks))
    assert rejected.response["error"] == error
    assert fake.messages(APT) == []


async def test_blocks_at_the_limits_are_accepted(fake: FakeSlack, client: AsyncWebClient) -> None:
    blocks = [HeaderBlock(text="h" * 150), SectionBlock(text="x" * 3000)] + [SectionBlock(text="s")] * 48
    posted = await client.chat_postMessage(channel=APT, text="t", blocks=blocks)
    assert len(fake.message(APT, posted["ts"]).blocks or []) == 50


async def test_invalid_metadata_is_rejected(fake: FakeSlack, client: AsyncWebClient) -> None:
    bad = {"event_type": "smith grade!", "event_payload": {}}
    rejected = await error_of(client.chat_postMessage(channel=APT, text="t", metadata=bad))
    assert rejected.response["error"] == "invalid_metadata"


async def test_users_info(fake: FakeSlack, client: AsyncWebClient) -> None:
    maria = (await client.users_info(user=STAFF.id))["user"]
    assert (maria["profile"]["email"], maria["is_bot"]) == ("Maria@Example.com", False)
    assert (await client.users_info(user=fake.bot_user_id))["user"]["is_bot"] is True
    assert (await error_of(client.users_info(user="U0NOBODY"))).response["error"] == "user_not_found"


async def test_views_open_records_the_modal(fake: FakeSlack, client: AsyncWebClient) -> None:
    view = {"type": "modal", "title": {"type": "plain_text", "text": "Correct grade"}, "blocks": []}
    opened = await client.views_open(trigger_id="123.456.abc", view=view)

    assert opened["view"]["id"] == fake.views[0].view_id
    assert (fake.views[0].trigger_id, fake.views[0].view) == ("123.456.abc", view)
    too_long = {**view, "title": {"type": "plain_text", "text": "t" * 25}}
    rejected = await error_of(client.views_open(trigger_id="123.456.abc", view=too_long))
    assert rejected.response["error"] == "invalid_arguments"
    assert len(fake.views) == 1


async def test_membership_join_and_channel_errors(fake: FakeSlack, client: AsyncWebClient) -> None:
    outside = await error_of(client.chat_postMessage(channel=OUTSIDE, text="t"))
    assert outside.response["error"] == "not_in_channel"

    joined = await client.conversations_join(channel=OUTSIDE)
    assert joined["channel"]["is_member"] is True
    assert fake.channel(OUTSIDE).is_member
    await client.chat_postMessage(channel=OUTSIDE, text="t")
    assert (await client.conversations_join(channel=OUTSIDE))["warning"] == "already_in_channel"

    archived = await error_of(client.chat_postMessage(channel=OLD, text="t"))
    assert archived.response["error"] == "is_archived"
    assert (await error_of(client.conversations_join(channel=OLD))).response["error"] == "is_archived"
    missing = await error_of(client.chat_postMessage(channel="C0NOPE", text="t"))
    assert missing.response["error"] == "channel_not_found"


async def test_ephemeral_is_recorded_but_not_in_history(fake: FakeSlack, client: AsyncWebClient) -> None:
    await client.chat_postEphemeral(channel=APT, user=STAFF.id, text="Your Slack account is not linked")

    assert [(e.user, e.text) for e in fake.ephemerals] == [(STAFF.id, "Your Slack account is not linked")]
    assert (await client.conversations_history(channel=APT))["messages"] == []
    unknown = await error_of(client.chat_postEphemeral(channel=APT, user="U0NOBODY", text="t"))
    assert unknown.response["error"] == "user_not_found"


async def test_reactions_get(fake: FakeSlack, client: AsyncWebClient) -> None:
    posted = await client.chat_postMessage(channel=APT, text="flagged")
    fake.add_reaction(APT, posted["ts"], "+1", STAFF.id)

    got = await client.reactions_get(channel=APT, timestamp=posted["ts"])
    assert got["message"]["reactions"] == [{"name": "+1", "users": [STAFF.id], "count": 1}]


async def test_history_pages_newest_first_with_a_cursor() -> None:
    async with FakeSlack.running(post_window_s=0) as quick:
        client = AsyncWebClient(token=quick.bot_token, base_url=quick.api_url, retry_handlers=[])
        for n in range(3):
            await client.chat_postMessage(channel="C0APT1", text=f"m{n}")
        first = await client.conversations_history(channel="C0APT1", limit=2)
        rest = await client.conversations_history(
            channel="C0APT1", limit=2, cursor=first["response_metadata"]["next_cursor"]
        )
    assert [m["text"] for m in first["messages"]] == ["m2", "m1"]
    assert first["has_more"]
    assert [m["text"] for m in rest["messages"]] == ["m0"]
    assert not rest["has_more"]


# -- Socket Mode -------------------------------------------------------------------------------------

SOCKET_WAIT_S = 30.0  # generous: these waits normally take milliseconds


async def test_connections_open_wants_the_app_token(fake: FakeSlack, client: AsyncWebClient) -> None:
    app = AsyncWebClient(base_url=fake.api_url, retry_handlers=[])
    opened = await app.apps_connections_open(app_token=fake.app_token)
    assert re.fullmatch(r"ws://127\.0\.0\.1:\d+/link/\?ticket=\d+&app_id=A0SMITH", opened["url"])

    as_bot = await error_of(app.apps_connections_open(app_token=fake.bot_token))
    assert as_bot.response["error"] == "not_allowed_token_type"
    unknown = await error_of(app.apps_connections_open(app_token="xapp-wrong"))
    assert unknown.response["error"] == "invalid_auth"
    as_app = AsyncWebClient(token=fake.app_token, base_url=fake.api_url, retry_handlers=[])
    assert (await error_of(as_app.auth_test())).response["error"] == "not_allowed_token_type"


async def test_slack_sdk_socket_mode_client_connects_hears_hello_acks_and_closes(fake: FakeSlack) -> None:
    web = AsyncWebClient(base_url=fake.api_url, retry_handlers=[])
    sdk = SocketModeClient(app_token=fake.app_token, web_client=web, auto_reconnect_enabled=False)
    heard: asyncio.Queue[dict[str, object]] = asyncio.Queue()

    async def on_message(_client: object, message: dict[str, object], _raw: str | None) -> None:
        await heard.put(message)

    async def ack(client: SocketModeClient, request: SocketModeRequest) -> None:
        await client.send_socket_mode_response(SocketModeResponse(envelope_id=request.envelope_id))

    sdk.message_listeners.append(on_message)
    sdk.socket_mode_request_listeners.append(ack)
    try:
        await sdk.connect()
        async with asyncio.timeout(SOCKET_WAIT_S):
            session = await fake.socket_session()
            hello = await heard.get()
            assert hello["type"] == "hello"
            assert hello["connection_info"] == {"app_id": "A0SMITH"}

            await session.send_envelope({"type": "event_callback", "event_id": "Ev1"}, envelope_id="env-1")
            assert await session.ack_of("env-1") == {"envelope_id": "env-1"}
            delivered = await heard.get()
            assert (delivered["type"], delivered["envelope_id"]) == ("events_api", "env-1")
    finally:
        await sdk.close()
    async with asyncio.timeout(SOCKET_WAIT_S):
        await session.ended.wait()
    assert session.client_close_code == aiohttp.WSCloseCode.OK
    assert not session.closed_by_fake


async def test_a_socket_dropped_without_a_close_frame_is_told_apart(fake: FakeSlack) -> None:
    url = urlsplit(fake.socket_mode.connections_open(fake.root_url)["url"])
    # The opening handshake by hand, so the connection can then end as a killed process's does.
    reader, writer = await asyncio.open_connection(url.hostname, url.port)
    writer.write(
        f"GET {url.path}?{url.query} HTTP/1.1\r\nHost: {url.netloc}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    async with asyncio.timeout(SOCKET_WAIT_S):
        status = await reader.readline()
        assert status.startswith(b"HTTP/1.1 101"), status
        session = await fake.socket_session()
        writer.close()  # no close frame: the TCP connection just ends
        await writer.wait_closed()
        await session.ended.wait()
    assert session.client_close_code is None
    assert not session.closed_by_fake


async def test_stopping_the_fake_closes_open_sockets_from_its_side() -> None:
    async with aiohttp.ClientSession() as http:
        async with FakeSlack.running() as running:
            ws = await http.ws_connect(running.socket_mode.connections_open(running.root_url)["url"])
            async with asyncio.timeout(SOCKET_WAIT_S):
                session = await running.socket_session()
                assert (await ws.receive_json())["type"] == "hello"
            stopping = asyncio.create_task(running.stop())
            async with asyncio.timeout(SOCKET_WAIT_S):
                closing = await ws.receive()
                await stopping
        assert closing.type == aiohttp.WSMsgType.CLOSE
        assert closing.data == aiohttp.WSCloseCode.GOING_AWAY
        assert session.closed_by_fake
        assert session.client_close_code is None
