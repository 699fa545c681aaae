"""Properties: created with a name and an IANA timezone, updated field by field, registered on ingest."""

from __future__ import annotations

import pytest

from gradecore.persistence.store import Store, UnknownProperty


def test_create_then_update_one_field_at_a_time(store: Store) -> None:
    with store.unit() as unit:
        created = unit.properties.set("camellia", name="Camellia", timezone="America/Los_Angeles")
        assert (created.locale, created.slack_channel_id) == ("en", None)
        first_update = created.updated_at
    with store.unit() as unit:
        unit.properties.set("camellia", channel_id="C0123")
    with store.unit() as unit:
        found = unit.properties.require("camellia")
        assert (found.name, found.timezone, found.locale, found.slack_channel_id) == (
            "Camellia",
            "America/Los_Angeles",
            "en",
            "C0123",
        )
        assert found.updated_at.tzinfo is not None and found.updated_at >= first_update
        unit.properties.set("camellia", name="Camellia Gardens", locale="es", timezone="America/New_York")
    with store.unit() as unit:
        found = unit.properties.require("camellia")
        assert (found.name, found.timezone, found.locale) == ("Camellia Gardens", "America/New_York", "es")


def test_an_empty_channel_unmaps_the_property(store: Store) -> None:
    with store.unit() as unit:
        unit.properties.set("camellia", name="Camellia", timezone="UTC", channel_id="C1")
        unit.properties.set("birchwood", name="Birchwood", timezone="UTC")
        assert [p.id for p in unit.properties.with_channel()] == ["camellia"]
        unit.properties.set("camellia", channel_id="")
        assert unit.properties.with_channel() == []


@pytest.mark.parametrize(("name", "timezone"), [(None, "UTC"), ("Camellia", None), (None, None)])
def test_creating_needs_a_name_and_a_timezone(store: Store, name: str | None, timezone: str | None) -> None:
    with pytest.raises(UnknownProperty, match="'camellia'"), store.unit() as unit:
        unit.properties.set("camellia", name=name, timezone=timezone)
    with store.unit() as unit:
        assert unit.properties.get("camellia") is None


@pytest.mark.parametrize("timezone", ["Mars/Olympus", "PST8PDT/extra", "", "../../etc/passwd", "+05:00"])
def test_unknown_timezone_is_refused_on_create_and_update(store: Store, timezone: str) -> None:
    with pytest.raises(ValueError, match="IANA"), store.unit() as unit:
        unit.properties.set("camellia", name="Camellia", timezone=timezone)
    with store.unit() as unit:
        unit.properties.set("camellia", name="Camellia", timezone="Europe/Madrid")
    with pytest.raises(ValueError, match="unknown timezone"), store.unit() as unit:
        unit.properties.set("camellia", timezone=timezone)
    with store.unit() as unit:
        assert unit.properties.require("camellia").timezone == "Europe/Madrid"


def test_require_unknown(store: Store) -> None:
    with pytest.raises(UnknownProperty, match="'nowhere'"), store.unit() as unit:
        unit.properties.require("nowhere")


def test_ensure_registers_once_and_never_overwrites(store: Store) -> None:
    with store.unit() as unit:
        unit.properties.ensure("camellia", name="Camellia", timezone="America/Los_Angeles", locale="en")
        unit.properties.set("camellia", name="Camellia Gardens", channel_id="C9")
    with store.unit() as unit:
        # The document's copy of the property does not undo what an admin set.
        kept = unit.properties.ensure("camellia", name="Camellia", timezone="UTC", locale="es")
        assert (kept.name, kept.timezone, kept.locale, kept.slack_channel_id) == (
            "Camellia Gardens",
            "America/Los_Angeles",
            "en",
            "C9",
        )
        assert [p.id for p in unit.properties.list()] == ["camellia"]
