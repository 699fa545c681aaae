"""Issue 20 (docs/verdicts.md): an act means what the person meant, wherever they put it.

Each test plays what a team does, through signed requests into the real Bolt endpoint and the fake
Slack Web API: staff react on the parent posts (👍, 👎, corrections in English and Spanish), a grade
whose headline is Clara's also failed something of ours, a channel id is mistyped and then fixed, a
conversation is re-sent with another property. The figures are counted by hand here and compared with
what every reader shows.
"""

from __future__ import annotations

import json
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Engine
from sqlmodel import col, select

from gradecore.model.contract import parse_conversation
from gradecore.persistence.entities import Fixture, GradeVerdict, SlackPost, TicketSignature, utcnow
from gradecore.persistence.grade_rows import frozen_copy
from gradecore.persistence.store.errors import PropertyChanged
from smith.outbox.reviewed import EDIT_INTERVAL
from smith.reports.digest import digest_sections
from smith.sweep.job import run_sweep
from smith.tickets.tracker import MarkdownTracker
from tests.conftest import load_demo
from tests.scenarios.listening import CHANNEL, Scene, running_scene, wait_until

LAMPLITER = "lampliter-unbacked-promise.json"  # BLOCK · unbacked promise: the failure is on turn t1
LANGUAGE = "camellia-wrong-language.json"  # HOLD · wrong language, on turn t1
DOUBLE = "camellia-double-send.json"  # BLOCK (Clara's) + a tool and a double send of ours
AGREEMENT_LINE = "Agreement with staff (7 days, 👎 included)"
OPENS_A_TICKET = "a 👍 here opens a ticket for engineers"
HAS_A_TICKET = "engineers have a ticket for it"


async def _stats(scene: Scene, user: str) -> str:
    before = len(scene.fake.responses)
    response = await scene.command(user, "stats")
    assert response.status == 200
    await wait_until(lambda: len(scene.fake.responses) > before, what="the stats answer")
    return str(scene.fake.responses[-1].body["text"])


async def _home(scene: Scene, user: str) -> str:
    event = {"type": "app_home_opened", "user": user, "channel": "D0HOME", "tab": "home"}
    event["event_ts"] = f"{time.time():.6f}"
    before = scene.fake.home_view(user)
    assert (await scene.post_event(event)).status == 200
    await wait_until(lambda: scene.fake.home_view(user) is not before, what="views.publish")
    view = scene.fake.home_view(user)
    assert view is not None
    return json.dumps(view["blocks"], ensure_ascii=False)


async def _deliver_after_the_edit_interval(scene: Scene) -> None:
    """Edits of one post are at least EDIT_INTERVAL apart (coalesced): the waiting one is made due as if
    the interval had passed, so no test waits on the wall clock; it must be exactly one per post."""
    with scene.store.unit() as unit:
        query = select(SlackPost).where(
            col(SlackPost.operation) == "update", col(SlackPost.status) == "pending"
        )
        waiting = list(unit.session.exec(query))
        assert len({p.parent_post_id for p in waiting}) == len(waiting), "one waiting edit per post"
        for post in waiting:
            assert post.next_attempt_at <= utcnow() + EDIT_INTERVAL + timedelta(seconds=5)
            post.next_attempt_at = utcnow()
            unit.session.add(post)
    await scene.drain()


def _all_text(scene: Scene, channel: str = CHANNEL) -> str:
    return "\n".join(json.dumps([m.text, m.blocks], ensure_ascii=False) for m in scene.fake.messages(channel))


# --- points 1 and 3: a 👎 on the parent counts, in every reader ------------------------------------------


