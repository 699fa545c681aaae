"""The locales Smith speaks (en, es) and what the copy decks borrow from Babel: language names and dates.

Day, month and language names come from CLDR through Babel rather than hand-made tables, so a new
locale needs only a copy deck, never a new calendar.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_datetime

SUPPORTED_LOCALES = ("en", "es")
DEFAULT_LOCALE = "en"


def supported(locale: str | None) -> str:
    """The supported locale `locale` asks for (`es-MX` → `es`), else the default."""
    language = (locale or "").replace("_", "-").split("-")[0].lower()
    return language if language in SUPPORTED_LOCALES else DEFAULT_LOCALE


def language_name(code: str, locale: str) -> str:
    """`es` → `Spanish` (in English) or `español` (in Spanish); the code itself when CLDR has no name."""
    try:
        name = Locale.parse(locale).languages.get(code.lower())
    except (ValueError, UnknownLocaleError):
        name = None
    return name or code


def short_date(day: date, locale: str) -> str:
    """`Mon 30 Nov` / `lun 30 nov`: abbreviated weekday, day, abbreviated month."""
    return str(format_date(day, "EEE d MMM", locale=locale))


@dataclass(frozen=True)
class SentenceFacts:
    """What a check's sentence can be rewritten from, read off its evidence (never off its English text).

    `languages` is (asked, replied) for a wrong-language failure.
    """

    languages: tuple[str, str] | None = None
    quotes: Sequence[str] = ()
    tools: Sequence[str] = ()
    fact_keys: Sequence[str] = ()


def plural(count: int, forms: Mapping[str, str], locale: str, **fields: str) -> str:
    """The form of a phrase for `count` by the locale's CLDR plural rules (Babel), `{n}` (and any
    other `fields`) filled in.

    `forms` maps a CLDR plural category (`one`, `other`, and `many`… where a language has them) to a
    template; a category the caller did not give falls back to `other`. So agreement ("1 correcta",
    "2 correctas") is a property of the language's rules, never of string concatenation.
    """
    category = Locale.parse(locale).plural_form(count)
    template = forms.get(category, forms["other"])
    return template.format(n=count, **fields)


def local_moment(moment: datetime, timezone: str, locale: str) -> str:
    """`Tue 24 Nov, 9:02 AM` / `mar 24 nov, 9:02`: a moment as the property's staff read their clock."""
    try:
        zone = ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    local = moment.astimezone(zone)
    clock = "h:mm a" if locale == "en" else "H:mm"
    return str(format_datetime(local, f"EEE d MMM, {clock}", locale=locale))


# Why a judged dimension was not judged; anything else not checked is a deterministic check's.
_JUDGE_WHYS = frozenset({"judge_lane_off", "judge_error", "no_receipt"})


def not_checked_kind(why: str) -> str:
    """How a post says a check was not run: the judge still at work ("pending": the post will be
    edited), the judge not rating ("judged"), or a deterministic check that could not run ("other")."""
    if why == "judge_pending":
        return "pending"
    return "judged" if why in _JUDGE_WHYS else "other"
