"""Users (unique by email, case-insensitively) and the Slack identities linked to them."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError

from gradecore.persistence.entities import User
from gradecore.persistence.store import DuplicateEmail, Store, UnknownUser


def test_email_is_stored_normalised_and_found_in_any_case(store: Store) -> None:
    with store.unit() as unit:
        added = unit.users.add("  Pat.Doe@Example.TEST ", " Pat Doe ", "admin")
    with store.unit() as unit:
        found = unit.users.by_email("PAT.DOE@example.test")
        assert found is not None
        assert (found.id, found.email, found.name, found.role, found.active) == (
            added.id,
            "pat.doe@example.test",
            "Pat Doe",
            "admin",
            True,
        )
        assert found.created_at.tzinfo is not None


@pytest.mark.parametrize("again", ["pat@example.test", "PAT@EXAMPLE.TEST", " Pat@Example.Test"])
def test_duplicate_email_in_any_case_is_refused(store: Store, again: str) -> None:
    with store.unit() as unit:
        unit.users.add("Pat@example.test", "Pat")
    with pytest.raises(DuplicateEmail, match=r"pat@example\.test already exists"), store.unit() as unit:
        unit.users.add(again, "Someone Else")
    with store.unit() as unit:
        assert [user.name for user in unit.users.list()] == ["Pat"]


def test_the_database_enforces_uniqueness_too(store: Store) -> None:
    """Two writers racing past the look-up still cannot both insert: the column is unique."""
    with store.unit() as unit:
        unit.users.add("pat@example.test", "Pat")
    with pytest.raises(IntegrityError):
        _insert_past_the_lookup(store, User(email="pat@example.test", name="Racer", role="staff"))


def _insert_past_the_lookup(store: Store, user: User) -> None:
    with store.unit() as unit:
        unit.session.add(user)
        unit.session.flush()


def test_bad_role_is_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="staff, engineer, admin"), store.unit() as unit:
        unit.users.add("pat@example.test", "Pat", "owner")  # type: ignore[arg-type]


def test_list_is_ordered_by_email(store: Store) -> None:
    with store.unit() as unit:
        for email in ["zoe@example.test", "Adam@example.test", "mia@example.test"]:
            unit.users.add(email, email.split("@")[0])
    with store.unit() as unit:
        assert [user.email for user in unit.users.list()] == [
            "adam@example.test",
            "mia@example.test",
            "zoe@example.test",
        ]


def test_deactivate_and_require(store: Store) -> None:
    with store.unit() as unit:
        unit.users.add("pat@example.test", "Pat")
    with store.unit() as unit:
        unit.users.set_active("PAT@example.test", False)
    with store.unit() as unit:
        assert unit.users.require_by_email("pat@example.test").active is False
        with pytest.raises(UnknownUser, match=r"nobody@example\.test"):
            unit.users.require_by_email("Nobody@Example.test")


def test_link_then_relink_a_slack_identity(store: Store) -> None:
    with store.unit() as unit:
        pat = unit.users.add("pat@example.test", "Pat")
        sam = unit.users.add("sam@example.test", "Sam")
        assert unit.identities.user_for("U1") is None
        unit.identities.link("U1", pat, linked_by="email", team_id="T1")
    with store.unit() as unit:
        found = unit.identities.user_for("U1")
        assert found is not None and found.email == "pat@example.test"
        assert pat.id is not None and sam.id is not None
        (identity,) = unit.identities.for_user(pat.id)
        assert (identity.slack_user_id, identity.team_id, identity.linked_by) == ("U1", "T1", "email")
        unit.identities.link("U1", sam, linked_by="admin")  # an admin corrects a wrong auto-match
    with store.unit() as unit:
        found = unit.identities.user_for("U1")
        assert found is not None and found.email == "sam@example.test"
        assert unit.identities.for_user(pat.id) == []
        (identity,) = unit.identities.for_user(sam.id)
        assert identity.linked_by == "admin"


def test_one_user_may_have_several_slack_identities(store: Store) -> None:
    with store.unit() as unit:
        pat = unit.users.add("pat@example.test", "Pat")
        unit.identities.link("U1", pat, linked_by="email", team_id="T1")
        unit.identities.link("U2", pat, linked_by="admin", team_id="T2")
        assert pat.id is not None
        assert sorted(i.slack_user_id for i in unit.identities.for_user(pat.id)) == ["U1", "U2"]
