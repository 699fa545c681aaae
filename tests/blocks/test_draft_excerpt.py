"""Issue 13, point 3: a long draft is excerpted around every failing span, each one marked, within the
budget; what cannot fit is shortened first and only then counted as left out."""

from __future__ import annotations

import re

from blocks.draft import DRAFT_BUDGET, excerpt_draft
from blocks.limits import slack_length
from gradecore.model.vocabulary import Span

WORDS = "the quick brown fox jumps over the lazy dog & then rests "


def text_with(marks: dict[int, str], length: int) -> str:
    chars = list((WORDS * (length // len(WORDS) + 1))[:length])
    for at, word in marks.items():
        chars[at : at + len(word)] = list(word)
    return "".join(chars)


def spans_of(text: str, words: list[str]) -> list[Span]:
    return [Span(start=text.index(w), end=text.index(w) + len(w)) for w in words]


def test_every_span_is_marked_with_an_ellipsis_between_windows() -> None:
    words = ["ALPHA", "BRAVO", "CHARLIE", "DELTA"]
    text = text_with({200: "ALPHA", 12_000: "BRAVO", 30_000: "CHARLIE", 60_000: "DELTA"}, 64_000)
    excerpt = excerpt_draft(text, spans_of(text, words), [])
    assert excerpt.excerpted and excerpt.unshown_marks == 0
    for word in words:
        assert f"*{word}*" in excerpt.mrkdwn
    assert excerpt.mrkdwn.count(" … ") == 3
    assert slack_length(excerpt.mrkdwn) <= DRAFT_BUDGET


def test_a_short_draft_is_shown_whole() -> None:
    text = "Rent is $1,950 per month."
    excerpt = excerpt_draft(text, spans_of(text, ["$1,950"]), [])
    assert not excerpt.excerpted
    assert excerpt.mrkdwn == "> Rent is *$1,950* per month."


def test_very_long_spans_are_shortened_so_the_later_ones_still_show() -> None:
    first = "X" * 5_000
    text = "Hello. " + first + WORDS * 200 + " LATER " + WORDS * 10
    spans = [Span(start=7, end=7 + len(first)), *spans_of(text, ["LATER"])]
    excerpt = excerpt_draft(text, spans, [])
    assert "*LATER*" in excerpt.mrkdwn
    assert re.search(r"\*X+…\*", excerpt.mrkdwn)
    assert slack_length(excerpt.mrkdwn) <= DRAFT_BUDGET


def test_spans_that_cannot_all_fit_are_counted_never_dropped_silently() -> None:
    positions = {index * 500: f"W{index:03d}" for index in range(120)}
    text = text_with(positions, 61_000)
    excerpt = excerpt_draft(text, spans_of(text, list(positions.values())), [])
    shown = len(re.findall(r"\*W\d{3}\*", excerpt.mrkdwn))
    assert shown > 10 and excerpt.unshown_marks == 120 - shown
    assert slack_length(excerpt.mrkdwn) <= DRAFT_BUDGET


def test_codes_are_masked_in_every_window() -> None:
    text = text_with({100: "code 4821", 9_000: "CODE 4821"}, 20_000)
    excerpt = excerpt_draft(text, spans_of(text, ["code 4821", "CODE 4821"]), ["4821"])
    assert "4821" not in excerpt.mrkdwn and excerpt.mrkdwn.count("••21") == 2


def test_the_drafts_own_formatting_characters_cannot_format_the_quote() -> None:
    """Issue 22: `*`, `_`, `~` and backticks in a draft are shown as look-alikes, never as mrkdwn."""
    text = "Call *now* or _later_, ~never~, `code` ```block``` and a lone * before the SPAN here."
    excerpt = excerpt_draft(text, spans_of(text, ["SPAN"]), [])
    assert excerpt.mrkdwn.count("*") == 2 and "*SPAN*" in excerpt.mrkdwn  # only Smith's own bold
    assert not re.search(r"[_~`]", excerpt.mrkdwn)
    assert "∗now∗" in excerpt.mrkdwn and "ˍlaterˍ" in excerpt.mrkdwn and "ˋcodeˋ" in excerpt.mrkdwn
    assert excerpt.mrkdwn.startswith("> ") and "\n" not in excerpt.mrkdwn  # one quoted line, intact
