"""Linking a Slack account to a staff User, and attributing the acts that waited for it.

Each pending act becomes a verdict with the machine grade frozen as it was when the person acted, even
if the conversation has been regraded since.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gradecore.entities import User
from gradecore.store import Store
from smith.acts import HumanAct, record_act
from smith.outbox.reviewed import refresh_reviewed_lines


@dataclass(frozen=True)
class LinkResult:
    user: User
    attributed: int


def link_identity(
    store: Store,
    slack_user_id: str,
    email: str,
    *,
    linked_by: Literal["email", "admin"] = "admin",
    team_id: str = "",
) -> LinkResult:
    with store.unit() as unit:
        user = unit.users.require_by_email(email)
        assert user.id is not None
        unit.identities.link(slack_user_id, user, linked_by=linked_by, team_id=team_id)
        attributed = 0
        reviewed: list[str] = []
        for pending in unit.pending_acts.open_for(slack_user_id):
            act = HumanAct.from_json(pending.act["act"])
            recorded = record_act(unit, act, user.id, pending.act["machine"])
            verdict_id = recorded.verdicts[0].id if recorded.verdicts else None
            unit.pending_acts.resolve(pending, verdict_id)
            attributed += len(recorded.verdicts)
            if recorded.verdicts:
                reviewed.append(act.target.conversation_id)
        refresh_reviewed_lines(unit, reviewed)  # their acts now count: the posts say so
        return LinkResult(user, attributed)
