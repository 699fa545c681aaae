"""What the narration and promise checks find in a draft: pattern matches that apply to the draft's
language (and intent), less those an exclusion takes back (cerebrus.text.exclusions).

One place for it, so the checks and the paraphrase suites (bench/paraphrases.py) read a sentence the
same way. `language` is asked for only when a language-specific pattern matched: detecting it costs
more than matching, and most drafts match nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from cerebrus.text.exclusions import excluded, spans_sentences
from cerebrus.text.phrase_rules import CompiledText, PhrasePattern, PromiseEntry, language_applies
from cerebrus.text.tokens import TokenizedText

Language = Callable[[], str | None]


def narration_hits(
    text: CompiledText, tokens: TokenizedText, language: Language
) -> list[tuple[PhrasePattern, int, int]]:
    """Narration matches as (pattern, start, end) offsets in the folded draft."""
    if not text.narration.may_match(tokens):
        return []
    folded = tokens.folded.folded
    hits = [
        (pattern, start, stop)
        for _, pattern, start, stop in text.narration.scan(tokens)
        if (pattern.language is None or language_applies(pattern.language, language()))
        and not spans_sentences(folded, start, stop)
    ]
    # "If the app isn't working for you..." instructs the reader: the exclusions take failure narration
    # (a language's phrasing) back. Machinery vocabulary is jargon wherever it stands.
    phrased = [(start, stop) for pattern, start, stop in hits if pattern.language is not None]
    if not phrased:
        return hits
    taken_back = excluded(text.narration_exclusions, tokens, phrased, language())
    return [hit for hit in hits if (hit[1], hit[2]) not in taken_back]


def promise_hits(
    text: CompiledText, tokens: TokenizedText, intent: str | None, language: Language
) -> list[tuple[PromiseEntry, int, int]]:
    """Promise matches as (entry, start, end) offsets in the folded draft; the maintenance-only
    patterns are tried only when the intent is one of the maintenance intents."""
    scanned = text.promises.scan(tokens)
    if intent in text.maintenance_intents:
        scanned.extend(text.maintenance_promises.scan(tokens))
    folded = tokens.folded.folded
    hits = [
        (entry, start, stop)
        for _, entry, start, stop in scanned
        if (entry.language is None or language_applies(entry.language, language()))
        and not spans_sentences(folded, start, stop)
    ]
    if not hits:
        return hits
    # An offer ("would you like me to send someone?") or a package on the way promises no visit.
    taken_back = excluded(text.promise_exclusions, tokens, [(s, e) for _, s, e in hits], language())
    return [hit for hit in hits if (hit[1], hit[2]) not in taken_back]
