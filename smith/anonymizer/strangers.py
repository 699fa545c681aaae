"""Names of people who are not participants: "ask for Maria López at the desk", "mi esposo Roberto".

A capitalised word on the given-name list is a name, and so is the capitalised word right after it
(a surname: "Maria López") or after a title ("Dr. Patel", "Sra. Ramírez"). Words the caller keeps
(the property's name, Clara's) and contractions ("Don't") are not names; a possessive ("Maria's")
is the name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cerebrus.text.folding import fold
from smith.anonymizer.given_names import is_given_name, is_other_word

__all__ = ["MentionedName", "find_mentioned_names"]

_UPPER = "A-ZÀ-ÖØ-Þ"
_LOWER = "a-zß-öø-ÿ"
_WORD = re.compile(rf"(?<![\w'’])[{_UPPER}][{_LOWER}]+(?:['’][{_LOWER}]+)?(?![\w'’])")
_TITLE = re.compile(
    r"(?<![\w])(?:Mr|Mrs|Ms|Mx|Dr|Prof|Sr|Sra|Srta|Don|Doña|Dra|Lic|Ing)\.?[^\S\n]+$", re.IGNORECASE
)
# Capitalised words that follow a name without being a surname ("Maria Please call", "Ana Y Luis").
_NOT_SURNAMES = frozenset(
    [
        "and",
        "or",
        "the",
        "a",
        "an",
        "is",
        "are",
        "was",
        "to",
        "for",
        "from",
        "at",
        "in",
        "on",
        "of",
        "please",
        "thanks",
        "thank",
        "hi",
        "hello",
        "hey",
        "ok",
        "okay",
        "yes",
        "no",
        "y",
        "o",
        "el",
        "la",
        "los",
        "las",
        "de",
        "del",
        "por",
        "para",
        "con",
        "en",
        "es",
        "un",
        "una",
        "gracias",
        "hola",
        "si",
        "sí",
        "que",
        "qué",
    ]
)


_MAX_SURNAMES = 3


@dataclass(frozen=True, slots=True)
class MentionedName:
    start: int
    end: int
    surname: bool  # the word after a given name or a title


def find_mentioned_names(text: str, keep: frozenset[str]) -> list[MentionedName]:
    """Every name word in `text` that is not one of the folded words in `keep`."""
    found: list[MentionedName] = []
    after_name = -1  # where the last name word ended, for the surname that may follow it
    chained = 0
    for match in _WORD.finditer(text):
        word, start = match.group(), match.start()
        base, apostrophe, suffix = _split(word)
        if apostrophe and suffix.lower() != "s":
            after_name = -1
            continue  # a contraction ("Don't"), not a possessive ("Maria's")
        folded = fold(base)
        end = start + len(base)
        if folded in keep:
            after_name = -1
            continue
        # "García-López": every part of a hyphenated surname follows the part before it.
        between = text[after_name:start]
        follows_name = after_name >= 0 and (between.strip(" \t") == "" or between in ("-", "‐"))
        titled = _TITLE.search(text, max(0, start - 8), start) is not None
        if is_given_name(base) and not follows_name:
            found.append(MentionedName(start, end, surname=False))
            after_name, chained = end, 0
        elif (
            (follows_name or titled)
            and folded not in _NOT_SURNAMES
            and not is_other_word(base)
            and chained < _MAX_SURNAMES
        ):
            # "José Luis Pérez García": a second given name and up to two surnames.
            found.append(MentionedName(start, end, surname=True))
            after_name, chained = end, chained + 1
        else:
            after_name = -1
    return found


def _split(word: str) -> tuple[str, str, str]:
    for mark in ("'", "’"):
        if mark in word:
            base, _, suffix = word.partition(mark)
            return base, mark, suffix
    return word, "", ""
