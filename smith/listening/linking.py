"""Linking a Slack account to a staff User, and attributing the acts that waited for it.

Each pending act becomes a verdict with the machine grade frozen as it was when the person acted, even
if the conversation has been regraded since.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from blocks import texts
from gradecore.errors import SmithError
from gradecore.persistence.entities import User
from gradecore.persistence.store import Store
from smith.listening.acts import HumanAct, record_act
from smith.outbox.reviewed import refresh_reviewed_lines


@dataclass(frozen=True)
class LinkResult:
    user: User
    attributed: int
    replaced: str | None = None  # the e-mail of the User the Slack account was linked to before


class LinkRefused(SmithError):
    """The link would give a Slack account to someone who must not have it this way (one line)."""


def link_identity(
    store: Store,
    slack_user_id: str,
    email: str,
    *,
    linked_by: Literal["email", "admin"] = "admin",
    team_id: str = "",
    force: bool = False,
) -> LinkResult:
    """Link; an inactive User is refused, an admin needs `force` (whoever holds the Slack account
    would act as the admin), and a link that replaces another says so (issue 22)."""
    with store.unit() as unit:
        user = unit.users.require_by_email(email)
        assert user.id is not None
        if not user.active:
            raise LinkRefused(texts.link_inactive(user.email))
        if user.role == "admin" and not force:
            raise LinkRefused(texts.link_admin_needs_force(user.email))
        previous = unit.identities.user_for(slack_user_id)
        replaced = previous.email if previous is not None and previous.id != user.id else None
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
        return LinkResult(user, attributed, replaced)
