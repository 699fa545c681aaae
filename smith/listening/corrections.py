"""Reads a human's threaded reply under a Smith post as a correction (docs/slack-endpoint.md).

`Should be PASS — the arrival section exists #arrival-section` names the level the grade should have
had, why, and the principles it rests on. A reply that names no level is kept as a note. A level word
only counts inside a correction phrase: a false correction is recorded silently as a verdict, while a
missed one becomes a note and the grader is told how to phrase it, so the parser errs towards notes.

Phrases (case- and accent-insensitive, anywhere in the reply, the first one wins; a phrase
right after "no"/"not" is negated and skipped):
    en: should be X · should have been X · should've been X · expected X · expected: X ·
        expected level: X
    es: debería ser X · debería haber sido X · debió ser X · debió haber sido X · tendría que ser X ·
        esperado: X · nivel esperado: X

Level words (X), with the Spanish words we are sure a grader means as a level:
    pass   ← pass, pasa, aprobado
    repair ← repair, reparar, reparación
    hold   ← hold, retener, retenido, espera
    block  ← block, bloquear, bloqueo, bloqueado
Inflected English ("should be blocked", "should have passed") is deliberately not read: "this should
be passed to the manager" is not a grade.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cerebrus.text.folding import FoldedText, strip_accents
from gradecore.model.principles import normalise_tag
from gradecore.model.vocabulary import Level

__all__ = ["LEVEL_WORDS", "Correction", "parse_correction", "reply_text", "text_from_blocks"]

LEVEL_WORDS: Mapping[str, Level] = {
    "pass": Level.PASS,
    "pasa": Level.PASS,
    "aprobado": Level.PASS,
    "repair": Level.REPAIR,
    "reparar": Level.REPAIR,
    "reparacion": Level.REPAIR,
    "hold": Level.HOLD,
    "retener": Level.HOLD,
    "retenido": Level.HOLD,
    "espera": Level.HOLD,
    "block": Level.BLOCK,
    "bloquear": Level.BLOCK,
    "bloqueo": Level.BLOCK,
    "bloqueado": Level.BLOCK,
}

_BE = r"(?:\s+be|\s+have\s+been|'ve\s+been)"
_SER = r"(?:ser|haber\s+sido)"
_PHRASE = (
    rf"should{_BE}|expected(?:\s+level)?|deberia\s+{_SER}|debio\s+{_SER}|tendria\s+que\s+{_SER}"
    r"|(?:nivel\s+)?esperado"
)
# Matched against the folded reply; `level` ends the match, so what follows it is the reason.
_CORRECTION = re.compile(
    rf"(?<![\w'])(?P<phrase>{_PHRASE})\s*[:=]?\s*(?:(?:a|an|un|una)\s+)?"
    rf"(?P<level>{'|'.join(sorted(LEVEL_WORDS, key=len, reverse=True))})(?!\w)"
)
_NEGATED = re.compile(r"(?<!\w)(?:no|not)\s+$")

# Slack markup: <@U123>, <#C123|general>, <!here>, <https://x|label>, <mailto:a@b|a@b>.
_MARKUP = re.compile(r"<([@#!][^<>]*|[a-zA-Z][a-zA-Z0-9+.-]*:[^<>]*)>")
_EMPHASIS = re.compile(r"[*~`]+|(?<!\w)_+|_+(?!\w)")
_TAG = re.compile(r"(?<![\w#&/])#([^\W_][\w-]*)")
_LEADING_SEPARATORS = re.compile(
    r"^[\s.,:;!?\-–—=>)\]]*(?:(?:because|since|porque|ya\s+que|pues)(?!\w)[\s,:\-–—]*)?", re.IGNORECASE
)
_SENTENCE_END = re.compile(r"[.!?;\n—–]")
_TRAILING_SEPARATORS = " \t\n,:;—–-"


@dataclass(frozen=True, slots=True)
class Correction:
    """What a reply says: the expected level (None for a note), why, and its principle tags.

    For a note the whole reply (tags removed) is the reason, so nothing the grader wrote is lost.
    """

    expected_level: Level | None
    reason: str | None
    tags: tuple[str, ...] = ()

    @property
    def is_note(self) -> bool:
        return self.expected_level is None


def parse_correction(text: str) -> Correction:
    """The correction in a reply's text (Slack's `text` form: markup and &amp; escapes welcome)."""
    plain = _strip_emphasis(_unescape(_MARKUP.sub(_render_markup, text)))
    tags = tuple(
        dict.fromkeys(t for t in (normalise_tag(strip_accents(m)) for m in _TAG.findall(plain)) if t)
    )
    plain = _TAG.sub(" ", plain)
    folded = FoldedText(plain)
    for match in _CORRECTION.finditer(folded.folded):
        if _NEGATED.search(folded.folded, 0, match.start()):
            continue
        phrase_start = folded.span(match.start(), match.end()).start
        level_end = folded.span(match.start(), match.end("level")).end
        reason = _reason_after(plain[level_end:]) or _reason_before(plain[:phrase_start])
        return Correction(LEVEL_WORDS[match["level"]], reason, tags)
    return Correction(None, _squash(plain) or None, tags)


def _render_markup(match: re.Match[str]) -> str:
    """A link reads as its label (or address); mentions and broadcasts carry no reason: dropped."""
    target, _, label = match[1].partition("|")
    if target[0] == "@" or (target[0] == "!" and not label):
        return ""
    if target[0] == "#":
        return label.lstrip("#")  # never "#general": a channel is not a principle tag
    return label or target


def _unescape(text: str) -> str:
    # Slack escapes exactly these three in `text`; done after markup so a typed "&lt;" stays text.
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def _strip_emphasis(text: str) -> str:
    """*bold*, _italic_, ~strike~ and `code` markers dropped; snake_case words keep their underscore."""
    return _EMPHASIS.sub("", text)


def _squash(text: str) -> str:
    return " ".join(text.split())


def _reason_after(text: str) -> str | None:
    return _squash(_LEADING_SEPARATORS.sub("", text, count=1)) or None


def _reason_before(text: str) -> str | None:
    """Whole sentences before the correction ("The section exists. Should be PASS"), never the
    fragment of its own sentence ("this should be PASS" has no reason)."""
    ends = list(_SENTENCE_END.finditer(text))
    if not ends:
        return None
    return _squash(text[: ends[-1].end()].rstrip(_TRAILING_SEPARATORS)) or None


# --- rich text -----------------------------------------------------------------------------------


def reply_text(event: Mapping[str, Any]) -> str:
    """A message event's text: `text` when it has any, else rebuilt from its rich-text blocks.

    For an edit (`message_changed`) the new version under `message` is read.
    """
    message = event.get("message") if event.get("subtype") == "message_changed" else event
    if not isinstance(message, Mapping):
        return ""
    text = message.get("text")
    if isinstance(text, str) and text.strip():
        return text
    blocks = message.get("blocks")
    return text_from_blocks(blocks) if isinstance(blocks, Sequence) else ""


def text_from_blocks(blocks: Sequence[Mapping[str, Any]]) -> str:
    """The blocks' text in Slack's `text` form (escaped, `<@U1>` mentions, `<url|label>` links), so
    `parse_correction` reads it exactly as it reads `text`."""
    parts: list[str] = []
    for block in blocks:
        if block.get("type") == "rich_text":
            parts.extend(_container_text(element) for element in block.get("elements", []))
        elif block.get("type") == "section" and isinstance(block.get("text"), Mapping):
            parts.append(str(block["text"].get("text", "")))
    return "\n".join(part.rstrip("\n") for part in parts if part.strip()).strip()


def _container_text(container: Mapping[str, Any]) -> str:
    children = container.get("elements", [])
    if container.get("type") == "rich_text_list":
        # A list's items are sections of their own: one line each.
        return "\n".join(_container_text(item).rstrip("\n") for item in children)
    return "".join(_inline_text(element) for element in children)


def _inline_text(element: Mapping[str, Any]) -> str:
    kind = element.get("type")
    if kind == "text":
        return _escape(str(element.get("text", "")))
    if kind == "link":
        label = element.get("text")
        return f"<{element.get('url', '')}|{_escape(label)}>" if label else f"<{element.get('url', '')}>"
    if kind == "user":
        return f"<@{element.get('user_id', '')}>"
    if kind == "channel":
        return f"<#{element.get('channel_id', '')}>"
    if kind == "usergroup":
        return f"<!subteam^{element.get('usergroup_id', '')}>"
    if kind == "broadcast":
        return f"<!{element.get('range', 'here')}>"
    if kind == "emoji":
        return f":{element.get('name', '')}:"
    if kind == "date":
        return _escape(str(element.get("fallback", "")))
    if "elements" in element:  # a nested container (a section inside a quote or a list)
        return _container_text(element)
    return ""


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