async def test_acts_on_the_parent_count_in_agreement_disagreements_stats_home_and_digest(
    engine: Engine, tmp_path: Path
) -> None:
    async with running_scene(engine) as scene:
        promise = await scene.seed(LAMPLITER)
        language = await scene.seed(LANGUAGE)
        double = await scene.seed(DOUBLE)
        scene.add_grader("U0ANA", "ana@example.test")
        scene.add_grader("U0BO", "bo@example.test")
        # Everything on the parents, as staff do.
        await scene.react("U0ANA", "-1", promise.parent_ts)  # disagrees
        await scene.react("U0BO", "-1", promise.parent_ts)  # disagrees
        await scene.react("U0ANA", "+1", language.parent_ts)  # agrees (HOLD)
        await scene.reply(
            "U0BO", language.parent_ts, "Debería ser HOLD — le escribió en otro idioma"
        )  # agrees
        await scene.reply("U0ANA", double.parent_ts, "Should be PASS — one code to a prospect is fine")
        await scene.settle()
        # An act written before this reading existed: a plain row on the parent, as the writer always
        # stored them (nothing new is stored on acts; the dimensions are derived at read time).
        with scene.store.unit() as unit:
            carol = unit.users.add("carol@example.test", "Carol")
            assert carol.id is not None
            old, _ = unit.verdicts.add(
                GradeVerdict(
                    grader_user_id=carol.id,
                    item_type="conversation",
                    item_ref=promise.conversation_id,
                    conversation_id=promise.conversation_id,
                    property_id="lampliter",
                    signal="down",
                    principles=[],
                    error_class="grader",
                    machine_grade_id=promise.parent_grade.id,
                    machine_grade_at_time=frozen_copy(promise.parent_grade),
                    origin="slack_reaction",
                )
            )
            old_id = old.id

        # By hand: six standing acts; the 👍 and the Spanish HOLD agree; three 👎 and the PASS do not.
        # κ is over the three acts that name a level (the 👍, HOLD, PASS).
        code, out, err = await scene.run_smith("agreement", "--json", cwd=tmp_path)
        assert code == 0, err
        rows = {row["grader"]: row for row in json.loads(out)}
        assert (rows["all"]["acts"], rows["all"]["agreeing"], rows["all"]["kappa_n"]) == (6, 2 / 6, 3)
        assert (rows["ana@example.test"]["acts"], rows["ana@example.test"]["agreeing"]) == (3, 1 / 3)
        assert (rows["bo@example.test"]["acts"], rows["bo@example.test"]["agreeing"]) == (2, 1 / 2)
        assert (rows["carol@example.test"]["acts"], rows["carol@example.test"]["agreeing"]) == (1, 0.0)

        # By check: a parent act counts under the turn's check that made the verdict.
        code, out, err = await scene.run_smith("agreement", "--by", "check", "--json", cwd=tmp_path)
        assert code == 0, err
        checks = {row["check"]: row for row in json.loads(out)}
        assert checks["no_ungrounded_policy_claim"]["acts"] == 3
        assert checks["no_ungrounded_policy_claim"]["agreeing"] == 0.0
        assert checks["reply_language_matches"]["acts"] == 2
        assert checks["all"]["acts"] == 6  # each act once in the total

        # The three parent 👎 (the old row included) are listed under the rule entry of the turn.
        code, out, err = await scene.run_smith("rules", "disagreements", "--json", cwd=tmp_path)
        assert code == 0, err
        entries = [row for row in json.loads(out) if row["check"] == "no_ungrounded_policy_claim"]
        assert entries, out
        for entry in entries:
            assert entry["disagreeing"] == 3 and entry["acts"] == 3
            assert old_id in entry["disagreeing_verdicts"]

        # The same figure in /smith stats (this channel), the Home tab and the digest.
        assert (await _stats(scene, "U0ANA")).endswith("33% agree with Smith")
        assert "you agreed with Smith on 1 of 3 (33%)" in await _home(scene, "U0ANA")
        with scene.store.unit() as unit:
            sections = dict(digest_sections(unit, utcnow() + timedelta(minutes=1), judge_drift=None))
        assert sections[AGREEMENT_LINE] == ["33% agree with Smith (2 of 6 acts)"]


# --- points 2 and 4: a mixed grade routes both ways, and the post's promise stays true ------------------


async def test_a_thumbs_up_on_a_mixed_grade_makes_a_clara_fixture_and_a_ticket_and_the_post_says_so(
    engine: Engine, tmp_path: Path
) -> None:
    async with running_scene(engine) as scene:
        double = await scene.seed(DOUBLE)
        parent_before = _all_text(scene)
        # Nothing is filed yet: no post may claim a ticket.
        assert OPENS_A_TICKET in parent_before and HAS_A_TICKET not in parent_before

        scene.add_grader("U0ANA", "ana@example.test")
        await scene.react("U0ANA", "+1", double.parent_ts)  # the headline is Clara's
        await scene.settle()
        [verdict] = scene.current()
        assert verdict.error_class == "clara"  # the row keeps the headline's owner, for reading

        out = tmp_path / "fixtures"
        report = run_sweep(scene.store, out, tracker=MarkdownTracker(tmp_path / "tickets"))
        assert report.written["clara"] == 1  # the Clara fixture
        with scene.store.unit() as unit:
            filed = unit.session.exec(select(TicketSignature)).all()
            [ledger] = unit.session.exec(select(Fixture)).all()
        # …and the conversation-scoped double send of ours, which the parent judges, is confirmed and filed.
        status = {s.check_id: (s.status, s.tracker_ref is not None) for s in filed}
        assert status["one_message_per_trigger"] == ("open", True)
        assert status["tools_succeeded"] == ("watching", False)  # seen, not confirmed: no ticket
        assert ledger.kind == "clara"

        await _deliver_after_the_edit_interval(scene)
        # The turn reply's tool failure (HOLD, below the BLOCK headline) was not judged by the parent 👍:
        # it has no ticket, and its reply still says what makes one; nothing claims a ticket.
        reply = scene.fake.message(CHANNEL, double.turn_ts["t1"])
        assert OPENS_A_TICKET in json.dumps(reply.blocks, ensure_ascii=False)
        assert HAS_A_TICKET not in _all_text(scene)

        # A 👍 in the thread judges the turn's failures: its tool failure is confirmed and filed too.
        await scene.react("U0ANA", "+1", double.turn_ts["t1"])
        await scene.settle()
        run_sweep(scene.store, out, tracker=MarkdownTracker(tmp_path / "tickets"))
        await _deliver_after_the_edit_interval(scene)
        with scene.store.unit() as unit:
            checks = {s.check_id for s in unit.session.exec(select(TicketSignature)) if s.tracker_ref}
        assert checks == {"one_message_per_trigger", "tools_succeeded"}
        # Every confirmed ours signature has its ticket, and the reply that promised one now says so,
        # edited in place through the outbox (the tracker here has no web addresses: no link).
        reply = scene.fake.message(CHANNEL, double.turn_ts["t1"])
        assert reply.edit_count >= 1
        assert HAS_A_TICKET in json.dumps(reply.blocks, ensure_ascii=False)
        assert OPENS_A_TICKET not in _all_text(scene)


