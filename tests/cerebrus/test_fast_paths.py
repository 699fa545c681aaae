"""The grading engine's shortcuts give exactly what the plain computation gives.

Each shortcut (folding ASCII stretches in one go, searching a number from its first digit) is checked
against the straightforward formulation over generated input.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cerebrus import grade, views
from cerebrus.amounts.mentions import _DOLLAR_BEFORE, _MONEY_BEFORE, number_written
from cerebrus.checks import amounts_match_ledger
from cerebrus.text import language
from cerebrus.text.folding import _FOLD, FoldedText
from gradecore.model.contract import validate_conversation
from gradecore.model.vocabulary import Outcome
from tests.cerebrus.builders import ConversationBuilder
from tests.cerebrus.helpers import run_check
from tests.profiles import examples


def _texts(*pieces: str, size: int) -> st.SearchStrategy[str]:
    """Texts made of a few pieces (characters or short strings), so they often hit what is tested."""
    return st.lists(st.sampled_from(pieces), max_size=size).map("".join)


@given(st.text(max_size=40))
def test_folding_matches_folding_character_by_character(text: str) -> None:
    assert FoldedText(text).folded == text.translate(_FOLD)


# Accented and irregular characters, a capital sigma (whose lower case depends on its neighbours),
# typographic apostrophes and a backtick: what the replace-then-lower-case folding must get right.
_MIXED = _texts(
    "a", "B", " ", "é", "É", "ñ", "¿", "Σ", "ΑΣ", "σ", "İ", "ß", "ẞ", "ﬁ", "\u0301", "’", "`", "K", size=20
)


@settings(max_examples=examples(500))
@given(_MIXED)
def test_mixed_text_folds_as_character_by_character(text: str) -> None:
    assert FoldedText(text).folded == text.translate(_FOLD)


def _number_pattern_plainly(value: float) -> re.Pattern[str]:
    """The look-behind-first formulation the engine's pattern must agree with."""
    whole = int(value)
    cents = round((value - whole) * 100)
    grouped = f"{whole:,}"
    forms = {re.escape(str(whole)), re.escape(grouped), re.escape(grouped.replace(",", "."))}
    tail = r"(?:[.,]00?)?"
    if cents:
        tail = rf"[.,]{cents:02d}" if cents % 10 else rf"[.,]{cents // 10}0?"
    return re.compile(rf"(?<![\w.,])(?:{'|'.join(sorted(forms))}){tail}(?![\d]|[.,]\d)")


@settings(max_examples=examples(300))
@given(
    st.sampled_from([0.0, 5.0, 45.0, 1850.0, 1950.5, 12.05, 1234567.0]),
    _texts(*"0123456789.,$ a", "1,850", "1.850", "45", "00", size=20),
)
def test_number_search_agrees_with_the_plain_pattern(value: float, text: str) -> None:
    assert number_written(value, text) == (_number_pattern_plainly(value).search(text) is not None)


@settings(max_examples=examples(300))
@given(_texts(*"0123456789., $aus", "dollars", "dolares", "1,950", "bucks", size=24))
def test_the_dollar_first_scan_finds_what_the_full_scan_finds(text: str) -> None:
    # money_in uses the `$`-first pattern only when the text holds neither `usd` nor `us$`.
    if "usd" in text or "us$" in text:
        return

    def found(pattern: re.Pattern[str]) -> list[tuple[int, int, str]]:
        return [(m.start(), m.end(), m.group("number")) for m in pattern.finditer(text)]

    assert found(_DOLLAR_BEFORE) == found(_MONEY_BEFORE)


def test_an_untagged_message_is_detected_once_per_conversation(monkeypatch: pytest.MonkeyPatch) -> None:
    # An untagged maintenance draft promising a visit: the promise pattern (English only) and the
    # language check both need its language, and an untagged trigger needs its own. Each text goes
    # through the detector once, and the grade is what detecting on every ask gives.
    conversation = (
        ConversationBuilder()
        .inbound("My kitchen sink is leaking badly, can someone come and look?", language=None)
        .reply(
            "Thanks for letting us know. A plumber will come by tomorrow morning to fix the leak.",
            intent="maintenance_request",
            language=None,
        )
        .build()
    )
    detected: list[str] = []
    real_guess = views.guess

    def counting_guess(text: str, languages: tuple[str, ...]) -> language.Guess | None:
        detected.append(text)
        return real_guess(text, languages)

    monkeypatch.setattr(views, "guess", counting_guess)
    graded = grade(conversation)
    assert sorted(detected) == sorted(message.text for message in conversation.messages)
    promise = next(d for d in graded.turns[0].dimensions if d.check == "no_ungrounded_policy_claim")
    assert promise.outcome is Outcome.FAIL
    assert promise.evidence[0].rule_entry == "visit.trade_en"
    replied = next(d for d in graded.turns[0].dimensions if d.check == "reply_language_matches")
    assert replied.reason.sentence == "Written to in en, answered in en."
    # The same answers as asking the detector afresh each time (no shared memo at all).
    texts = [message.text for message in conversation.messages]
    assert [language.detect(text, ("en", "es")) for text in texts] == ["en", "en"]


_LEDGERS = (
    {"rent_2br": 1850, "application_fee": 45},
    {"rent_1br": 1450, "rent_2br": 1850, "security_deposit": 500},
    {"studio_rent": 1450, "pet_rent": 45, "parking": 45},
)
_AMOUNT_WORDS = (
    "the", "2 bedroom", "two-bedroom", "2br", "1 bedroom", "studio", "application fee", "pet rent",
    "deposit", "security deposit", "is", ".", "!", "and", "$1,850", "$1850.00", "$45", "$1,450", "$500",
    "$2,350", "1,850 dólares", "45 dolares", "dos recámaras", "cuota de solicitud", "per month", "\n",
)  # fmt: skip


@settings(max_examples=examples(300))
@given(st.lists(st.sampled_from(_AMOUNT_WORDS), min_size=1, max_size=20), st.sampled_from(_LEDGERS))
def test_skipping_label_pairing_changes_no_amount_verdict(words: list[str], ledger: dict[str, int]) -> None:
    # The check skips pairing an amount with its label when no label naming only other items stands
    # before it; pairing every amount (a screen that always says "maybe") must give the same result.
    builder = ConversationBuilder().inbound("How much?").reply(" ".join(words), intent="rent_question")
    document = builder.document()
    document["property"]["facts"]["amounts"] = ledger
    conversation = validate_conversation(document)
    screened = run_check(conversation, "amounts_match_ledger")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(amounts_match_ledger._Ledger, "other_labels", lambda self, value: re.compile(""))
        paired = run_check(conversation, "amounts_match_ledger")
    assert screened == paired
