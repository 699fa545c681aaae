"""Issue 20's proof (docs/verdicts.md): a team's first month, played end to end.

Three properties and forty conversations (the labelled corpus and the bundled examples, each given a
property of the team, an id of its own and a settled time spread over the month) go through the real
ingest and relay into the fake Slack. Birchwood's channel is mistyped at first and fixed with `smith
properties set --channel` and `smith outbox --retry-failed` half-way through. Staff act the way they do,
mostly on the parent posts, through signed requests into the real Bolt endpoint: 👍, 👎, corrections in
English and Spanish as thread replies and in the correction modal, one 👍 taken back, and a 👍 on a
mixed-owner grade (Clara's headline, a failure of ours beside it). The nightly sweep then runs with the
fake GitHub tracker.

Afterwards the figures are counted by hand here, from the acts this test made, and compared with what
the product says: `smith agreement --json`, `smith rules disagreements --json`, the tickets, and every
message in the fake Slack (in its property's channel, and claiming no ticket that was not filed).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlmodel import col, select

from blocks.copydeck import deck_for
from gradecore.model.contract import Conversation, parse_conversation
from gradecore.persistence.entities import MachineGrade, SlackPost, TicketOccurrence, TicketSignature, utcnow
from smith.outbox.reviewed import EDIT_INTERVAL
from smith.sweep.job import run_sweep
from smith.tickets.github import GitHubTracker
from smith.tickets.signature import signatures_of
from tests.conftest import load_demo
from tests.fakes.github_api import FakeGitHub
from tests.fakes.slack_state import StoredMessage
from tests.scenarios import slack_requests as sr
from tests.scenarios.listening import Scene, running_scene, wait_until

CORPUS = Path(__file__).parent.parent / "corpus"
EXPECTED: dict[str, dict[str, Any]] = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))

# The team's three properties, and the channel each should post to.
LAMPLITER, CAMELLIA, BIRCHWOOD = "lampliter", "camellia", "birchwood"
NAMES = {LAMPLITER: "Lampliter", CAMELLIA: "Camellia", BIRCHWOOD: "Birchwood"}
CHANNELS = {LAMPLITER: "C0LAMPLITER", CAMELLIA: "C0CAMELLIA", BIRCHWOOD: "C0BIRCHWOOD"}
MISTYPED = "C0BIRCHWOD"  # one O short: no such channel in the workspace
TEAM = [LAMPLITER, CAMELLIA, BIRCHWOOD]

# Thirty-six labelled corpus cases (41-47 wait for grading v3), and four bundled examples.
CORPUS_CASES = sorted(name for name in EXPECTED if 5 <= int(name[:2]) <= 40)
EXAMPLES = [
    "lampliter-unbacked-promise.json",
    "camellia-wrong-language.json",
    "camellia-double-send.json",  # BLOCK (Clara's access code) + a double send and a tool failure of ours
    "birchwood-rent-mismatch.json",
]
MONTH_START = datetime(2026, 11, 6, 15, 0, tzinfo=UTC)
_INSTANT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})")

HAS_A_TICKET = "engineers have a ticket for it"
OPENS_A_TICKET = "a 👍 here opens a ticket for engineers"
_BULLET = re.compile(r"• \*(?P<title>[^*\n]+)\* — (?P<body>.*?)(?=\n• |\Z)", re.DOTALL)
_LINK = re.compile(r"<(https?://[^|>]+)\|")


@dataclass(frozen=True)
class Month:
    """The forty conversations as ingested: by the short name this test calls them."""

    conversations: dict[str, Conversation]

    def id(self, name: str) -> str:
        return self.conversations[name].conversation_id


def _shifted(value: Any, by: timedelta) -> Any:
    """Every instant in the document moved by `by` (whole weeks: weekdays and office hours stay true)."""
    if isinstance(value, str) and _INSTANT.fullmatch(value):
        moved = datetime.fromisoformat(value.replace("Z", "+00:00")) + by
        return moved.isoformat().replace("+00:00", "Z")
    if isinstance(value, list):
        return [_shifted(item, by) for item in value]
    if isinstance(value, dict):
        return {key: _shifted(item, by) for key, item in value.items()}
    return value


def _the_month() -> tuple[Month, dict[str, str]]:
    """Forty documents given to the team: a property each, an id of their own, a settled time on the
    month's day `index`; and the machine level the labelled corpus expects of each corpus case."""
    conversations: dict[str, Conversation] = {}
    expected_levels: dict[str, str] = {}
    sources = [(name, load_demo(name)) for name in EXAMPLES]
    sources += [(name, (CORPUS / name).read_bytes()) for name in CORPUS_CASES]
    for index, (name, raw) in enumerate(sources):
        document: dict[str, Any] = json.loads(raw)
        short = name.removesuffix(".json")
        prop = short.split("-")[0] if short.split("-")[0] in TEAM else TEAM[index % 3]
        settled = datetime.fromisoformat(document["settled_at"].replace("Z", "+00:00"))
        target = MONTH_START + timedelta(hours=18 * index)
        document = _shifted(document, timedelta(weeks=round((target - settled) / timedelta(weeks=1))))
        document["property"] = {**document["property"], "id": prop, "name": NAMES[prop]}
        document["conversation_id"] = f"{prop}-{index:02d}-{document['conversation_id'][:8]}"
        conversations[short] = parse_conversation(json.dumps(document).encode())
        if name in EXPECTED:
            expected_levels[short] = str(EXPECTED[name]["level"])
    return Month(conversations), expected_levels


# --- acting as staff do, in the channel where the post is --------------------------------------------


@dataclass(frozen=True)
class Post:
    channel: str
    ts: str
    grade: MachineGrade


def _post(scene: Scene, conversation_id: str, turn_id: str | None = None) -> Post:
    with scene.store.unit() as unit:
        found = next(
            p
            for p in unit.outbox.for_conversation(conversation_id)
            if p.operation == "post" and p.turn_id == turn_id
        )
        grade = unit.grades.get(found.machine_grade_id or "")
    assert found.channel is not None and found.ts is not None and grade is not None
    return Post(found.channel, found.ts, grade)


async def _react(scene: Scene, user: str, name: str, post: Post, *, added: bool = True) -> None:
    response = await scene.post_event(sr.reaction(user, name, post.channel, post.ts, added=added))
    assert response.status == 200, await response.text()


async def _reply(scene: Scene, user: str, post: Post, text: str) -> None:
    stored = scene.fake.add_message(post.channel, text, user=user, thread_ts=post.ts)
    event = sr.message(user, post.channel, stored.ts, text, thread_ts=post.ts)
    response = await scene.post_event(event)
    assert response.status == 200, await response.text()


async def _correct_in_the_modal(
    scene: Scene, user: str, post: Post, level: str, reason: str, *, new_principle: str | None = None
) -> None:
    button = next(
        element
        for block in scene.fake.message(post.channel, post.ts).blocks or []
        for element in block.get("elements", [])
        if element.get("action_id") == "smith_correct_grade"
    )
    before = len(scene.fake.views)
    click = sr.button_click(
        user, post.channel, post.ts, str(button["value"]), response_url=scene.fake.response_url("m")
    )
    assert (await scene.interact(click)).status == 200
    await wait_until(lambda: len(scene.fake.views) > before, what="views.open")
    opened = scene.fake.views[-1]
    view = {**opened.view, "id": opened.view_id}
    submitted = sr.view_submission(
        user, view, view_id=opened.view_id, level=level, new_principle=new_principle, reason=reason
    )
    response = await scene.interact(submitted)
    assert response.status == 200
    assert (await response.read()) in (b"", b"{}"), "the modal closed: the correction was accepted"


@dataclass(frozen=True)
class Act:
    """One act this test made, and what the grade it acted on said: the hand count's input."""

    grader: str
    signal: str  # up | down | correction
    machine_level: str
    expected_level: str | None = None

    @property
    def agrees(self) -> bool:
        """docs/verdicts.md, written out: a 👍 or a correction to the machine's own level agrees; a 👎 or a
        correction to another level does not."""
        if self.signal == "up":
            return True
        return self.signal == "correction" and self.expected_level == self.machine_level

    @property
    def level_named(self) -> str | None:
        """The level the act says the grade should be: a 👍 the machine's own, a 👎 none."""
        return self.machine_level if self.signal == "up" else self.expected_level

    @property
    def names_a_level(self) -> bool:
        return self.level_named is not None


# --- reading what the grades show, by hand -----------------------------------------------------------


def _failing(dimensions: Sequence[Mapping[str, Any]] | None) -> list[Mapping[str, Any]]:
    return [
        d for d in dimensions or () if d.get("outcome") == "fail" and d.get("colours_verdict") is not False
    ]


