"""Keys and refs built from ids: no two distinct (conversation, turn) pairs share one, and each fits.

The ids are the platform's free text, so the strategies lean on the characters a naive concatenation
would confuse (`/`, `:`, `%`, `#`, the word "turn") and on the contract's longest ids.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gradecore.model.contract import MAX_ID_CHARS
from gradecore.model.keys import item_ref
from gradecore.persistence.entities import GradeVerdict, MachineGrade, SlackPost
from gradecore.persistence.store import item_ref as store_item_ref
from smith.outbox.keys import edit_key, parent_key, turn_key
from tests.profiles import examples

TRICKY = st.sampled_from(["/", ":", "%", "#", "turn", ":turn:", "%2F", "%3A", "edit", "a", "é", "👍"])
ids = st.one_of(
    st.lists(TRICKY, min_size=1, max_size=8).map("".join).map(lambda text: text[:MAX_ID_CHARS]),
    st.text(min_size=1, max_size=MAX_ID_CHARS),
    st.text(st.sampled_from("/:%#ab"), min_size=MAX_ID_CHARS - 8, max_size=MAX_ID_CHARS),
)
items = st.tuples(ids, st.none() | ids)
GRADE_ID = "0f8fad5b-d9cb-469f-a165-70867728950e"


def _column_width(entity: type[object], column: str) -> int:
    width = entity.__table__.c[column].type.length  # type: ignore[attr-defined]
    assert isinstance(width, int)
    return width


def _keys(item: tuple[str, str | None]) -> set[str]:
    conversation_id, turn_id = item
    key = parent_key(conversation_id) if turn_id is None else turn_key(conversation_id, turn_id)
    return {key, edit_key(key, GRADE_ID)}


@settings(max_examples=examples(500))
@given(first=items, second=items)
def test_distinct_items_never_share_a_ref_or_a_key(
    first: tuple[str, str | None], second: tuple[str, str | None]
) -> None:
    if first == second:
        assert item_ref(*first) == item_ref(*second)
        return
    assert item_ref(*first) != item_ref(*second)
    assert _keys(first).isdisjoint(_keys(second))


@settings(max_examples=examples(300))
@given(item=items)
def test_every_ref_and_key_fits_its_column(item: tuple[str, str | None]) -> None:
    for entity in (MachineGrade, GradeVerdict):
        assert len(item_ref(*item)) <= _column_width(entity, "item_ref")
    assert max(len(key) for key in _keys(item)) <= _column_width(SlackPost, "idempotency_key")
    # A parent's key and its own edit key never coincide with any turn's either.
    assert parent_key(item[0]) not in _keys((item[0], item[1] or "t"))


def test_a_conversation_named_like_a_turn_key_gets_its_own_post_key() -> None:
    """Issue 10 §4: conversation `colX:turn:t1` and conversation `colX` with turn `t1`."""
    assert parent_key("colX:turn:t1") != turn_key("colX", "t1")
    assert parent_key("colX:turn:t1:edit:g") != f"{turn_key('colX', 't1')}:edit:g"


def test_ids_with_slashes_get_their_own_item_refs() -> None:
    """Issue 10 §4: `a/b` + turn `c` and `a` + turn `b/c` were both "a/b/c"."""
    assert store_item_ref("a/b", "c") != store_item_ref("a", "b/c")
    assert store_item_ref("a/b") != store_item_ref("a", "b")


def test_the_longest_ids_give_keys_that_fit() -> None:
    """Issue 10 §1: a 128-character conversation id and a 117-character turn id overflowed the key."""
    conversation_id, turn_id = "c" * MAX_ID_CHARS, "t" * 117
    key = turn_key(conversation_id, turn_id)
    assert len(edit_key(key, GRADE_ID)) <= _column_width(SlackPost, "idempotency_key")
    assert key != turn_key(conversation_id, "t" * 116)


def test_plain_ids_keep_the_keys_they_always_had() -> None:
    """Rows written before the escaping are still found: ids without separators are unchanged."""
    assert parent_key("c0a80101-lampliter-0001") == "grade:c0a80101-lampliter-0001"
    assert turn_key("c0a80101-lampliter-0001", "t1") == "grade:c0a80101-lampliter-0001:turn:t1"
    assert item_ref("c0a80101-lampliter-0001", "t1") == "c0a80101-lampliter-0001/t1"
