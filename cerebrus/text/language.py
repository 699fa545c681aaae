"""Which language a message is in: its `language` field when present, else lingua's guess.

The detector is restricted to the configured languages, built lazily (it loads models) and cached per
language set. Text too short to tell, or too close to call, has no language (`None`): a check then
reports `not_checked`, never a guess.
"""

from __future__ import annotations

from functools import lru_cache

from lingua import IsoCode639_1, Language, LanguageDetector, LanguageDetectorBuilder

from cerebrus import defaults
from gradecore.model.contract import Message

MIN_WORDS = 3
MIN_CONFIDENCE = defaults.LANGUAGE_CONFIDENCE


def primary(tag: str) -> str:
    """The primary subtag of a BCP-47 tag, lower-cased: `es-MX` → `es`."""
    return tag.split("-", 1)[0].lower()


@lru_cache(maxsize=64)
def _language(code: str) -> Language | None:
    try:
        return Language.from_iso_code_639_1(IsoCode639_1.from_str(code.lower()))
    except (ValueError, AttributeError):
        return None


def supported(code: str) -> bool:
    """Whether lingua knows an ISO 639-1 code (rules may only configure those)."""
    return _language(code) is not None


@lru_cache(maxsize=8)
def _detector(languages: tuple[str, ...]) -> LanguageDetector:
    known = [lang for lang in (_language(code) for code in languages) if lang is not None]
    return LanguageDetectorBuilder.from_languages(*known).build()


Guess = tuple[str, float | None]
"""The likeliest language and its confidence (None: the only configured language, so certain)."""


def guess(text: str, languages: tuple[str, ...]) -> Guess | None:
    """The likeliest of `languages` for a text, before any confidence threshold; None when the text is
    too short to tell. The costly part of detection: worth doing once per text and keeping."""
    if len(text.split()) < MIN_WORDS:
        return None
    if len(languages) == 1:
        return languages[0], None
    confidences = _detector(tuple(sorted(languages))).compute_language_confidence_values(text)
    if not confidences:
        return None
    return str(confidences[0].language.iso_code_639_1.name).lower(), confidences[0].value


def confident(found: Guess | None, min_confidence: float = MIN_CONFIDENCE) -> str | None:
    """A guess's language when its confidence reaches `min_confidence`, else None."""
    if found is None:
        return None
    language, confidence = found
    if confidence is not None and confidence < min_confidence:
        return None
    return language


def detect(text: str, languages: tuple[str, ...], min_confidence: float = MIN_CONFIDENCE) -> str | None:
    """The ISO 639-1 code of the text's language among `languages`, or None when it cannot tell (too
    short, or mixed: no language reaches `min_confidence`)."""
    return confident(guess(text, languages), min_confidence)


def language_of(
    message: Message, languages: tuple[str, ...], min_confidence: float = MIN_CONFIDENCE
) -> tuple[str | None, str]:
    """(language, how it was known): from the message's own tag when present (its primary subtag,
    `es-MX` is `es`), else detected."""
    tag = message.language
    if tag:
        return primary(tag), "field"
    return detect(message.text, languages, min_confidence), "detected"
