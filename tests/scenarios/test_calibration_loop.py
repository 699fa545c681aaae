"""The calibration loop end to end, through the real `smith` command line and the fake Slack.

Staff disagree with one phrase pattern nine times out of ten; `smith rules disagreements` names it;
`smith rules suggest` writes a candidate that disables it; `smith rules try` shows the calibration
fixtures flipping to agree with no regression; applied (SMITH_RULES_FILE) and `smith regrade`, the
flagged parents are edited in place in Slack and nothing is posted twice. A candidate that breaks a
calibration fixture exits 1.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gradecore.model.contract import Conversation, parse_conversation
from gradecore.model.vocabulary import Level
from gradecore.persistence.db import create_db_engine, upgrade
from gradecore.persistence.store import Store
from smith.outbox.policy import parent_key
from smith.sweep.job import run_sweep
from tests.conftest import load_demo
from tests.fakes.slack_api import FakeSlack
from tests.scheduling.world import OAKRIDGE, add_grader, ingest, react
from tests.smith.cli.in_process import run_in_process
from tests.smith.cli.runner import database_url
from tests.smith.outbox.harness import relay_for

CHANNEL = "C0OAKRIDGE"
MORNING = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)
PROMISE = (
    "Thanks, I've put in a work order for the leak. Someone will be out tomorrow morning to take a look."
)


def promised_visit(index: int) -> Conversation:
    """Oakridge's maintenance request, answered with a generic-subject visit and no vendor dispatched."""
    document = json.loads(load_demo(f"{OAKRIDGE}.json"))
    document["conversation_id"] = f"calibration-visit-{index:02d}"
    steps = document["turns"][0]["trace"]["steps"]
    document["turns"][0]["trace"]["steps"] = [s for s in steps if s.get("tool_name") != "dispatch_vendor"]
    document["turns"][0]["trace"]["steps"][-1]["draft"] = PROMISE
    document["messages"][1]["text"] = PROMISE
    return parse_conversation(json.dumps(document).encode())


def clean(index: int) -> Conversation:
    document = json.loads(load_demo(f"{OAKRIDGE}.json"))
    document["conversation_id"] = f"calibration-clean-{index:02d}"
    return parse_conversation(json.dumps(document).encode())


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / ".env").write_text(f"SMITH_FIXTURES_DIR={tmp_path / 'fixtures'}\n", encoding="utf-8")
    return tmp_path


