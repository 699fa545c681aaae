"""The draft excerpt of a thread reply: Clara's words as a quote, the failing spans in bold.

A draft may be 64 KiB and Slack allows 3,000 characters per section, so long drafts are cut to a window
around the first failing span. The window is measured after escaping and quoting, because escaping can
make text up to five times longer (`&` → `&amp;`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from blocks.common import escape, mask_codes
from blocks.limits import ELLIPSIS, slack_length
from gradecore.vocabulary import Span

DRAFT_BUDGET = 2000


@dataclass(frozen=True)
class Excerpt:
    mrkdwn: str
    excerpted: bool


def excerpt_draft(
    draft: str, spans: Iterable[Span], codes: Iterable[str], budget: int = DRAFT_BUDGET
) -> Excerpt:
    """Quote `draft` in mrkdwn within `budget` characters, with `spans` marked in bold and codes masked."""
    text = mask_codes(draft, codes)
    marks = _merge(spans, len(text))
    focus = marks[0][0] if marks else 0
    width = budget
    while True:
        start, end = _window(len(text), focus, width)
        rendered = _render(text, marks, start, end)
        if slack_length(rendered) <= budget or width <= 1:
            return Excerpt(rendered, excerpted=(start, end) != (0, len(text)))
        # Shrink in proportion to the overshoot; always by at least one character so the loop ends.
        width = max(1, min(width - 1, width * budget // slack_length(rendered)))


def _merge(spans: Iterable[Span], length: int) -> list[tuple[int, int]]:
    """Spans clamped to the text, empty ones dropped, overlapping ones joined, in order."""
    clamped = sorted((min(s.start, length), min(s.end, length)) for s in spans)
    merged: list[tuple[int, int]] = []
    for start, end in clamped:
        if start >= end:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _window(length: int, focus: int, width: int) -> tuple[int, int]:
    """A `width`-character window that shows some text before `focus` and more after it."""
    if length <= width:
        return 0, length
    start = max(0, focus - width // 3)
    end = min(length, start + width)
    return max(0, end - width), end


def _render(text: str, marks: list[tuple[int, int]], start: int, end: int) -> str:
    pieces: list[str] = [ELLIPSIS] if start > 0 else []
    cursor = start
    for mark_start, mark_end in marks:
        lo, hi = max(mark_start, start), min(mark_end, end)
        if lo >= hi:
            continue
        pieces.append(escape(text[cursor:lo]))
        pieces.append(_bold_lines(escape(text[lo:hi])))
        cursor = hi
    pieces.append(escape(text[cursor:end]))
    if end < len(text):
        pieces.append(ELLIPSIS)
    body = "".join(pieces)
    return "\n".join(f"> {line}" for line in body.split("\n"))


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
