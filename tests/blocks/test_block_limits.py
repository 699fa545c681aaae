"""Block Kit limits hold for any input: many turns, huge drafts, many failures, hostile text."""

from __future__ import annotations

import pytest
from slack_sdk.models.blocks import ActionsBlock, ButtonElement, HeaderBlock, MarkdownTextObject, SectionBlock

from blocks import PostContent, PostLimitError, build_conversation_blocks, build_turn_blocks, validate_post
from blocks.limits import clip, slack_length
from gradecore.model.vocabulary import Evidence, Layer, Level, Scope, Span
from tests.blocks.factories import conversation_grade, dim, synthetic_conversation, turn_grade
from tests.blocks.reading import block_texts, visible_text


def post(*blocks: object, text: str = "fallback") -> PostContent:
    return PostContent(blocks=list(blocks), text=text)  # type: ignore[arg-type]


def test_forty_flagged_turns_still_make_one_valid_parent() -> None:
    conversation = synthetic_conversation([f"Draft number {i}." for i in range(40)])
    turns = [
        turn_grade(f"turn-{i}", f"out{i}", i + 1, [dim("mandated_tools_called", Layer.LOOP)])
        for i in range(40)
    ]
    grade = conversation_grade(conversation, [], turns)
    parent = build_conversation_blocks(
        grade, conversation, machine_grade_id="mg", conversation_url=None, idempotency_key="k"
    )
    validate_post(parent)
    assert "40 of 40 turns flagged" in visible_text(parent)
    for turn in grade.turns:
        validate_post(
            build_turn_blocks(turn, grade, conversation, machine_grade_id="mg", idempotency_key="k")
        )


def test_sixty_kilobyte_draft_is_excerpted_around_the_span() -> None:
    draft = "Lorem ipsum dolor sit amet. " * 2100 + "The rent is $9,999 a month. " + "Thanks! " * 200
    start = draft.index("$9,999")
    conversation = synthetic_conversation([draft])
    failure = dim(
        "amounts_match_ledger",
        Layer.OUTPUT,
        level=Level.REPAIR,
        evidence=(Evidence(quote="$9,999", span=Span(start=start, end=start + 6)),),
    )
    grade = conversation_grade(conversation, [], [turn_grade("turn-0", "out0", 1, [failure])])
    content = build_turn_blocks(
        grade.turns[0], grade, conversation, machine_grade_id=None, idempotency_key="k"
    )
    validate_post(content)
    excerpt = block_texts(content)[1]
    assert excerpt.startswith("What Clara wrote (excerpt):\n> …")
    assert "*$9,999*" in excerpt and excerpt.endswith("…")
    assert slack_length(excerpt) <= 3000


def test_draft_of_escapable_characters_still_fits() -> None:
    draft = "&<>" * 20_000
    conversation = synthetic_conversation([draft])
    failure = dim("no_internal_narration", Layer.OUTPUT, evidence=(Evidence(span=Span(start=0, end=60_000)),))
    grade = conversation_grade(conversation, [], [turn_grade("turn-0", "out0", 1, [failure])])
    content = build_turn_blocks(
        grade.turns[0], grade, conversation, machine_grade_id=None, idempotency_key="k"
    )
    validate_post(content)
    assert "&amp;&lt;&gt;" in block_texts(content)[1]


def test_thirty_failing_dimensions_in_one_turn_are_summarised() -> None:
    conversation = synthetic_conversation(["Hi!"])
    failures = [
        dim(f"check_{i}", Layer.OUTPUT, slug=f"problem_{i}", sentence="A long sentence. " * 20)
        for i in range(30)
    ]
    grade = conversation_grade(conversation, [], [turn_grade("turn-0", "out0", 1, failures)])
    content = build_turn_blocks(
        grade.turns[0], grade, conversation, machine_grade_id=None, idempotency_key="k"
    )
    validate_post(content)
    claras = next(text for text in block_texts(content) if text.startswith("*Clara's mistake*"))
    assert claras.count("• *HOLD ·") == 8
    assert claras.endswith("…and 22 more")


def test_many_conversation_dimensions_are_summarised_in_the_parent() -> None:
    conversation = synthetic_conversation(["Hi!"])
    failures = [dim(f"check_{i}", Layer.HANDOFF, scope=Scope.CONVERSATION) for i in range(30)]
    grade = conversation_grade(conversation, failures, [turn_grade("turn-0", "out0", 1, [])])
    parent = build_conversation_blocks(
        grade, conversation, machine_grade_id=None, conversation_url=None, idempotency_key="k"
    )
    validate_post(parent)
    assert "…and 22 more" in visible_text(parent)


def test_tenant_text_cannot_mention_or_link() -> None:
    draft = "Hey <@U123> & <!channel>, see <https://evil.example|this>"
    conversation = synthetic_conversation([draft], property_name="<!here> & Sons")
    failure = dim("no_internal_narration", Layer.OUTPUT, evidence=(Evidence(quote="<@U123> & <!channel>"),))
    grade = conversation_grade(conversation, [], [turn_grade("turn-0", "out0", 1, [failure])])
    turn = build_turn_blocks(grade.turns[0], grade, conversation, machine_grade_id=None, idempotency_key="k")
    parent = build_conversation_blocks(
        grade, conversation, machine_grade_id=None, conversation_url=None, idempotency_key="k"
    )
    for content in (turn, parent):
        validate_post(content)
        shown = visible_text(content)
        assert "<@U123>" not in shown and "<!channel>" not in shown and "<!here>" not in shown
        assert "<https://evil" not in shown
    assert "*&lt;@U123&gt; &amp; &lt;!channel&gt;*" in block_texts(turn)[1]
    assert "&lt;!here&gt; &amp; Sons · SMS with a prospect" in visible_text(parent)


def test_validate_post_rejects_too_many_blocks() -> None:
    sections = [SectionBlock(text=MarkdownTextObject(text="x")) for _ in range(51)]
    with pytest.raises(PostLimitError, match="51 blocks; Slack allows 50"):
        validate_post(post(*sections))


def test_validate_post_rejects_long_section_via_the_block_model() -> None:
    with pytest.raises(PostLimitError, match=r"block 0 \(section\)"):
        validate_post(post(SectionBlock(text=MarkdownTextObject(text="x" * 3001))))


def test_validate_post_counts_emoji_as_two() -> None:
    validate_post(post(SectionBlock(text=MarkdownTextObject(text="😀" * 1500))))
    with pytest.raises(PostLimitError, match="3002 characters"):
        validate_post(post(SectionBlock(text=MarkdownTextObject(text="😀" * 1501))))


def test_validate_post_rejects_header_button_and_empty_texts() -> None:
    with pytest.raises(PostLimitError, match="header"):
        validate_post(post(HeaderBlock(text="h" * 151)))
    with pytest.raises(PostLimitError, match="actions"):
        validate_post(post(ActionsBlock(elements=[ButtonElement(text="b" * 76, action_id="a")])))
    with pytest.raises(PostLimitError, match="text is empty"):
        validate_post(post(SectionBlock(text=MarkdownTextObject(text="  "))))
    with pytest.raises(PostLimitError, match="fallback is empty"):
        validate_post(post(SectionBlock(text=MarkdownTextObject(text="x")), text=""))


def test_clip_never_leaves_half_an_entity() -> None:
    assert clip("ab&amp;cd", 5) == "ab…"
    assert clip("abcdef", 6) == "abcdef"
    assert slack_length(clip("😀" * 100, 11)) <= 11