async def test_staff_disagreement_becomes_a_proven_rule_change_and_a_regrade(workdir: Path) -> None:
    engine = create_db_engine(database_url(workdir))
    upgrade(engine)
    store = Store(engine)
    with store.unit() as unit:
        unit.properties.set("oakridge", name="Oakridge", timezone="America/Denver", channel_id=CHANNEL)
    promises = [promised_visit(index) for index in range(10)]
    for conversation in [*promises, clean(0)]:
        ingest(store, conversation, when=MORNING)

    async with FakeSlack.running(channels=[CHANNEL], post_window_s=0) as fake:
        relay = relay_for(store, fake)
        await relay.drain(within=30)
        parents = {
            m.metadata["event_payload"]["conversation_id"]: m for m in fake.top_level(CHANNEL) if m.metadata
        }
        assert set(parents) == {c.conversation_id for c in promises}  # every promise flagged, BLOCK

        # Staff: 👎 on nine replies (four of them then write "Should be PASS"), 👍 on the tenth; and a 👍
        # on a clean conversation's grade, which becomes a calibration fixture that must keep passing.
        grader = add_grader(store)
        later = MORNING.replace(hour=17)
        for index, conversation in enumerate(promises):
            cid = conversation.conversation_id
            if index == 9:
                react(store, cid, "up", when=later, grader=grader, turn_id="t1")
                continue
            react(store, cid, "down", when=later, grader=grader, turn_id="t1")
            if index < 4:
                react(
                    store,
                    cid,
                    "correction",
                    when=later.replace(minute=5),
                    grader=grader,
                    turn_id="t1",
                    expected=Level.PASS,
                    note="we always send someone the next morning; that is not a promise of a vendor",
                )
        react(store, clean(0).conversation_id, "up", when=later, grader=grader, turn_id="t1")
        run_sweep(store, workdir / "fixtures")
        assert len(list((workdir / "fixtures" / "grader").glob("*.json"))) == 5

        # 1. Which rule do people disagree with?
        listed = run_in_process(workdir, "rules", "disagreements", "--since", "2026-11-01", "--json")
        assert listed.code == 0, listed.stderr
        rows = {(r["check"], r["rule_entry"]): r for r in json.loads(listed.stdout)}
        row = rows[("no_ungrounded_policy_claim", "visit.generic_en")]
        assert (row["acts"], row["agreeing"], row["disagreeing"]) == (10, 1, 9)
        assert row["examples"] and all("Someone will be out" in e for e in row["examples"])
        assert not any("Priya" in e for e in row["examples"])  # anonymized like a fixture

        # 2. The smallest change that would have agreed with them.
        candidate = workdir / "candidate.toml"
        suggested = run_in_process(
            workdir, "rules", "suggest", "--since", "2026-11-01", "--out", str(candidate)
        )
        assert suggested.code == 0, suggested.stderr
        text = candidate.read_text(encoding="utf-8")
        assert 'id = "visit.generic_en"' in text and "enabled = false" in text
        assert "9 of 10 acts disagreed" in text

        # 3. Proof before use: the four corrected fixtures now agree; nothing regresses.
        tried = run_in_process(workdir, "rules", "try", str(candidate), "--since", "2026-11-01")
        assert tried.code == 0, tried.stdout + tried.stderr
        # Piped, each table row is a tab-separated line (issue 25): its first cells are name and count.
        rows = {
            line.split("\t")[0]: line.split("\t")[1:] for line in tried.stdout.splitlines() if "\t" in line
        }
        assert rows["now agree"][0] == "4"
        assert rows["now disagree (regressions)"][0] == "0"
        assert rows["oakridge"][0] == "10"
        assert tried.stdout.splitlines()[-1].endswith(": 0 regression(s)")

        # A candidate that breaks a calibration fixture is refused.
        breaking = workdir / "breaking.toml"
        breaking.write_text(
            '[[narration]]\nid = "narration.work_order"\npattern = "work order"\n', encoding="utf-8"
        )
        broken = run_in_process(workdir, "rules", "try", str(breaking), "--since", "2026-11-01")
        assert broken.code == 1 and "regress" in broken.stdout

        # 4. Applied: the regrade edits each flagged parent in place and posts nothing new.
        posts_before = len(fake.calls_to("chat.postMessage"))
        env = {"SMITH_RULES_FILE": str(candidate)}
        dry = run_in_process(workdir, "regrade", "--since", "2026-11-01", "--dry-run", env=env)
        assert dry.code == 0 and "would regrade 11" in dry.stdout and "flagged → pass 10" in dry.stdout
        done = run_in_process(workdir, "regrade", "--since", "2026-11-01", env=env)
        assert done.code == 0, done.stderr
        # Issue 20: each parent and its turn reply are edited (a regraded conversation reads the same
        # everywhere), so 20 edits where only the 10 parents were edited before.
        assert "flagged → pass 10" in done.stdout and "20 Slack posts queued" in done.stdout
        await relay.drain(within=30)
        updates = fake.calls_to("chat.update")
        replies = {
            cid: [m for m in fake.thread(CHANNEL, parent.ts) if m.ts != parent.ts]
            for cid, parent in parents.items()
        }
        assert all(len(found) == 1 for found in replies.values())
        edited_ts = [p.ts for p in parents.values()] + [found[0].ts for found in replies.values()]
        assert sorted(u["ts"] for u in updates) == sorted(edited_ts)
        for conversation_id, parent in parents.items():
            edited = fake.message(CHANNEL, parent.ts)
            assert "now passes — nothing to do" in edited.text
            assert edited.metadata["event_payload"]["idempotency_key"] == parent_key(conversation_id)
            reply = fake.message(CHANNEL, replies[conversation_id][0].ts)
            assert "Turn 1 · superseded — now PASS" in reply.text
            assert "keep the promise" not in reply.text
        assert len(fake.calls_to("chat.postMessage")) == posts_before

        # Again: everything is already graded under this rubric; nothing is queued or sent.
        again = run_in_process(workdir, "regrade", "--since", "2026-11-01", env=env)
        assert "regraded 0 (11 already current)" in again.stdout
        await relay.drain(within=5)
        assert len(fake.calls_to("chat.update")) == len(updates)
        assert len(fake.calls_to("chat.postMessage")) == posts_before

    # The acts stay attached to the grades they were made on.
    with store.unit() as unit:
        for verdict in unit.verdicts.since(MORNING, datetime(2026, 12, 31, tzinfo=UTC)):
            assert verdict.machine_grade_at_time["level"] in ("block", "pass")
    engine.dispose()
    assert os.environ.get("SMITH_RULES_FILE") is None
