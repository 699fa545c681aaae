"""Counts over a bounded window for a set of properties: graded, passing, flagged, reacted, agreeing.

Shared by the daily tally line and `/smith stats`. Every read is an index range on (property, time),
never a scan of the archive.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from gradecore.entities import MachineGrade
from gradecore.store import Unit, current_acts


@dataclass(frozen=True)
class WindowStats:
    graded: int
    passed: int
    flagged: int  # conversations whose latest grade is not `pass` (the tally line's "below")
    reacted: int  # flagged conversations with at least one standing human act
    acts: int
    agreeing: int

    @property
    def reaction_rate(self) -> float | None:
        return None if self.flagged == 0 else self.reacted / self.flagged

    @property
    def agreement(self) -> float | None:
        return None if self.acts == 0 else self.agreeing / self.acts


def window_stats(unit: Unit, property_ids: Iterable[str], start: datetime, end: datetime) -> WindowStats:
    latest: dict[str, MachineGrade] = {}
    for property_id in property_ids:
        for grade in unit.grades.created_between(property_id, start, end, item_type="conversation"):
            known = latest.get(grade.conversation_id)
            if known is None or (grade.created_at, grade.id) > (known.created_at, known.id):
                latest[grade.conversation_id] = grade
    flagged = {cid for cid, grade in latest.items() if grade.level != "pass"}
    acts = current_acts(unit.verdicts.for_conversations(latest))
    reacted = {verdict.conversation_id for verdict in acts if verdict.conversation_id in flagged}
    judged = [verdict for verdict in acts if verdict.expected_level is not None]
    agreeing = sum(
        1 for verdict in judged if verdict.expected_level == verdict.machine_grade_at_time.get("level")
    )
    return WindowStats(
        graded=len(latest),
        passed=len(latest) - len(flagged),
        flagged=len(flagged),
        reacted=len(reacted),
        acts=len(judged),
        agreeing=agreeing,
    )
