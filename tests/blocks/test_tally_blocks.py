"""The daily tally line: proof the grader ran, never mistaken for "all good" when nothing arrived."""

from __future__ import annotations

import locale
from datetime import date

from blocks import build_tally_blocks, validate_post
from blocks.common import PostContent

MON_30_NOV = date(2026, 11, 30)


def tally(**overrides: object) -> PostContent:
    values: dict[str, object] = {
        "property_name": "Camellia",
        "local_date": MON_30_NOV,
        "graded": 47,
        "passed": 44,
        "flagged": 3,
        "reacted": 2,
        "no_reactions_in_7_days": False,
        "idempotency_key": "tally:camellia:2026-11-30",
    }
    values.update(overrides)
    content = build_tally_blocks(**values)  # type: ignore[arg-type]
    validate_post(content)
    return content


def test_the_tally_line() -> None:
    assert tally().text == "Camellia · Mon 30 Nov: 47 graded · 44 pass · 3 below · 2 of 3 reacted"


def test_nothing_graded_cannot_read_as_all_good() -> None:
    content = tally(graded=0, passed=0, flagged=0, reacted=0)
    assert content.text == "Camellia · Mon 30 Nov: 0 graded — no conversations arrived"
    assert "pass" not in content.text


def test_all_passing_day_has_no_reaction_count() -> None:
    assert tally(graded=12, passed=12, flagged=0, reacted=0).text == (
        "Camellia · Mon 30 Nov: 12 graded · 12 pass · 0 below"
    )


def test_warns_when_nobody_reacted_for_a_week() -> None:
    content = tally(no_reactions_in_7_days=True)
    assert content.text.endswith("\n⚠️ no reactions in 7 days — is anyone reading this channel?")
    assert "⚠️ no reactions in 7 days" not in tally().text


def test_property_name_is_escaped() -> None:
    assert tally(property_name="<!channel> & Co").text.startswith("&lt;!channel&gt; &amp; Co · Mon 30 Nov")


def test_date_words_do_not_depend_on_the_process_locale() -> None:
    before = locale.setlocale(locale.LC_TIME)
    try:
        for name in ("de_DE.UTF-8", "fr_FR.UTF-8"):
            try:
                locale.setlocale(locale.LC_TIME, name)
                break
            except locale.Error:
                continue
        assert "Mon 30 Nov" in tally().text
        assert "Tue 1 Dec" in tally(local_date=date(2026, 12, 1)).text
    finally:
        locale.setlocale(locale.LC_TIME, before)


def test_metadata_carries_the_idempotency_key_only() -> None:
    content = tally()
    assert content.metadata is not None
    assert content.metadata.event_type == "smith_tally"
    assert content.metadata.event_payload == {"idempotency_key": "tally:camellia:2026-11-30"}


def test_the_tally_line_in_spanish_names_day_and_month_from_the_calendar() -> None:
    assert (
        tally(locale="es").text
        == "Camellia · lun 30 nov: 47 calificadas · 44 correctas · 3 por debajo · 2 de 3 con reacción"
    )
    assert tally(locale="es", local_date=date(2026, 8, 1)).text.startswith("Camellia · sáb 1 ago: ")
    nothing = tally(locale="es", graded=0, passed=0, flagged=0, reacted=0).text
    assert nothing == "Camellia · lun 30 nov: 0 calificadas — no llegó ninguna conversación"