# --- point 5: the channel is the property's current one --------------------------------------------------


async def test_a_mistyped_channel_fixed_sends_the_parent_and_its_reply_to_the_right_channel(
    engine: Engine, tmp_path: Path
) -> None:
    async with running_scene(engine) as scene:
        conversation = parse_conversation(load_demo(LAMPLITER))
        prop = conversation.property
        with scene.store.unit() as unit:
            unit.properties.set(prop.id, name=prop.name, timezone=prop.timezone, channel_id="C0TYPO")
        scene.smith.ingestor.ingest(conversation)
        await scene.drain()
        with scene.store.unit() as unit:
            posts = unit.outbox.for_conversation(conversation.conversation_id)
            assert {(p.kind, p.status) for p in posts} == {("conversation", "failed"), ("turn", "pending")}

        code, out, err = await scene.run_smith("outbox", "--json", cwd=tmp_path)
        assert code == 0, err
        listed = json.loads(out)["posts"]
        assert {(p["property"], p["conversation"]) for p in listed} == {
            (prop.id, conversation.conversation_id)
        }

        code, out, err = await scene.run_smith(
            "properties", "set", prop.id, "--channel", CHANNEL, cwd=tmp_path
        )
        assert code == 0, err
        assert f"1 posts that failed for a channel reason re-queued for {CHANNEL}" in out
        await scene.drain()

        with scene.store.unit() as unit:
            posts = unit.outbox.for_conversation(conversation.conversation_id)
            assert {(p.kind, p.status, p.channel) for p in posts} == {
                ("conversation", "posted", CHANNEL),
                ("turn", "posted", CHANNEL),
            }
        [parent] = scene.fake.top_level(CHANNEL)
        assert len(scene.fake.thread(CHANNEL, parent.ts)) == 2  # the parent and its reply, together


async def test_a_waiting_post_goes_to_the_channel_the_property_has_when_it_is_sent(engine: Engine) -> None:
    """`smith outbox --retry-failed` after the channel was fixed by another way (the store): the relay
    reads the property's channel when it sends, not the one the post was queued with."""
    async with running_scene(engine) as scene:
        conversation = parse_conversation(load_demo(LANGUAGE))
        prop = conversation.property
        with scene.store.unit() as unit:
            unit.properties.set(prop.id, name=prop.name, timezone=prop.timezone, channel_id="C0TYPO")
        scene.smith.ingestor.ingest(conversation)
        with scene.store.unit() as unit:  # fixed before the relay ran: nothing was sent yet
            unit.properties.set(prop.id, channel_id=CHANNEL)
        await scene.drain()
        assert scene.fake.calls_to("chat.postMessage")
        assert all(call["channel"] == CHANNEL for call in scene.fake.calls_to("chat.postMessage"))
        with scene.store.unit() as unit:
            query = select(SlackPost).where(col(SlackPost.conversation_id) == conversation.conversation_id)
            assert {p.status for p in unit.session.exec(query)} == {"posted"}


# --- point 6: a conversation's property never changes ----------------------------------------------------


async def test_a_conversation_re_sent_with_another_property_is_refused(
    engine: Engine, tmp_path: Path
) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        document: dict[str, Any] = json.loads(load_demo(LAMPLITER))
        document["property"]["id"] = "birchwood"
        document["messages"][-1]["text"] += " (edited)"
        moved = parse_conversation(json.dumps(document).encode())

        refused: PropertyChanged | None = None
        try:
            scene.smith.ingestor.ingest(moved)
        except PropertyChanged as error:
            refused = error
        assert refused is not None
        assert "'lampliter'" in str(refused) and "'birchwood'" in str(refused)

        source = tmp_path / "moved.json"
        source.write_text(json.dumps(document))
        code, _, err = await scene.run_smith("ingest", str(source), cwd=tmp_path)
        assert code == 1
        assert err.strip().count("\n") == 0 and "'birchwood'" in err and "never changes" in err

        await scene.drain()
        with scene.store.unit() as unit:
            record = unit.conversations.get(posted.conversation_id)
            assert record is not None and record.property_id == "lampliter"
            assert unit.properties.get("birchwood") is None  # nothing stored, not even the property
            updates = [
                p for p in unit.outbox.for_conversation(posted.conversation_id) if p.operation == "update"
            ]
        assert updates == [] and scene.fake.calls_to("chat.update") == []
