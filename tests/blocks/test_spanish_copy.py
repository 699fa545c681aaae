"""Spanish is Spanish (docs/spanish.md): every message kind rendered in es carries no English word of the
English copy and no engine key (check ids, layers, fact keys, why-not-checked codes); plural agreement
comes from CLDR's rules through Babel.

The English words are read off the same messages rendered in English, so a new English sentence is
covered the day it is written. What a tenant wrote (quotes from the conversation, names) is data and
may be in any language: those words are left out of the comparison.
"""

from __future__ import annotations

import re
from datetime import date

import pytest

import cerebrus
from blocks import build_tally_blocks, locales, texts_es
from blocks.locales import SentenceFacts
from gradecore.model.contract import parse_conversation
from gradecore.model.vocabulary import Layer, NotCheckedWhy
from tools.post_gallery import DEMO_DATA, shown_messages

_WORD = re.compile(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'’]+")
# Words both languages write the same way, and names that are not English copy.
SHARED = {
    "nov",  # CLDR month abbreviations English and Spanish share
    "jul",
    "pass",
    "repair",
    "hold",
    "block",
    "sms",
    "clara",
    "smith",
    "slack",
    "camellia",
    "lampliter",
    "birchwood",
    "oakridge",
    "maría",
    "sam",
    "morgan",
    "ana",
    "chris",
    "jordan",
    "link",
    "arrival",
}
ENGINE_KEYS = {
    *cerebrus.CHECK_IDS,
    *(layer.value for layer in Layer),
    *(why.value for why in NotCheckedWhy),
    "arrival_instructions",
    "office_hours",
    "access_codes",
    "judge lane",
    "rubric",
}


_URL = re.compile(r"https?://\S+")


def _words(text: str) -> set[str]:
    plain = _URL.sub(" ", text)  # a link's address is not copy
    return {word.lower().strip("'’") for word in _WORD.findall(plain) if len(word) > 2}


def _tenant_words() -> set[str]:
    """Every word of the bundled conversations: what people wrote is shown as they wrote it."""
    found: set[str] = set()
    for path in DEMO_DATA.glob("*.json"):
        conversation = parse_conversation(path.read_bytes())
        said = [m.text for m in conversation.messages] + [conversation.property.name]
        said += [p.name for p in conversation.participants if p.name]
        found |= set().union(*(_words(text) for text in said))
    return found


# The correction form's last section is the engineers' detail (check ids, rule entries): by design the
# same words in every language, and not staff copy.
_ENGINEERS = re.compile(r"\*(Detail for engineers|Detalle para ingenieros)\*.*", re.DOTALL)


def _kinds(locale: str) -> dict[str, str]:
    by_kind: dict[str, str] = {}
    for shown in shown_messages(locale):
        text = _ENGINEERS.sub("", "\n".join(shown.lines))
        by_kind[shown.kind] = by_kind.get(shown.kind, "") + "\n" + text
    return by_kind


def test_every_message_kind_in_spanish_has_no_english_word_and_no_engine_key() -> None:
    english, spanish = _kinds("en"), _kinds("es")
    assert set(english) == set(spanish) and len(spanish) >= 10
    tenant = _tenant_words()
    english_words = set().union(*(_words(text) for text in english.values())) - tenant - SHARED
    spanish_words = set().union(*(_words(text) for text in spanish.values())) - tenant - SHARED
    assert "turn" in english_words and "turno" in spanish_words  # the comparison sees the copy
    for kind, text in spanish.items():
        leaked = sorted((_words(text) - tenant - SHARED) & english_words)
        assert not leaked, f"{kind}: English words in the Spanish message: {leaked}"
        keys = sorted(key for key in ENGINE_KEYS if re.search(rf"\b{re.escape(key)}\b", text))
        assert not keys, f"{kind}: engine keys in the Spanish message: {keys}"
    assert english_words - spanish_words  # sanity: the two decks differ


@pytest.mark.parametrize(
    ("graded", "passed", "expected"),
    [
        (1, 1, "1 calificada · 1 correcta · 0 por debajo"),
        (2, 1, "2 calificadas · 1 correcta · 1 por debajo"),
        (5, 5, "5 calificadas · 5 correctas · 0 por debajo"),
    ],
)
def test_tally_agrees_in_number_through_cldr_plural_rules(graded: int, passed: int, expected: str) -> None:
    content = build_tally_blocks(
        property_name="Camellia",
        local_date=date(2026, 11, 30),
        graded=graded,
        passed=passed,
        flagged=graded - passed,
        reacted=0,
        no_reactions_in_7_days=False,
        locale="es",
    )
    assert expected in content.text


def test_plural_forms_come_from_babel() -> None:
    forms = {"one": "{n} turno", "other": "{n} turnos"}
    assert [locales.plural(n, forms, "es") for n in (0, 1, 2)] == ["0 turnos", "1 turno", "2 turnos"]
    assert texts_es.turns_flagged(1, 1).startswith("1 de 1 turno señalado")
    assert texts_es.turns_flagged(2, 6).startswith("2 de 6 turnos señalados")


def test_a_fact_key_is_never_shown_raw_in_spanish() -> None:
    sentence = texts_es.check_sentence("fact_missing", SentenceFacts(fact_keys=("arrival_instructions",)))
    assert sentence == "La información de la propiedad no incluye las instrucciones de llegada."
    assert "amounts" not in texts_es.receipt_fact("amounts")
