"""Judge drift: the judged dimensions of a frozen sample, scored again today and compared.

If yesterday's conversations score differently today, the instrument moved (a model change), not
Clara. Only meaningful with the judge lane on.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from blocks import texts_triage
from cerebrus.judge import JUDGED_DIMENSIONS, JudgeLane
from gradecore.model.contract import Conversation
from gradecore.persistence.store import Store


@dataclass(frozen=True)
class DriftReport:
    compared: int
    changed: list[str]

    def lines(self) -> list[str]:
        if self.compared == 0:
            return [texts_triage.NO_JUDGED_TURNS]
        return [texts_triage.drift_summary(len(self.changed), self.compared), *self.changed[:10]]


async def measure_drift(store: Store, lane: JudgeLane, *, sample: int = 20) -> DriftReport:
    def load() -> list[tuple[str, str, dict[str, int], Conversation]]:
        with store.unit() as unit:
            rows: list[tuple[str, str, dict[str, int], Conversation]] = []
            for grade in unit.grades.judged_sample(sample):
                scores = {
                    d["check"]: d["score"]
                    for d in grade.dimensions
                    if d.get("check") in JUDGED_DIMENSIONS and d.get("score") is not None
                }
                document = unit.conversations.document(grade.conversation_id)
                if scores and document is not None and grade.turn_id is not None:
                    rows.append((grade.conversation_id, grade.turn_id, scores, document))
            return rows

    compared, changed = 0, []  # type: tuple[int, list[str]]
    for conversation_id, turn_id, before, document in await asyncio.to_thread(load):
        result = await lane.judge_conversation(document)
        for dimension in result.judged.get(turn_id, ()):
            if dimension.check in before and dimension.score is not None:
                compared += 1
                if dimension.score != before[dimension.check]:
                    changed.append(
                        texts_triage.drift_change(
                            dimension.check,
                            before[dimension.check],
                            dimension.score,
                            conversation_id,
                            turn_id,
                        )
                    )
    return DriftReport(compared, changed)