def _turn_grades(scene: Scene, conversation_id: str) -> list[MachineGrade]:
    """Each turn's latest grade: every conversation here was graded once."""
    with scene.store.unit() as unit:
        latest: dict[str, MachineGrade] = {}
        for grade in unit.grades.for_conversation(conversation_id):
            if grade.item_type == "turn" and grade.turn_id is not None:
                latest[grade.turn_id] = grade
        return list(latest.values())


def _judged(scene: Scene, post: Post) -> list[Mapping[str, Any]]:
    """What an act on `post` judges: a turn reply its turn's failing dimensions; the parent its
    conversation-scoped failing dimensions and every turn's failing dimension at the headline's level."""
    judged = _failing(post.grade.dimensions)
    if post.grade.item_type == "conversation":
        for turn in _turn_grades(scene, post.grade.conversation_id):
            judged += [d for d in _failing(turn.dimensions) if d.get("level") == post.grade.level]
    return judged


def _shown(scene: Scene, grade_id: str) -> list[Mapping[str, Any]]:
    """The failing dimensions a post shows: a turn reply its own; the parent its turns' too."""
    with scene.store.unit() as unit:
        grade = unit.grades.get(grade_id)
    assert grade is not None
    shown = _failing(grade.dimensions)
    if grade.item_type == "conversation":
        for turn in _turn_grades(scene, grade.conversation_id):
            shown += _failing(turn.dimensions)
    return shown


