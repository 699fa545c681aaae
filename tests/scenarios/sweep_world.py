"""Verdicts of every kind for the nightly sweep scenarios, recorded through `smith.listening.acts.record_act`.

One of each: a 👍 on a passing grade and a correction of a wrong one (grader), a 👍 on Clara's block
(clara), a 👍 on a block that is ours (a truncated reply: an integration ticket), and two acts with no
expected level (a 👎 alone and a note), which the sweep must leave alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from gradecore.model.contract import Conversation, parse_conversation
from gradecore.model.vocabulary import Level
from gradecore.persistence.store import Store
from smith.listening.acts import Signal
from tests.conftest import load_demo
from tests.scheduling.world import (
    BIRCHWOOD_RENT,
    CAMELLIA_DOUBLE,
    CAMELLIA_LANGUAGE,
    LAMPLITER,
    OAKRIDGE,
    add_grader,
    demo,
    ingest,
    react,
)

MORNING = datetime(2026, 11, 30, 15, 0, tzinfo=UTC)


def truncated_oakridge() -> Conversation:
    """Oakridge's clean conversation, but the model ran out of tokens: a block that is ours to fix."""
    document = json.loads(load_demo(f"{OAKRIDGE}.json"))
    document["conversation_id"] = "0akr1dge-maint-0008-cut"
    document["turns"][0]["trace"]["steps"][-1]["stop_reason"] = "max_tokens"
    return parse_conversation(json.dumps(document).encode())


@dataclass(frozen=True)
class Swept:
    """Verdict ids by what the sweep should make of them."""

    grader: tuple[int, ...]
    clara: tuple[int, ...]
    ours: tuple[int, ...]
    not_swept: tuple[int, ...]

    @property
    def sweepable(self) -> tuple[int, ...]:
        return self.grader + self.clara + self.ours


def record_every_kind(store: Store) -> Swept:
    cut = truncated_oakridge()
    for conversation in (demo(OAKRIDGE), demo(BIRCHWOOD_RENT), demo(LAMPLITER), cut):
        ingest(store, conversation, when=MORNING)
    ingest(store, demo(CAMELLIA_LANGUAGE), when=MORNING)
    ingest(store, demo(CAMELLIA_DOUBLE), when=MORNING)
    grader = add_grader(store)
    later = MORNING.replace(hour=16)

    def act(
        conversation_id: str,
        signal: Signal,
        *,
        turn_id: str | None = None,
        expected: Level | None = None,
        note: str | None = None,
    ) -> int:
        verdict = react(
            store,
            conversation_id,
            signal,
            when=later,
            grader=grader,
            turn_id=turn_id,
            expected=expected,
            note=note,
        )
        assert verdict.id is not None
        return verdict.id

    oakridge_up = act(demo(OAKRIDGE).conversation_id, "up")
    rent_corrected = act(
        demo(BIRCHWOOD_RENT).conversation_id,
        "correction",
        turn_id="t1",
        expected=Level.PASS,
        note="the $1,950 is the renewal rate the office quoted",
    )
    lampliter_up = act(demo(LAMPLITER).conversation_id, "up")
    truncated_up = act(cut.conversation_id, "up")
    thumbs_down = act(demo(CAMELLIA_LANGUAGE).conversation_id, "down")
    note = act(demo(CAMELLIA_DOUBLE).conversation_id, "correction", note="the tone is a bit cold")
    return Swept(
        grader=(oakridge_up, rent_corrected),
        clara=(lampliter_up,),
        ours=(truncated_up,),
        not_swept=(thumbs_down, note),
    )


def files_under(directory: Path) -> dict[str, bytes]:
    """Every file the sweep left, by path relative to the fixtures directory (temporaries included)."""
    return {
        path.relative_to(directory).as_posix(): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }
