"""The draft excerpt of a thread reply: Clara's words as a quote, the failing spans in bold.

A draft may be 64 KiB and Slack allows 3,000 characters per section, so a long draft is cut to a
window around **every** failing span, joined by "…", each span marked. The size is measured after
escaping and quoting, because escaping can make text up to five times longer (`&` → `&amp;`). When
the spans alone cannot fit, the context around them shrinks first, then very long spans are shortened,
and only then are the last spans left out (and counted, so the caller can say so).

The draft is a resident-facing text, not Smith's markup: its `*`, `_`, `~` and backticks are shown as
look-alike characters (issue 22), so they can neither format the quote nor end its bold marks early.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from blocks.common import escape, mask_codes
from blocks.limits import ELLIPSIS, slack_length
from gradecore.model.vocabulary import Span

DRAFT_BUDGET = 2000
MIN_MARK_SHOWN = 40  # a span is never shortened below this many characters before spans are dropped

Mark = tuple[int, int]
# mrkdwn's formatting characters and the look-alikes shown instead (one character each: lengths hold).
_LOOKALIKES = (("*", "∗"), ("_", "ˍ"), ("~", "∼"), ("`", "ˋ"))


@dataclass(frozen=True)
class Excerpt:
    mrkdwn: str
    excerpted: bool
    unshown_marks: int = 0  # failing spans that did not fit in the budget at all


def excerpt_draft(
    draft: str, spans: Iterable[Span], codes: Iterable[str], budget: int = DRAFT_BUDGET
) -> Excerpt:
    """Quote `draft` in mrkdwn within `budget` characters, with `spans` marked in bold and codes masked."""
    text = _inert(mask_codes(draft, codes))
    marks = _merge(spans, len(text))
    whole = _render(text, [(0, len(text), marks)], mark_cap=None)
    if slack_length(whole) <= budget:
        return Excerpt(whole, excerpted=False)
    if not marks:
        return Excerpt(_fit_opening(text, budget), excerpted=True)
    shown = _most_marks_that_fit(text, marks, budget)
    rendered = _fit_around(text, marks[:shown], budget) if shown else None
    if rendered is None:  # not even one shortened span fits (a tiny budget): the opening, all counted
        return Excerpt(_fit_opening(text, budget), excerpted=True, unshown_marks=len(marks))
    return Excerpt(rendered, excerpted=True, unshown_marks=len(marks) - shown)


def _inert(text: str) -> str:
    # str.replace runs in C; str.translate with a table looks each character up in Python (slower).
    for mark, lookalike in _LOOKALIKES:
        if mark in text:
            text = text.replace(mark, lookalike)
    return text


def _most_marks_that_fit(text: str, marks: list[Mark], budget: int) -> int:
    """How many of the first marks fit at their tightest (no context, shortest spans): a binary search,
    since showing fewer marks never takes more room."""
    low, high = 0, len(marks)
    while low < high:
        middle = (low + high + 1) // 2
        tightest = _render(text, _windows(marks[:middle], 0, len(text)), MIN_MARK_SHOWN)
        if slack_length(tightest) <= budget:
            low = middle
        else:
            high = middle - 1
    return low


def _fit_around(text: str, marks: list[Mark], budget: int) -> str | None:
    """The widest context around `marks` that fits in `budget`, shortening long spans if needed."""
    longest = max(end - start for start, end in marks)
    caps: list[int | None] = [None]
    cap = longest // 2
    while cap >= MIN_MARK_SHOWN:
        caps.append(cap)
        cap //= 2
    caps.append(MIN_MARK_SHOWN)
    for mark_cap in caps:
        context = budget
        while True:
            rendered = _render(text, _windows(marks, context, len(text)), mark_cap)
            length = slack_length(rendered)
            if length <= budget:
                return rendered
            if context == 0:
                break
            # Shrink in proportion to the overshoot; always by at least one so the loop ends.
            context = max(0, min(context - 1, context * budget // length))
    return None


def _windows(marks: list[Mark], context: int, length: int) -> list[tuple[int, int, list[Mark]]]:
    """Each mark with `context` characters either side; windows that touch are joined."""
    windows: list[tuple[int, int, list[Mark]]] = []
    for start, end in marks:
        lo, hi = max(0, start - context), min(length, end + context)
        if windows and lo <= windows[-1][1]:
            previous = windows[-1]
            windows[-1] = (previous[0], max(hi, previous[1]), [*previous[2], (start, end)])
        else:
            windows.append((lo, hi, [(start, end)]))
    return windows


def _merge(spans: Iterable[Span], length: int) -> list[Mark]:
    """Spans clamped to the text, empty ones dropped, overlapping ones joined, in order."""
    clamped = sorted((min(s.start, length), min(s.end, length)) for s in spans)
    merged: list[Mark] = []
    for start, end in clamped:
        if start >= end:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _render(text: str, windows: list[tuple[int, int, list[Mark]]], mark_cap: int | None) -> str:
    pieces: list[str] = []
    previous_end = 0
    for start, end, marks in windows:
        if start > previous_end:
            pieces.append(ELLIPSIS if not pieces else f" {ELLIPSIS} ")
        cursor = start
        for mark_start, mark_end in marks:
            pieces.append(escape(text[cursor:mark_start]))
            shown = text[mark_start:mark_end]
            if mark_cap is not None and len(shown) > mark_cap:
                shown = shown[:mark_cap] + ELLIPSIS
            pieces.append(_bold_lines(escape(shown)))
            cursor = mark_end
        pieces.append(escape(text[cursor:end]))
        previous_end = end
    if previous_end < len(text):
        pieces.append(ELLIPSIS)
    body = "".join(pieces)
    return "\n".join(f"> {line}" for line in body.split("\n"))


def _fit_opening(text: str, budget: int) -> str:
    """The start of the draft, as much as fits."""
    width = budget
    while True:
        rendered = _render(text, [(0, min(width, len(text)), [])], mark_cap=None)
        if slack_length(rendered) <= budget or width <= 1:
            return rendered
        width = max(1, min(width - 1, width * budget // slack_length(rendered)))


def _bold_lines(mrkdwn: str) -> str:
    """Bold each line separately and keep the asterisks against non-space characters, as mrkdwn needs."""
    marked: list[str] = []
    for line in mrkdwn.split("\n"):
        core = line.strip()
        if not core:
            marked.append(line)
            continue
        lead = line[: len(line) - len(line.lstrip())]
        trail = line[len(line.rstrip()) :]
        marked.append(f"{lead}*{core}*{trail}")
    return "\n".join(marked)
