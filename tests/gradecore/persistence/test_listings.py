"""The CLI's Core-only listings read what the store wrote, on both backends, and name real columns."""

from __future__ import annotations

from sqlmodel import SQLModel

from gradecore.persistence import listings
from gradecore.persistence.entities import SlackPost
from gradecore.persistence.store import Store


def test_every_table_clause_names_a_table_and_columns_of_the_schema() -> None:
    """The listings spell the tables a second time (to skip the ORM); a renamed column fails here."""
    for clause in listings.TABLES:
        declared = SQLModel.metadata.tables[clause.name]
        assert {c.name for c in clause.columns} <= {c.name for c in declared.columns}, clause.name


def test_users_come_by_email_each_with_its_linked_slack_users(store: Store) -> None:
    with store.unit() as unit:
        pat = unit.users.add("pat@example.test", "Pat", "admin")
        unit.users.add("zoe@example.test", "Zoe", active=False)
        unit.users.add("adam@example.test", "Adam", "engineer")
        unit.identities.link("U2", pat, linked_by="admin")
        unit.identities.link("U1", pat, linked_by="email")
    with store.engine.connect() as connection:
        listed = listings.users(connection)
    assert listed == [
        listings.UserListing("adam@example.test", "Adam", "engineer", True, ()),
        listings.UserListing("pat@example.test", "Pat", "admin", True, ("U1", "U2")),
        listings.UserListing("zoe@example.test", "Zoe", "staff", False, ()),
    ]


def test_properties_come_by_id_with_their_channel(store: Store) -> None:
    with store.unit() as unit:
        unit.properties.set("lampliter", name="Lampliter", timezone="America/Phoenix", locale="es")
        unit.properties.set("camellia", name="Camellia", timezone="America/Chicago", channel_id="C0CAM")
    with store.engine.connect() as connection:
        listed = listings.properties(connection)
    assert listed == [
        listings.PropertyListing("camellia", "Camellia", "America/Chicago", "en", "C0CAM"),
        listings.PropertyListing("lampliter", "Lampliter", "America/Phoenix", "es", None),
    ]


def _post(number: int, status: str) -> SlackPost:
    return SlackPost(
        kind="notice",
        idempotency_key=f"notice:{number}",
        channel="C0OPS",
        payload={"text": str(number)},
        status=status,
        attempts=number % 3,
        last_error="ratelimited" if status == "failed" else None,
    )


def test_posts_come_newest_first_filtered_by_status_up_to_the_limit(store: Store) -> None:
    statuses = ["pending", "failed", "posted", "failed", "pending", "failed"]
    with store.unit() as unit:
        ids = [unit.outbox.add(_post(number, status))[0].id for number, status in enumerate(statuses)]
    with store.engine.connect() as connection:
        newest = listings.posts(connection, limit=2)
        failed = listings.posts(connection, "failed")
    assert [post.id for post in newest] == [ids[5], ids[4]]
    assert [post.id for post in failed] == [ids[5], ids[3], ids[1]]
    assert failed[0] == listings.PostListing(
        ids[5], "notice", "post", "failed", "C0OPS", 2, None, "ratelimited"
    )


def test_post_counts_cover_every_status_and_stop_just_past_the_bound(store: Store) -> None:
    with store.unit() as unit:
        for number in range(5):
            unit.outbox.add(_post(number, "posted"))
        unit.outbox.add(_post(5, "failed"))
    with store.engine.connect() as connection:
        assert listings.post_counts(connection) == {"pending": 0, "posted": 5, "failed": 1, "unrouted": 0}
        # "more than 3" is all a bounded count must say: it stops at 3 + 1
        assert listings.post_counts(connection, up_to=3) == {
            "pending": 0,
            "posted": 4,
            "failed": 1,
            "unrouted": 0,
        }
