"""Money amounts in text, in the formats people write them (`$1,950`, `$1950.00`, `1,950 dollars`,
`1.950 dólares`, `USD 1950`), and plain numbers in context (`1850`, `1,850`, `$1,850.00`).

A money amount is a number with a currency marker (`$`, `US$`, `USD`, `dollars`, `dólares`), in en
or es formatting (`$1,950.00`, `1.950 dólares`, `$1.950,00`); see docs/amounts.md for how a number is
read.
Texts are scanned in folded form (lower-case, accents stripped), so `dólares` is `dolares` here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

from cerebrus.text.folding import FoldedText
from gradecore.model.vocabulary import Span

# A number with optional thousands groups (`,` or `.`) and optional cents; grouped form first so
# `1,950` is one number, not `1` and `950`.
_NUMBER = r"(?:\d{1,3}(?:[.,]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)"
_BOUNDED = rf"(?<![\w.,]){_NUMBER}(?![\d])"
_CURRENCY_BEFORE = r"(?:us\$|\$|usd)"
_CURRENCY_AFTER = r"(?:dollars?|dolares?|usd)"

# The same number with its first digit spelled out before the alternation: the regex engine can
# then skip ahead to the next digit in C instead of trying the whole pattern at every position
# (`\d{1,3}` is `\d\d{0,2}` and `\d+` is `\d\d*`, tried in the same order, so it matches the same).
_NUMBER_FAST = r"\d(?:\d{0,2}(?:[.,]\d{3})+(?:[.,]\d{1,2})?|\d*(?:[.,]\d{1,2})?)"

# Two scans, each starting with a plain character class so the regex engine can skip ahead fast:
# currency first (`$1,950`, `USD 1950`, `$1,950 dollars`) and currency after (`1.950 dolares`).
# Word boundaries before the match are checked in Python (a leading look-behind would disable that).
_MONEY_BEFORE = re.compile(rf"(?:us\$|\$|usd)\s?(?P<number>{_NUMBER})(?![\d])(?:\s?{_CURRENCY_AFTER}(?!\w))?")
_DOLLAR_BEFORE = re.compile(rf"\$\s?(?P<number>{_NUMBER})(?![\d])(?:\s?{_CURRENCY_AFTER}(?!\w))?")
_MONEY_AFTER = re.compile(rf"(?P<number>{_NUMBER_FAST})\s?{_CURRENCY_AFTER}(?!\w)")
NUMBER = re.compile(_BOUNDED)

TOLERANCE = 0.005


class MoneyMention:
    """An amount as written: its value and where it stands in the original text. The span (and so
    the quote) is worked out on first use: most amounts match the ledger and never need a receipt."""

    __slots__ = ("_span", "_text", "end", "number", "start", "value")

    def __init__(self, value: float, text: FoldedText, start: int, end: int, number: str = "") -> None:
        self.value = value
        # The number as written (`1.950`), and where the amount stands in the folded text (what label
        # pairing measures distances in).
        self.number = number
        self.start = start
        self.end = end
        self._text = text
        self._span: Span | None = None

    @property
    def span(self) -> Span:
        if self._span is None:
            self._span = self._text.span(self.start, self.end)
        return self._span

    @property
    def quote(self) -> str:
        return self._text.quote(self.span)

    def __repr__(self) -> str:
        return f"MoneyMention(value={self.value!r}, quote={self.quote!r})"


def parse_number(text: str) -> float:
    """A written number as a value: the last separator followed by 1-2 digits is the decimal mark; any
    other `,`/`.` separates thousands (`1.950` is nineteen hundred fifty, `1950.00` is not).

    This is the en convention and the es one at once, for every amount written in either: amounts
    carry cents (two digits), never thousandths, so three digits after a separator are a thousands
    group in both languages (`1,450 dólares` in a Spanish message is 1450, as its reader means)."""
    if text.isdigit():
        return float(text)
    last = max(text.rfind(","), text.rfind("."))
    if last != -1 and len(text) - last - 1 in (1, 2):
        whole, cents = text[:last], text[last + 1 :]
        return float(whole.replace(",", "").replace(".", "") + "." + cents)
    return float(text.replace(",", "").replace(".", ""))


def money_in(folded: FoldedText) -> list[MoneyMention]:
    """Every money amount written in a text, with its span and quote in the original text."""
    text = folded.folded
    # Most texts name no currency at all: spelled out, the tests cost a few substring searches.
    # Every currency-first match holds `$` or `usd`; every currency-after match one of the words.
    usd = "usd" in text
    signed = usd or "$" in text
    spelled = usd or "dollar" in text or "dolar" in text
    if not (signed or spelled):
        return []
    found: dict[int, tuple[int, str]] = {}
    if signed:
        # Without `usd`/`us$` only the `$` alternative can match: the `$`-first pattern lets the
        # regex engine jump from dollar sign to dollar sign instead of trying every `u`.
        before = _MONEY_BEFORE if usd or "us$" in text else _DOLLAR_BEFORE
        for match in before.finditer(text):
            start = match.start()
            # Not glued to a word or number before it (`_glued`, inlined: it runs for every amount).
            if start == 0 or not ((before_char := text[start - 1]).isalnum() or before_char in "_$"):
                found[start] = (match.end(), match.group("number"))
    if spelled:
        covered = [(start, end) for start, (end, _) in found.items()]
        for match in _MONEY_AFTER.finditer(text):
            start = match.start()
            if _glued(text, start, ".,") or any(s <= start < e for s, e in covered):
                continue
            found[start] = (match.end(), match.group("number"))
    mentions: list[MoneyMention] = []
    for start in sorted(found):
        end, number = found[start]
        mentions.append(MoneyMention(parse_number(number), folded, start, end, number))
    return mentions


def _glued(text: str, start: int, extra: str) -> bool:
    """Whether a match starts inside a word or number (so it is not an amount of its own)."""
    if start == 0:
        return False
    before = text[start - 1]
    return before.isalnum() or before == "_" or before in extra


def numbers_in(text: str) -> Iterator[float]:
    """Every number written in a text, however formatted."""
    for match in NUMBER.finditer(text):
        yield parse_number(match.group())


def any_equal(value: float, candidates: Iterable[float]) -> bool:
    return any(abs(value - candidate) < TOLERANCE for candidate in candidates)


@lru_cache(maxsize=1024)
def number_pattern(value: float) -> re.Pattern[str]:
    """A pattern finding one value written as a number in any usual formatting: 1850, 1,850, 1.850,
    1850.00, $1,850.00 (so a long prompt is searched once in C, not parsed number by number)."""
    whole = int(value)
    cents = round((value - whole) * 100)
    digits = str(whole)
    grouped = f"{whole:,}"
    # Every form starts with the same character (a digit or `-`). Spelling it out first lets the
    # regex engine jump between its occurrences in C; the look-behind after it checks the character
    # before it (a leading look-behind would make the engine try the pattern at every position).
    first = re.escape(digits[0])
    rests = {re.escape(form[1:]) for form in (digits, grouped, grouped.replace(",", "."))}
    body = first + r"(?<![\w.,]." + ")(?:" + "|".join(sorted(rests)) + ")"
    tail = r"(?:[.,]00?)?"  # whole dollars may carry zero cents
    if cents:
        tail = rf"[.,]{cents:02d}" if cents % 10 else rf"[.,]{cents // 10}0?"
    return re.compile(rf"{body}{tail}(?![\d]|[.,]\d)")


def number_written(value: float, text: str) -> bool:
    return number_pattern(float(value)).search(text) is not None
