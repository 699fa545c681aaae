"""Reads of what human verdicts mean (docs/verdicts.md): the standing acts of a window, as agreement pairs."""

from __future__ import annotations

from datetime import datetime

from gradecore.store import Unit, current_acts
from gradecore.vocabulary import Level
from smith.agreement import AgreementAct


def agreement_acts(unit: Unit, start: datetime, end: datetime) -> list[AgreementAct]:
    """Each grader's latest non-retracted act per item in [start, end) that names an expected level."""
    graders = {user.id: user.email for user in unit.users.list()}
    acts: list[AgreementAct] = []
    for verdict in current_acts(unit.verdicts.since(start, end)):
        if verdict.expected_level is None:
            continue
        machine = verdict.machine_grade_at_time
        acts.append(
            AgreementAct(
                expected_level=Level(verdict.expected_level),
                machine_level=Level(machine["level"]),
                grader=graders.get(verdict.grader_user_id, str(verdict.grader_user_id)),
                check=str(machine.get("headline") or "—"),
                property=verdict.property_id,
                period=verdict.created_at.date().isoformat(),
            )
        )
    return acts
