"""Which failing dimensions a human act judges (docs/verdicts.md: an act means what the person meant).

The one definition, used by every reader that needs it (agreement by check, `smith rules
disagreements`, the digest, the sweep's routing):

- an act on a turn's thread reply judges that turn's failing dimensions;
- an act on the parent judges the conversation: its conversation-scoped failing dimensions **and**
  every failing dimension, of any turn, at the headline's level (the ones that made the verdict).

It is computed at read time from the stored grades, never stored on the act: GradeVerdict rows stay
append-only, and acts recorded before this reading count under it too. The level an act is read
against is the one the person saw (the frozen copy), and the turn grades are those in force while
the conversation grade they saw was the latest one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from gradecore.model.vocabulary import failed_and_coloured
from gradecore.persistence.entities import MachineGrade
from gradecore.persistence.store import Unit

Dimension = Mapping[str, Any]


class JudgingAct(Protocol):
    """What deciding an act's dimensions reads of it (a GradeVerdict)."""

    @property
    def item_type(self) -> str: ...
    @property
    def conversation_id(self) -> str: ...
    @property
    def machine_grade_id(self) -> str: ...
    @property
    def machine_grade_at_time(self) -> dict[str, Any]: ...


def failing(dimensions: Iterable[object]) -> list[Dimension]:
    """The dimensions that failed and coloured their grade's level (advisory ones colour nothing)."""
    return [d for d in dimensions if isinstance(d, Mapping) and failed_and_coloured(d)]


def judged_dimensions(
    item_type: str,
    level: str,
    grade_dimensions: Iterable[object],
    turn_dimensions: Iterable[Iterable[object]] = (),
) -> list[Dimension]:
    """The pure rule: `grade_dimensions` are the acted-on grade's; `turn_dimensions` each turn's grade
    in force beside a conversation grade (ignored for an act on a turn)."""
    judged = failing(grade_dimensions)
    if item_type == "conversation":
        for dimensions in turn_dimensions:
            judged += [d for d in failing(dimensions) if d.get("level") == level]
    return judged


def judged_by(unit: Unit, act: JudgingAct) -> list[Dimension]:
    """The failing dimensions `act` judges (empty when its grade passed or is missing)."""
    return judged_by_each(unit, [act])[0]


def judged_by_each(unit: Unit, acts: Sequence[JudgingAct]) -> list[list[Dimension]]:
    """`judged_by` for several acts, reading each conversation's grades once."""
    grades: dict[str, Sequence[MachineGrade]] = {}
    answers: list[list[Dimension]] = []
    for act in acts:
        if act.conversation_id not in grades:
            grades[act.conversation_id] = unit.grades.for_conversation(act.conversation_id)
        answers.append(judged_in(act, grades[act.conversation_id]))
    return answers


def judged_in(act: JudgingAct, conversation_grades: Sequence[MachineGrade]) -> list[Dimension]:
    """`judged_by`, given every grade of the act's conversation (oldest first)."""
    seen = next((g for g in conversation_grades if g.id == act.machine_grade_id), None)
    if seen is None:
        return []
    level = str(act.machine_grade_at_time.get("level") or seen.level)
    turns = turns_in_force(seen, conversation_grades) if act.item_type == "conversation" else []
    return judged_dimensions(act.item_type, level, seen.dimensions or (), (t.dimensions or () for t in turns))


def turns_in_force(conversation_grade: MachineGrade, grades: Sequence[MachineGrade]) -> list[MachineGrade]:
    """Each turn's latest grade written before the next conversation grade: what the parent showed
    while `conversation_grade` was current (a re-sent conversation keeps its unchanged turns' grades)."""
    ordered = sorted(grades, key=lambda g: (g.created_at, g.id))
    later = [
        g.created_at
        for g in ordered
        if g.item_type == "conversation" and g.created_at > conversation_grade.created_at
    ]
    until = later[0] if later else None
    latest: dict[str, MachineGrade] = {}
    for grade in ordered:
        if grade.item_type != "turn" or grade.turn_id is None:
            continue
        if until is not None and grade.created_at >= until:
            break
        latest[grade.turn_id] = grade  # oldest first: the last one standing wins
    return list(latest.values())
