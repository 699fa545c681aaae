"""Surviving principles: evidence filed under any retired name counts on the principle that survives."""

from __future__ import annotations

from collections import Counter

import pytest
from sqlalchemy import text

from gradecore.model.principles import (
    MAX_PRINCIPLE_ID,
    normalise_tag,
    surviving_principle,
    surviving_principles,
)
from gradecore.persistence.store import Store
from tests.gradecore.rows import graded_item, verdict

CHAIN = {"a": "b", "b": "c", "c": "d", "d": None}


# --- the pure fold ------------------------------------------------------------------------------------


@pytest.mark.parametrize("tag", ["a", "b", "c", "d", "#A", " #C "])
def test_every_link_of_a_three_link_chain_folds_to_the_end(tag: str) -> None:
    assert surviving_principle(tag, CHAIN) == "d"


def test_surviving_principles_count_the_whole_chain_once() -> None:
    assert surviving_principles(["a", "b", "c", "d"], CHAIN) == ["d"]
    assert surviving_principles(["x", "a", "y", "d"], CHAIN) == ["x", "d", "y"]


def test_an_unknown_tag_folds_to_itself() -> None:
    assert surviving_principle("#Tone", CHAIN) == "tone"


def test_empty_tags_are_dropped() -> None:
    assert surviving_principles(["#", "", "  ", "--", "a"], CHAIN) == ["d"]


@pytest.mark.parametrize(
    "chain",
    [{"a": "b", "b": "a"}, {"a": "a"}, {"a": "b", "b": "c", "c": "a"}, {"x": "a", "a": "b", "b": "a"}],
    ids=["two", "self", "three", "tail into a loop"],
)
def test_a_cycle_terminates_on_a_member_of_the_cycle(chain: dict[str, str | None]) -> None:
    for tag in chain:
        assert surviving_principle(tag, chain) in chain


# --- normalisation ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "normal"),
    [
        ("#Arrival Section", "arrival-section"),
        ("arrival-section", "arrival-section"),
        ("  ##arrival_section ", "arrival-section"),
        ("Arrival — Section!", "arrival-section"),
        ("#Política", "politica"),
        ("#idioma-ESPAÑOL", "idioma-espanol"),
        ("#rent2br", "rent2br"),
        ("#--", ""),
    ],
)
def test_tag_normalisation(raw: str, normal: str) -> None:
    assert normalise_tag(raw) == normal


def test_normalisation_is_idempotent() -> None:
    for raw in ["#Arrival Section", "#Política", "x" * 100, "a-" * 40]:
        assert normalise_tag(normalise_tag(raw)) == normalise_tag(raw)


def test_a_long_tag_fits_the_principle_id() -> None:
    tag = normalise_tag("#" + "very-long-principle-" * 10)
    assert len(tag) <= MAX_PRINCIPLE_ID
    assert not tag.endswith("-")


# --- the repository ----------------------------------------------------------------------------------


def test_verdicts_tagged_along_a_merged_chain_all_count_on_the_survivor(store: Store) -> None:
    with store.unit() as unit:
        for tag in "abcd":
            unit.principles.add(tag, f"principle {tag}", status="active")
        # Merges arrive over time, newest survivor last: a→b, then b→c, then c→d.
        unit.principles.merge("a", "b")
        unit.principles.merge("b", "c")
        unit.principles.merge("c", "d")
        user, grade = graded_item(unit)
        for minutes, tag in enumerate("abcd"):
            act = verdict(user, grade, signal="correction", principles=[f"#{tag.upper()}"], minutes=minutes)
            unit.verdicts.add(act)
    with store.unit() as unit:
        counted = Counter(
            tag
            for act in unit.verdicts.for_item("turn", grade.item_ref)
            for tag in unit.principles.surviving(act.principles)
        )
        assert counted == {"d": 4}
        assert unit.principles.surviving(["a", "b", "c", "d", "other"]) == ["d", "other"]
        assert [p.id for p in unit.principles.vocabulary()] == ["d"]
        for tag in "abc":
            found = unit.principles.get(tag)
            assert found is not None and found.status == "retired"


def test_merges_in_any_order_reach_the_same_survivor(store: Store) -> None:
    with store.unit() as unit:
        for tag in "abcd":
            unit.principles.add(tag, tag)
        unit.principles.merge("c", "d")
        unit.principles.merge("a", "b")
        unit.principles.merge("b", "c")
        assert unit.principles.surviving(["a"]) == ["d"]


@pytest.mark.parametrize(("retired", "survivor"), [("b", "a"), ("c", "a"), ("a", "a")])
def test_a_merge_that_would_make_a_cycle_is_refused(store: Store, retired: str, survivor: str) -> None:
    with store.unit() as unit:
        for tag in "abc":
            unit.principles.add(tag, tag)
        unit.principles.merge("a", "b")
        unit.principles.merge("b", "c")
    with pytest.raises(ValueError, match="cycle"), store.unit() as unit:
        unit.principles.merge(retired, survivor)
    with store.unit() as unit:
        assert unit.principles.surviving(["a", "b", "c"]) == ["c"]


def test_the_repository_fold_survives_a_cycle_already_in_the_data(store: Store) -> None:
    """Data written before the cycle check (or by hand) must not hang every reader."""
    with store.unit() as unit:
        unit.principles.add("a", "a")
        unit.principles.add("b", "b")
        unit.principles.merge("a", "b")
        unit.session.execute(text("UPDATE principles SET superseded_by = 'a' WHERE id = 'b'"))
        assert unit.principles.surviving(["a"]) in (["a"], ["b"])


def test_merge_needs_both_principles(store: Store) -> None:
    with store.unit() as unit:
        unit.principles.add("a", "a")
    with pytest.raises(ValueError, match="must exist"), store.unit() as unit:
        unit.principles.merge("a", "missing")


def test_unknown_tags_are_minted_as_candidates_once(store: Store) -> None:
    long_tag = "#" + "arrival-instructions-were-on-file-" * 4
    with store.unit() as unit:
        unit.principles.add("tone", "Warm and brief", status="active")
        ids = unit.principles.ensure_candidates(
            ["#Tone", "#Arrival Section", "arrival-section", long_tag, "#"]
        )
    assert ids == ["tone", "arrival-section", normalise_tag(long_tag)]
    with store.unit() as unit:
        minted = unit.principles.get("arrival section")
        assert minted is not None and minted.status == "candidate"
        tone = unit.principles.get("TONE")
        assert tone is not None and tone.status == "active"
        assert unit.principles.get(long_tag) is not None  # fits the column on PostgreSQL too
        assert {p.id for p in unit.principles.vocabulary()} == set(ids)
