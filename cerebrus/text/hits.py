"""What the narration and promise checks find in a draft: pattern matches that apply to the draft's
language (and intent), less those an exclusion takes back (cerebrus.text.exclusions).

A draft is matched sentence by sentence (a phrase never runs over a sentence's end), and an exclusion
is looked for in its match's sentence only. One place for it, so the checks and the paraphrase
suites (bench/paraphrases.py) read a sentence the same way. `language` is asked for only when a
language-specific pattern matched: detecting it costs more than matching, and most drafts match
nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from cerebrus.text.exclusions import excluded
from cerebrus.text.phrase_rules import CompiledText, PhrasePattern, PromiseEntry, language_applies
from cerebrus.text.tokens import TokenizedText

Language = Callable[[], str | None]


def narration_hits(
    text: CompiledText, tokens: TokenizedText, language: Language
) -> list[tuple[PhrasePattern, int, int]]:
    """Narration matches as (pattern, start, end) offsets in the folded draft."""
    if not text.narration.may_match(tokens):
        return []
    hits: list[tuple[PhrasePattern, int, int]] = []
    for begins, sentence in tokens.sentences:
        found = [
            (pattern, start, stop)
            for _, pattern, start, stop in text.narration.scan(sentence)
            if pattern.language is None or language_applies(pattern.language, language())
        ]
        # "If the app isn't working for you..." instructs the reader: the exclusions take failure
        # narration (a language's phrasing) back. Machinery vocabulary is jargon wherever it stands.
        phrased = [(start, stop) for pattern, start, stop in found if pattern.language is not None]
        if phrased:
            taken_back = excluded(text.narration_exclusions, sentence, phrased, language())
            found = [hit for hit in found if (hit[1], hit[2]) not in taken_back]
        hits.extend((pattern, begins + start, begins + stop) for pattern, start, stop in found)
    return hits


def promise_hits(
    text: CompiledText, tokens: TokenizedText, intent: str | None, language: Language
) -> list[tuple[PromiseEntry, int, int]]:
    """Promise matches as (entry, start, end) offsets in the folded draft; the maintenance-only
    patterns are tried only when the intent is one of the maintenance intents."""
    sets = [text.promises]
    if intent in text.maintenance_intents:
        sets.append(text.maintenance_promises)
    sets = [phrases for phrases in sets if phrases.may_match(tokens)]
    if not sets:
        return []
    hits: list[tuple[PromiseEntry, int, int]] = []
    for begins, sentence in tokens.sentences:
        found = [
            (entry, start, stop)
            for phrases in sets
            for _, entry, start, stop in phrases.scan(sentence)
            if entry.language is None or language_applies(entry.language, language())
        ]
        if not found:
            continue
        # An offer ("would you like me to send someone?") or a package on the way promises no visit.
        taken_back = excluded(text.promise_exclusions, sentence, [(s, e) for _, s, e in found], language())
        hits.extend(
            (entry, begins + start, begins + stop)
            for entry, start, stop in found
            if (start, stop) not in taken_back
        )
    return hits