def _ours(dimensions: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [d for d in dimensions if d.get("owner") == "ours"]


def _title(dimension: Mapping[str, Any], locale: str) -> str:
    return deck_for(locale).headline(str(dimension["level"]), str(dimension["reason"]["slug"]))


def _texts(message: StoredMessage) -> str:
    parts = [message.text or ""]
    for block in message.blocks or []:
        text = block.get("text")
        if isinstance(text, dict):
            parts.append(str(text.get("text", "")))
        for element in block.get("elements", []):
            if isinstance(element, dict) and isinstance(element.get("text"), str):
                parts.append(str(element["text"]))
    return "\n".join(parts)


async def _deliver_the_waiting_edits(scene: Scene) -> None:
    """Edits of one post are coalesced, at least EDIT_INTERVAL apart: the waiting ones are made due as if
    the interval had passed (no test waits on the wall clock), then delivered."""
    with scene.store.unit() as unit:
        query = select(SlackPost).where(
            col(SlackPost.operation) == "update", col(SlackPost.status) == "pending"
        )
        for post in unit.session.exec(query):
            assert post.next_attempt_at <= utcnow() + EDIT_INTERVAL + timedelta(seconds=5)
            post.next_attempt_at = utcnow()
            unit.session.add(post)
    await scene.drain()


# --- the month ----------------------------------------------------------------------------------------


async def test_a_teams_first_month(engine: Engine, tmp_path: Path) -> None:
    month, corpus_levels = _the_month()
    assert len(month.conversations) == 40
    assert {c.property.id for c in month.conversations.values()} == set(TEAM)
    in_order = sorted(month.conversations.values(), key=lambda c: c.settled_at)

    async with running_scene(engine, channels=list(CHANNELS.values())) as scene:
        # Set up as `smith properties set` would; Birchwood's channel id is mistyped.
        with scene.store.unit() as unit:
            for prop in TEAM:
                channel = MISTYPED if prop == BIRCHWOOD else CHANNELS[prop]
                unit.properties.set(prop, name=NAMES[prop], timezone="America/Chicago", channel_id=channel)

        # The first half of the month: Birchwood's posts fail, its channel does not exist.
        for conversation in in_order[:20]:
            scene.smith.ingestor.ingest(conversation)
        await scene.drain()
        with scene.store.unit() as unit:
            waiting = [p for p in unit.session.exec(select(SlackPost)) if p.status != "posted"]
        birchwood_failed = [p for p in waiting if p.status == "failed"]
        # Its parents failed for the channel; their thread replies wait for them (the issue's "pending
        # for ever" unless the fix sends them too).
        assert {p.property_id for p in waiting} == {BIRCHWOOD}
        assert {(p.kind, p.status) for p in waiting} == {("conversation", "failed"), ("turn", "pending")}
        assert len(birchwood_failed) >= 2
        assert {c["channel"] for c in scene.fake.calls_to("chat.postMessage")} >= {MISTYPED}

        # Someone notices, fixes the channel, and re-queues what failed.
        code, out, err = await scene.run_smith(
            "properties", "set", BIRCHWOOD, "--channel", CHANNELS[BIRCHWOOD], cwd=tmp_path
        )
        assert code == 0, err
        assert f"{len(birchwood_failed)} posts that failed for a channel reason re-queued" in out
        code, out, err = await scene.run_smith("outbox", "--retry-failed", "--json", cwd=tmp_path)
        assert code == 0, err
        assert json.loads(out)["retried"] == 0  # `properties set` had re-queued every one already
        await scene.drain()

        # The rest of the month.
        for conversation in in_order[20:]:
            scene.smith.ingestor.ingest(conversation)
        await scene.drain()

        with scene.store.unit() as unit:
            statuses = {(p.operation, p.status) for p in unit.session.exec(select(SlackPost))}
        assert statuses == {("post", "posted")}, "every post reached Slack, none left waiting or failed"

        # The machine graded the corpus cases as labelled (the month's moves changed no verdict).
        for short, level in corpus_levels.items():
            with scene.store.unit() as unit:
                grade = unit.grades.latest("conversation", month.id(short))
            assert grade is not None and grade.level == level, short

        def parent(short: str) -> Post:
            return _post(scene, month.id(short))

        for grader, email in (("U0ANA", "ana"), ("U0BO", "bo"), ("U0CARMEN", "carmen")):
            scene.add_grader(grader, f"{email}@example.test")

        # --- staff act, mostly on the parents --------------------------------------------------------
        acts: list[Act] = []
        mixed = parent("camellia-double-send")
        assert mixed.grade.owner == "clara" and _ours(_judged(scene, mixed)), "Clara's headline, ours beside"
        await _react(scene, "U0ANA", "+1", mixed)
        acts.append(Act("ana", "up", mixed.grade.level))
        truncated = parent("31-truncated-pet-policy")
        await _react(scene, "U0ANA", "+1", truncated)
        acts.append(Act("ana", "up", truncated.grade.level))
        followup = parent("20-followup-broadcast-only")
        await _react(scene, "U0ANA", "+1", followup)
        acts.append(Act("ana", "up", followup.grade.level))
        promise = parent("lampliter-unbacked-promise")
        await _correct_in_the_modal(scene, "U0ANA", promise, "block", "Right: nobody booked the plumber.")
        acts.append(Act("ana", "correction", promise.grade.level, "block"))
        tool = _post(scene, month.id("25-tool-failure-retry-still-failing"), "t1")  # the one thread act
        await _react(scene, "U0ANA", "+1", tool)
        acts.append(Act("ana", "up", tool.grade.level))
        quoted = parent("28-tool-error-quoted-as-policy")
        await _react(scene, "U0ANA", "+1", quoted)
        await _react(scene, "U0ANA", "+1", quoted, added=False)  # taken back: no act stands
        await scene.settle()
        assert any(v.conversation_id == month.id("28-tool-error-quoted-as-policy") for v in scene.verdicts())
        assert not any(
            v.conversation_id == month.id("28-tool-error-quoted-as-policy") for v in scene.current()
        )

        down_on: dict[str, Post] = {}
        for short in ("35-promise-access-instructions-passive", "39-access-code-to-prospect-after-hours"):
            down_on[short] = parent(short)
            await _react(scene, "U0BO", "-1", down_on[short])
            acts.append(Act("bo", "down", down_on[short].grade.level))
        amount = parent("33-amount-2br-quoted-at-1br-price")
        await _reply(scene, "U0BO", amount, "Should be PASS — the two-bedroom price is on the ledger")
        acts.append(Act("bo", "correction", amount.grade.level, "pass"))
        loop = parent("29-loop-redundant-slot-lookup")
        await _react(scene, "U0BO", "+1", loop)
        acts.append(Act("bo", "up", loop.grade.level))
        down_on["birchwood-rent-mismatch"] = parent("birchwood-rent-mismatch")
        await _react(scene, "U0BO", "-1", down_on["birchwood-rent-mismatch"])
        acts.append(Act("bo", "down", down_on["birchwood-rent-mismatch"].grade.level))

        down_on["40-language-spanish-in-english-out"] = parent("40-language-spanish-in-english-out")
        await _react(scene, "U0CARMEN", "-1", down_on["40-language-spanish-in-english-out"])
        acts.append(Act("carmen", "down", down_on["40-language-spanish-in-english-out"].grade.level))
        language = parent("camellia-wrong-language")
        await _reply(scene, "U0CARMEN", language, "Debería ser HOLD — le escribió en otro idioma")
        acts.append(Act("carmen", "correction", language.grade.level, "hold"))
        total = parent("34-amount-spanish-move-in-total")
        await _reply(scene, "U0CARMEN", total, "Debería ser PASS — el total de la mudanza es correcto")
        acts.append(Act("carmen", "correction", total.grade.level, "pass"))
        stale = parent("24-context-stale-prompt-office-hours")
        await _correct_in_the_modal(
            scene,
            "U0CARMEN",
            stale,
            "repair",
            "El horario de oficina cambió, pero no es para bloquear la respuesta.",
            new_principle="Horario De Oficina Vigente",
        )
        acts.append(Act("carmen", "correction", stale.grade.level, "repair"))
        plumber = parent("36-promise-plumber-dispatch-failed")
        await _react(scene, "U0CARMEN", "+1", plumber)
        acts.append(Act("carmen", "up", plumber.grade.level))
        await scene.settle()
        # Each act was understood as made: the Spanish replies and the modals as corrections to a level,
        # a 👍 as the machine's level, a 👎 as no level.
        standing = sorted((v.signal, v.expected_level) for v in scene.current())
        assert standing == sorted((a.signal, a.level_named) for a in acts)

        # --- `smith agreement --json` equals the count by hand ---------------------------------------
        # Fifteen acts stand (the taken-back 👍 does not); eight agree: Ana's five, Bo's 👍, Carmen's
        # Spanish HOLD and her 👍. The four 👎 and three corrections to another level disagree. κ is over
        # the eleven acts that name a level (every act but the 👎).
        corrected = [(a.machine_level, a.expected_level) for a in acts if a.signal == "correction"]
        assert corrected == [
            ("block", "block"),
            ("repair", "pass"),
            ("hold", "hold"),
            ("repair", "pass"),
            ("block", "repair"),
        ]
        by_grader: dict[str, list[Act]] = {}
        for act in acts:
            by_grader.setdefault(f"{act.grader}@example.test", []).append(act)
        by_grader["all"] = acts
        hand = {
            grader: (len(mine), sum(a.agrees for a in mine) / len(mine), sum(a.names_a_level for a in mine))
            for grader, mine in by_grader.items()
        }
        assert hand["all"] == (15, 8 / 15, 11)
        assert hand["ana@example.test"][:2] == (5, 1.0)
        assert hand["bo@example.test"][:2] == (5, 1 / 5)
        assert hand["carmen@example.test"][:2] == (5, 2 / 5)

        code, out, err = await scene.run_smith("agreement", "--json", cwd=tmp_path)
        assert code == 0, err
        shown = {row["grader"]: (row["acts"], row["agreeing"], row["kappa_n"]) for row in json.loads(out)}
        assert shown.keys() == hand.keys()
        for grader, (n, share, kappa_n) in hand.items():
            assert shown[grader] == (n, pytest.approx(share), kappa_n), grader

        # --- `smith rules disagreements` lists each parent 👎 under the rules it judged -----------------
        code, out, err = await scene.run_smith("rules", "disagreements", "--json", cwd=tmp_path)
        assert code == 0, err
        entries: list[dict[str, Any]] = json.loads(out)
        verdicts = {
            (v.conversation_id, v.signal): v.id for v in scene.current() if v.item_type == "conversation"
        }
        rent = down_on["birchwood-rent-mismatch"]
        # By hand, from the labelled corpus: the turn's rule that made each verdict.
        judged_checks = {
            "35-promise-access-instructions-passive": {"no_ungrounded_policy_claim"},
            "39-access-code-to-prospect-after-hours": {"no_access_code_to_prospect"},
            "40-language-spanish-in-english-out": {"reply_language_matches"},
            "birchwood-rent-mismatch": {str(d["check"]) for d in _judged(scene, rent)},
        }
        assert judged_checks["birchwood-rent-mismatch"], "the rent mismatch failed a check"
        for short, checks in judged_checks.items():
            assert {str(d["check"]) for d in _judged(scene, down_on[short])} == checks, short
            verdict_id = verdicts[(month.id(short), "down")]
            listed_under = {row["check"] for row in entries if verdict_id in row["disagreeing_verdicts"]}
            assert listed_under == checks, (short, listed_under)

        # --- the nightly sweep, with the GitHub tracker -------------------------------------------------
        with FakeGitHub("acme/queue", token="t0ken") as github:
            tracker = GitHubTracker("acme/queue", "t0ken", base_url=github.base_url, seconds_between_writes=0)
            run_sweep(scene.store, tmp_path / "fixtures", tracker=tracker)
            issues = {issue.html_url() for issue in github.issues.values()}
        await _deliver_the_waiting_edits(scene)

        # Every ours signature an agreeing act confirmed has its ticket; no other was filed.
        agreeing_posts = [mixed, truncated, followup, promise, tool, loop, language, plumber]
        confirmed = {
            signature.id
            for post in agreeing_posts
            for signature in signatures_of(_ours(_judged(scene, post)))
        }
        mixed_ours = {s.id for s in signatures_of(_ours(_judged(scene, mixed)))}
        assert mixed_ours and mixed_ours <= confirmed
        with scene.store.unit() as unit:
            signatures = {s.id: s for s in unit.session.exec(select(TicketSignature))}
            occurrences = {
                (o.conversation_id, o.signature_id) for o in unit.session.exec(select(TicketOccurrence))
            }
        filed = {sid for sid, s in signatures.items() if s.tracker_ref is not None}
        assert confirmed <= filed, confirmed - filed
        assert filed == confirmed, "a ticket only for what staff confirmed"
        assert {signatures[sid].tracker_url for sid in filed} <= issues and len(issues) == len(filed)
        assert all(signatures[sid].status == "open" for sid in filed)

        # --- every message sits in its property's current channel ---------------------------------------
        with scene.store.unit() as unit:
            channel_of = {p.id: p.slack_channel_id for p in (unit.properties.get(t) for t in TEAM) if p}
        property_of = {c.conversation_id: c.property.id for c in month.conversations.values()}
        smith_messages = [
            message
            for channel in scene.fake.workspace.by_channel
            for message in scene.fake.messages(channel)
            if message.metadata is not None
        ]
        assert smith_messages
        for message in smith_messages:
            conversation_id = message.metadata["event_payload"]["conversation_id"]  # type: ignore[index]
            assert message.channel == channel_of[property_of[conversation_id]], conversation_id
        for prop in TEAM:
            flagged = {cid for cid, owner in property_of.items() if owner == prop and _flagged(scene, cid)}
            parents = {
                m.metadata["event_payload"]["conversation_id"]  # type: ignore[index]
                for m in scene.fake.top_level(CHANNELS[prop])
                if m.metadata is not None
            }
            assert parents == flagged, prop
        assert not scene.fake.messages(MISTYPED)
        with scene.store.unit() as unit:
            rows = list(unit.session.exec(select(SlackPost)))
        # The outbox agrees: each conversation's posts and edits went to its property's current channel,
        # every one delivered; the notices (ephemeral, to someone acting) to a channel of the team.
        assert all(p.status == "posted" for p in rows)
        assert all(p.channel == channel_of[p.property_id] for p in rows if p.property_id is not None)
        assert {p.channel for p in rows if p.property_id is None} <= set(channel_of.values())

        # --- no message claims a ticket that does not exist -----------------------------------------------
        claims = 0
        for message in smith_messages:
            payload: dict[str, Any] = message.metadata["event_payload"]  # type: ignore[index]
            conversation_id = str(payload["conversation_id"])
            ticket_urls = {
                signatures[sid].tracker_url
                for (cid, sid) in occurrences
                if cid == conversation_id and sid in filed
            }
            shown_ours = _ours(_shown(scene, str(payload["machine_grade_id"])))
            for bullet in _BULLET.finditer(_texts(message)):
                claimed, offered = HAS_A_TICKET in bullet["body"], OPENS_A_TICKET in bullet["body"]
                if not (claimed or offered):
                    continue  # a failure staff act on: nothing is said about tickets
                # The failures of ours this line stands for, and whether every cause of theirs is filed.
                meant = [d for d in shown_ours if _title(d, "en") == bullet["title"]]
                assert meant, bullet["title"]
                is_filed = {s.id for s in signatures_of(meant)} <= filed
                assert is_filed == claimed, (conversation_id, bullet["title"], claimed)
                # A link, when there is one, is a ticket filed for this conversation's causes.
                assert set(_LINK.findall(bullet["body"])) <= ticket_urls
                claims += claimed
        assert claims > 0, "the tickets filed are said where their failures are shown"


def _flagged(scene: Scene, conversation_id: str) -> bool:
    with scene.store.unit() as unit:
        grade = unit.grades.latest("conversation", conversation_id)
    return grade is not None and grade.level != "pass"
