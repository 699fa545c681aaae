"""Finding and masking a property's access codes: one matcher per code list, whatever its length.

A property may list thousands of codes. Testing each code against each text (a pattern compiled per
code per call) made one request take over a minute at 50,000 codes; this matcher is built once per
list and finds every code in one pass over the text, by looking up the text's substrings in a set of
codes per length. Matching ignores case. A code of four or more characters is found wherever it
occurs (`04821` still shows `4821`); a shorter one only as a whole token, or every `12` in a draft
would count.

Masking has one policy (`mask_code`): a code shows at most its last two characters, and none when it
is shorter than four (two of three characters would give it away).

Two policies decide whether a text holds a code, on purpose, by what a mistake costs:

- **Disclosure** (`cerebrus/checks/no_access_code_to_prospect.py`, a BLOCK): a code counts only as
  whole tokens of the draft as the text checks read it, so `call 555-2580` (one token, a phone
  number) does not give away the code `2580`. A false BLOCK costs the staff's trust in every flag.
- **Concealment** (this matcher for receipts, `smith/anonymizer/` for fixtures, `smith/leaks/` for the
  scan that refuses them): a code is hidden wherever its characters stand as their own run, so
  `555-2580` shows as `555-••80` in a receipt, and a fixture holds neither the code nor the number
  (the anonymizer replaces the whole phone number). Hiding part of a phone number costs nothing;
  showing a door code costs a door.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

_MASK = "•"
_ANYWHERE_FROM = 4  # codes at least this long are found inside longer tokens too
_SHOWN_FROM = 4  # codes at least this long show their last two characters in a mask
# A code could itself spell a mask (absurd, but tenant data): masking stops after this many passes.
_MAX_MASK_PASSES = 8


def mask_code(code: str, *, keep_length: bool = False) -> str:
    """An access code as it may be shown anywhere: `••21`, or `••` for a code shorter than four.

    With `keep_length` the mask is as long as the code (`••••21`, `•••`), so spans computed on the
    original text stay valid on the masked one (Slack posts highlight spans of the masked draft)."""
    shown = code[-2:] if len(code) >= _SHOWN_FROM else ""
    hidden = len(code) - len(shown) if keep_length else 2
    return _MASK * hidden + shown


def _token_char(char: str) -> bool:
    return char.isascii() and char.isalnum()


def _lower_keeping_offsets(text: str) -> str:
    """Lower case, one character for one (a few characters lower-case to two, e.g. `İ`: kept as is)."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(low if len(low := char.lower()) == 1 else char for char in text)


class CodeMatcher:
    """The codes of one list, ready to be found in any number of texts."""

    def __init__(self, codes: Iterable[str]) -> None:
        by_length: dict[int, set[str]] = {}
        for code in codes:
            if code:
                by_length.setdefault(len(code), set()).add(_lower_keeping_offsets(code))
        self._by_length = {length: frozenset(found) for length, found in by_length.items()}
        self._lengths = sorted(self._by_length, reverse=True)  # longest first: `48210` before `4821`
        self._first_chars = frozenset(code[0] for found in self._by_length.values() for code in found)

    def __bool__(self) -> bool:
        return bool(self._lengths)

    def __iter__(self) -> Iterator[str]:
        """The codes (lower-cased): a matcher can stand wherever a list of codes is expected."""
        for found in self._by_length.values():
            yield from found

    def spans(self, text: str, *, whole_tokens_only: bool = False) -> list[tuple[int, int]]:
        """Where codes occur in `text`, leftmost first and longest at each place, never overlapping."""
        if not self._lengths:
            return []
        lowered = _lower_keeping_offsets(text)
        found: list[tuple[int, int]] = []
        size = len(lowered)
        position = 0
        while position < size:
            if lowered[position] not in self._first_chars:
                position += 1
                continue
            end = self._match_at(lowered, position, whole_tokens_only)
            if end is None:
                position += 1
                continue
            found.append((position, end))
            position = end
        return found

    def contains(self, text: str) -> bool:
        return bool(self.spans(text))

    def mask(self, text: str, *, keep_length: bool = False) -> str:
        """Each code replaced by its mask (`mask_code`): fixed width for sentences and details, or
        `keep_length` where spans of the original text must stay valid."""
        return self._masked(text, lambda code: mask_code(code, keep_length=keep_length))

    def _match_at(self, lowered: str, start: int, whole_tokens_only: bool) -> int | None:
        token_start = start == 0 or not _token_char(lowered[start - 1])
        for length in self._lengths:
            end = start + length
            if end > len(lowered) or lowered[start:end] not in self._by_length[length]:
                continue
            whole = token_start and (end == len(lowered) or not _token_char(lowered[end]))
            if whole or (length >= _ANYWHERE_FROM and not whole_tokens_only):
                return end
        return None

    def _masked(self, text: str, replacement: Callable[[str], str]) -> str:
        # A kept suffix next to more characters can spell a code again (`2121` in `212121`): repeat.
        for _ in range(_MAX_MASK_PASSES):
            spans = self.spans(text)
            if not spans:
                break
            pieces: list[str] = []
            position = 0
            for start, end in spans:
                pieces.append(text[position:start])
                pieces.append(replacement(text[start:end]))
                position = end
            pieces.append(text[position:])
            text = "".join(pieces)
        return text


@lru_cache(maxsize=64)
def _matcher_for(codes: tuple[str, ...]) -> CodeMatcher:
    return CodeMatcher(codes)


def code_matcher(codes: Iterable[str]) -> CodeMatcher:
    """The matcher for a code list, built once per distinct list (a property's list rarely changes)."""
    return codes if isinstance(codes, CodeMatcher) else _matcher_for(tuple(codes))
