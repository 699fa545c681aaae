"""Property test: whatever the grade and the draft, every built post passes `validate_post`."""

from __future__ import annotations

from datetime import date

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blocks import (
    build_conversation_blocks,
    build_digest_blocks,
    build_more_turns_blocks,
    build_notice_blocks,
    build_tally_blocks,
    build_turn_blocks,
    validate_post,
)
from gradecore.model.vocabulary import (
    DimensionResult,
    Evidence,
    Kind,
    Layer,
    Level,
    Outcome,
    Owner,
    Scope,
    Span,
)
from tests.blocks.factories import conversation_grade, dim, synthetic_conversation, turn_grade
from tests.blocks.reading import visible_text
from tests.profiles import examples

# Mrkdwn's special characters, an emoji (two UTF-16 units) and newlines, over a background of anything.
awkward = st.sampled_from(["&", "<", ">", "*", "_", "~", "`", "|", "😀", "\n", "<@U123>", "4821"])
# Anything the input contract accepts: no lone surrogates, no NUL.
printable = st.characters(exclude_categories=["Cs"], exclude_characters="\x00")
any_text = st.text(printable, max_size=60)
fragment = st.one_of(any_text, awkward)
drafts = st.one_of(
    st.lists(fragment, max_size=40).map("".join),
    st.tuples(st.lists(fragment, min_size=1, max_size=5).map("".join), st.integers(1, 3000)).map(
        lambda pair: (pair[0] * pair[1])[:65_536]
    ),
)
spans = st.builds(
    lambda a, b: Span(start=min(a, b), end=max(a, b)), st.integers(0, 70_000), st.integers(0, 70_000)
)
evidence = st.builds(
    Evidence,
    quote=st.none() | drafts,
    span=st.none() | spans,
    tool_name=st.none() | any_text.filter(bool),
    step_index=st.none() | st.integers(0, 10_000),
    fact_key=st.none() | any_text,
    detail=st.none() | drafts,
)


@st.composite
def dimensions(draw: st.DrawFn, scope: Scope) -> DimensionResult:
    kind = draw(st.sampled_from(Kind))
    return dim(
        draw(st.text("abcdefghij_", min_size=1, max_size=30)),
        draw(st.sampled_from(Layer)),
        level=draw(st.sampled_from([Level.REPAIR, Level.HOLD, Level.BLOCK])),
        outcome=draw(st.sampled_from(Outcome)),
        slug=draw(st.text(min_size=1, max_size=300)),
        sentence=draw(drafts),
        evidence=draw(st.lists(evidence, max_size=4)),
        scope=scope,
        kind=kind,
        owner=draw(st.sampled_from(Owner)),
        score=draw(st.none() | st.integers(0, 3)) if kind is Kind.JUDGED else None,
        colours=draw(st.booleans()),
    )


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    data=st.data(),
    texts=st.lists(drafts, min_size=1, max_size=12),
    property_name=st.text(printable, min_size=1, max_size=256).filter(str.strip),
    url=st.none() | st.text(max_size=4000).map(lambda tail: "https://app.example.com/" + tail),
)
def test_any_grade_builds_valid_posts(
    data: st.DataObject, texts: list[str], property_name: str, url: str | None
) -> None:
    conversation = synthetic_conversation(texts, property_name=property_name)
    turns = [
        turn_grade(
            f"turn-{i}",
            f"out{i}",
            i + 1,
            data.draw(st.lists(dimensions(Scope.TURN), max_size=12), label="dims"),
        )
        for i in range(len(texts))
    ]
    conversation_dims = data.draw(st.lists(dimensions(Scope.CONVERSATION), max_size=12), label="conv dims")
    grade = conversation_grade(conversation, conversation_dims, turns)

    # Issue 13: both copy decks (and the reviewed-by line, the list of turns past the thread's bound)
    # must always make posts Slack accepts.
    locale = data.draw(st.sampled_from(["en", "es"]), label="locale")
    reviewed = data.draw(st.none() | st.text(max_size=4000), label="reviewed")
    parent = build_conversation_blocks(
        grade,
        conversation,
        machine_grade_id="mg-1",
        conversation_url=url,
        idempotency_key="key",
        locale=locale,
        reviewed=reviewed,
    )
    validate_post(parent)
    assert "4821" not in visible_text(parent)
    for turn in grade.turns:
        reply = build_turn_blocks(
            turn, grade, conversation, machine_grade_id="mg-1", idempotency_key="key", locale=locale
        )
        validate_post(reply)
        assert "4821" not in visible_text(reply)
        assert "<@U123>" not in visible_text(reply)
    listing = build_more_turns_blocks(
        grade.turns, conversation, conversation_url=url, idempotency_key="key", locale=locale
    )
    validate_post(listing)
    assert "4821" not in visible_text(listing)


@settings(max_examples=examples(60))
@given(
    name=st.text(max_size=400),
    day=st.dates(min_value=date(2000, 1, 1), max_value=date(2100, 1, 1)),
    counts=st.tuples(*[st.integers(0, 10**9)] * 4),
    quiet=st.booleans(),
    title=st.text(max_size=400),
    body=drafts,
    sections=st.lists(st.tuples(st.text(max_size=200), st.lists(drafts, max_size=60)), max_size=70),
)
def test_any_tally_notice_and_digest_is_valid(
    name: str,
    day: date,
    counts: tuple[int, int, int, int],
    quiet: bool,
    title: str,
    body: str,
    sections: list[tuple[str, list[str]]],
) -> None:
    graded, passed, below, reacted = counts
    validate_post(
        build_tally_blocks(
            property_name=name,
            local_date=day,
            graded=graded,
            passed=passed,
            flagged=below,
            reacted=reacted,
            no_reactions_in_7_days=quiet,
        )
    )
    validate_post(build_notice_blocks(title, body))
    validate_post(build_digest_blocks(sections, title=title))
