"""Written corrections: human replies in a Smith thread, sent as signed `message` events
(docs/slack-endpoint.md).

Each reply in the table comes from its own grader, so every stored verdict can be checked on its own:
expected level, error class (docs/verdicts.md: `grader` when it differs from the machine, else the owner),
principle tags (normalised when stored, folded by readers) and the note.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import Engine

from gradecore.persistence.store import current_acts
from tests.scenarios import slack_requests as sr
from tests.scenarios.listening import CHANNEL, Scene, running_scene

LAMPLITER = "lampliter-unbacked-promise.json"  # the turn the thread replies grade: BLOCK, owner clara


@dataclass(frozen=True)
class Case:
    text: str
    level: str | None
    error_class: str | None
    principles: tuple[str, ...]
    note: str | None
    rich_text_only: bool = False


CASES = [
    Case("Should be PASS — the arrival section exists", "pass", "grader", (), "the arrival section exists"),
    Case(
        "should be block, promised arrival instructions with none on file #arrival-instructions",
        "block",
        "clara",
        ("arrival-instructions",),
        "promised arrival instructions with none on file",
    ),
    Case(
        "SHOULD BE PaSs because the instructions are in the welcome email",
        "pass",
        "grader",
        (),
        "the instructions are in the welcome email",
    ),
    Case(
        "should have been HOLD - staff must confirm first #Staff-Confirms",
        "hold",
        "grader",
        ("staff-confirms",),
        "staff must confirm first",
    ),
    Case("should've been Repair", "repair", "grader", (), None),
    Case(
        "expected: repair. Just reword the promise #Wording",
        "repair",
        "grader",
        ("wording",),
        "Just reword the promise",
    ),
    Case("Expected level: BLOCK", "block", "clara", (), None),
    Case("Should be a hold", "hold", "grader", (), None),
    Case(
        "Debería ser PASA — la sección de llegada existe #llegada",
        "pass",
        "grader",
        ("llegada",),
        "la sección de llegada existe",
    ),
    Case(
        "debería haber sido bloqueo: prometió instrucciones", "block", "clara", (), "prometió instrucciones"
    ),
    Case("deberia ser RETENER, falta confirmar", "hold", "grader", (), "falta confirmar"),
    Case("Nivel esperado: reparación #Tono", "repair", "grader", ("tono",), None),
    Case("tendría que ser aprobado", "pass", "grader", (), None),
    Case("The instructions exist. Should be PASS", "pass", "grader", (), "The instructions exist."),
    Case("*Should be* _pass_ — bold and italic", "pass", "grader", (), "bold and italic"),
    Case(
        "Should be PASS #Arrival_Section #arrival-section #Sección-Llegada",
        "pass",
        "grader",
        ("arrival-section", "seccion-llegada"),
        None,
    ),
    Case(
        "<@U0BO> should be PASS — see <https://wiki.example/arrival|the wiki>",
        "pass",
        "grader",
        (),
        "see the wiki",
    ),
    Case("Should be REPAIR &amp; reword it", "repair", "grader", (), "& reword it"),
    Case(
        "Should be HOLD — typed in the composer #rich-text",
        "hold",
        "grader",
        ("rich-text",),
        "typed in the composer",
        rich_text_only=True,
    ),
    Case(
        "debería ser pasa, escrito en el editor",
        "pass",
        "grader",
        (),
        "escrito en el editor",
        rich_text_only=True,
    ),
    # Notes: no level named. Kept whole, with no expected level and no error class.
    Case("nice catch, thanks", None, None, (), "nice catch, thanks"),
    Case("It should not be PASS", None, None, (), "It should not be PASS"),
    Case("Should be blocked", None, None, (), "Should be blocked"),
    Case("worth a look #Arrival-Section", None, None, ("arrival-section",), "worth a look #Arrival-Section"),
]


async def test_each_correction_reply_is_stored_as_it_reads(engine: Engine) -> None:
    assert len(CASES) >= 20
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        machine = posted.turn_grades["t1"]
        reply_ts = {}
        for number, case in enumerate(CASES):
            slack_id = f"U0C{number:02d}"
            scene.add_grader(slack_id, f"corrector{number}@example.test")
            if case.rich_text_only:
                ts = await scene.reply(slack_id, posted.parent_ts, "", blocks=sr.rich_text(case.text))
            else:
                ts = await scene.reply(slack_id, posted.parent_ts, case.text)
            reply_ts[ts] = case
        await scene.settle()

        rows = {row.slack_ts: row for row in scene.verdicts()}
        assert set(rows) == set(reply_ts)
        for ts, case in reply_ts.items():
            row = rows[ts]
            got = (row.signal, row.expected_level, row.error_class, tuple(row.principles), row.note)
            assert got == ("correction", case.level, case.error_class, case.principles, case.note), case.text
            assert (row.item_type, row.turn_id, row.origin) == ("turn", "t1", "slack_reply"), case.text
            assert row.machine_grade_at_time["id"] == machine.id


async def test_tags_are_minted_as_candidates_and_folded_by_readers(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        with scene.store.unit() as unit:
            unit.principles.add("arrival-section", "The arrival section exists", status="active")
            unit.principles.add("arrival-info", "Arrival info on file", status="active")
            unit.principles.merge("arrival-info", "arrival-section")
        scene.add_grader("U0ANA", "ana@example.test")
        await scene.reply("U0ANA", posted.parent_ts, "Should be PASS #Arrival-Info #Brand-New-Idea")
        await scene.settle()

        (row,) = scene.verdicts()
        assert row.principles == ["arrival-info", "brand-new-idea"]  # as written, normalised
        with scene.store.unit() as unit:
            assert unit.principles.surviving(row.principles) == ["arrival-section", "brand-new-idea"]
            minted = unit.principles.get("brand-new-idea")
            assert minted is not None and minted.status == "candidate"
            merged = unit.principles.get("arrival-info")
            assert merged is not None and merged.status == "retired"  # not re-minted


async def test_an_edit_supersedes_and_a_deletion_retracts(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        ana = scene.add_grader("U0ANA", "ana@example.test")
        first = "Should be PASS — the section exists"
        ts = await scene.reply("U0ANA", posted.parent_ts, first)
        await scene.settle()

        edited = "Should be HOLD — on second thought staff must confirm #staff-confirms"
        await _post(
            scene, sr.message_changed("U0ANA", CHANNEL, ts, posted.parent_ts, first, edited, edited_ts=_now())
        )
        rows = scene.verdicts()
        assert [(r.signal, r.expected_level, r.slack_ts) for r in rows] == [
            ("correction", "pass", ts),
            ("correction", "hold", ts),
        ]
        (current,) = current_acts(rows)
        assert (current.expected_level, current.principles, current.grader_user_id) == (
            "hold",
            ["staff-confirms"],
            ana.id,
        )

        # An edit that changes no text (an unfurl arriving) records nothing.
        await _post(
            scene,
            sr.message_changed("U0ANA", CHANNEL, ts, posted.parent_ts, edited, edited, edited_ts=_now()),
        )
        assert len(scene.verdicts()) == 2

        await _post(scene, sr.message_deleted("U0ANA", CHANNEL, ts, posted.parent_ts, edited))
        rows = scene.verdicts()
        retractions = [r for r in rows if r.signal == "retraction"]
        assert sorted(r.retracts_id or 0 for r in retractions) == sorted(r.id or 0 for r in rows[:2])
        assert current_acts(rows) == []


async def test_messages_that_are_not_replies_to_smith_write_nothing(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        other = scene.fake.add_message(CHANNEL, "standup at 10", user="U0ANA")

        top = scene.fake.add_message(CHANNEL, "Should be PASS", user="U0ANA")
        await _post(scene, sr.message("U0ANA", CHANNEL, top.ts, "Should be PASS", thread_ts=None))
        await scene.reply("U0ANA", other.ts, "Should be PASS — not a Smith thread")
        bot = sr.message("U0ANA", CHANNEL, _now(), "Should be PASS", thread_ts=posted.parent_ts)
        await _post(scene, {**bot, "bot_id": "B0OTHER", "subtype": "bot_message"})
        joined = sr.message("U0ANA", CHANNEL, _now(), "joined", thread_ts=posted.parent_ts)
        await _post(scene, {**joined, "subtype": "channel_join"})
        await scene.reply("U0SMITH", posted.parent_ts, "Should be PASS — Smith talking to itself")

        assert scene.verdicts() == []
        assert scene.fake.calls_to("chat.postEphemeral") == []


async def test_a_note_gets_one_hint_per_person_per_thread(engine: Engine) -> None:
    async with running_scene(engine) as scene:
        posted = await scene.seed(LAMPLITER)
        scene.add_grader("U0ANA", "ana@example.test")
        scene.add_grader("U0BO", "bo@example.test")
        await scene.reply("U0ANA", posted.parent_ts, "hmm, interesting")
        await scene.reply("U0ANA", posted.parent_ts, "still not sure about this one")
        await scene.reply("U0BO", posted.parent_ts, "looks odd to me")
        await scene.reply("U0BO", posted.parent_ts, "Should be PASS — a correction gets no hint")
        await scene.settle()
        await scene.drain()

        # Issue 13: the correction itself now earns a confirmation (not a hint); the notes a hint each.
        every = scene.fake.calls_to("chat.postEphemeral")
        sent = [call for call in every if "kept as a note" in call["text"]]
        assert sorted((call["user"], call["thread_ts"]) for call in sent) == [
            ("U0ANA", posted.parent_ts),
            ("U0BO", posted.parent_ts),
        ]
        assert all(
            "Should be PASS" in call["text"] or "Should be PASS" in str(call.get("blocks")) for call in sent
        )
        confirmed = [call for call in every if call not in sent]
        assert [(call["user"], call["thread_ts"]) for call in confirmed] == [("U0BO", posted.parent_ts)]
        assert "your correction counts" in confirmed[0]["text"]
        assert [n.signal for n in scene.verdicts()] == ["correction"] * 4  # the notes are kept

        # A second drain sends nothing more: each hint is one outbox row, delivered once.
        await scene.drain()
        assert len(scene.fake.calls_to("chat.postEphemeral")) == 3


async def _post(scene: Scene, event: dict[str, object]) -> None:
    response = await scene.post_event(event)
    assert response.status == 200
    await scene.settle()


def _now() -> str:
    return f"{time.time():.6f}"
