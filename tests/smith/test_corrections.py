"""Reading a human's threaded reply as a correction: level, reason and principle tags
(docs/slack-endpoint.md)."""

from __future__ import annotations

from typing import Any

import pytest

from gradecore.model.vocabulary import Level
from smith.listening.corrections import Correction, parse_correction, reply_text, text_from_blocks

P, R, H, B = Level.PASS, Level.REPAIR, Level.HOLD, Level.BLOCK

# (id, reply text, expected level, reason, tags)
CASES: list[tuple[str, str, Level | None, str | None, tuple[str, ...]]] = [
    # English phrasings and separators
    ("em-dash", "Should be PASS — the arrival section exists", P, "the arrival section exists", ()),
    ("hyphen", "should be repair - the amount is off by $50", R, "the amount is off by $50", ()),
    ("colon", "Should be HOLD: office hours are missing", H, "office hours are missing", ()),
    ("comma", "should be block, she leaked the gate code", B, "she leaked the gate code", ()),
    ("because", "Should be PASS because the vendor was dispatched", P, "the vendor was dispatched", ()),
    ("dash-because", "Should be PASS — because it's on file", P, "it's on file", ()),
    ("bare", "Should be BLOCK", B, None, ()),
    ("bare-period", "Should be hold.", H, None, ()),
    ("should-have-been", "This should have been REPAIR, the total is wrong", R, "the total is wrong", ()),
    ("shouldve-ascii", "should've been pass. Facts were there", P, "Facts were there", ()),
    ("shouldve-curly", "Should’ve been BLOCK — code to a prospect", B, "code to a prospect", ()),
    ("expected-colon", "Expected: HOLD — escalation still open", H, "escalation still open", ()),
    ("expected-space", "expected pass, nothing wrong here", P, "nothing wrong here", ()),
    ("expected-level", "Expected level: repair. Typo in the price", R, "Typo in the price", ()),
    ("article", "should be a PASS - fine", P, "fine", ()),
    ("be-colon", "Should be: BLOCK", B, None, ()),
    ("multiline", "Should be PASS\nThe arrival section exists.", P, "The arrival section exists.", ()),
    ("reason-before", "The arrival section exists. Should be PASS", P, "The arrival section exists.", ()),
    ("no-reason-fragment", "Honestly this should be PASS", P, None, ()),
    ("later-in-reply", "Good catch on tone. But should be REPAIR, not block", R, "not block", ()),
    # Odd casing, markdown, Slack markup
    ("odd-casing", "sHoUlD bE pAsS — fine", P, "fine", ()),
    ("bold", "*Should be PASS* — it was fine", P, "it was fine", ()),
    ("italic-level", "should be _pass_ because it was fine", P, "it was fine", ()),
    ("code-level", "Expected: `BLOCK` — leaked", B, "leaked", ()),
    ("strike-and-bold", "should be **hold** ~maybe~", H, "maybe", ()),
    ("mention-first", "<@U123ABC> should be PASS — ok", P, "ok", ()),
    ("mention-labelled", "<@U1|maria> Should be BLOCK: code shown", B, "code shown", ()),
    ("link-in-reason", "Should be HOLD — see <https://wiki.example/x|the runbook>", H, "see the runbook", ()),
    ("bare-link", "Should be HOLD — <https://wiki.example/x>", H, "https://wiki.example/x", ()),
    ("escaped", "Should be REPAIR — rent &amp; fees &lt;wrong&gt;", R, "rent & fees <wrong>", ()),
    ("channel-not-tag", "Should be PASS — ask in <#C42|leasing>", P, "ask in leasing", ()),
    # Tags
    ("tag-end", "Should be PASS — it exists #arrival-section", P, "it exists", ("arrival-section",)),
    ("tag-middle", "Should be PASS #arrival-section — it exists", P, "it exists", ("arrival-section",)),
    (
        "tag-underscore",
        "should be block #Arrival_Section #no-codes",
        B,
        None,
        ("arrival-section", "no-codes"),
    ),
    ("tag-dedup", "Should be HOLD #Tone #tone #TONE", H, None, ("tone",)),
    (
        "tag-url-anchor",
        "Should be PASS — see https://x.example/page#anchor",
        P,
        "see https://x.example/page#anchor",
        (),
    ),
    # Spanish
    ("es-deberia", "Debería ser PASS — la sección de llegada existe", P, "la sección de llegada existe", ()),
    ("es-no-accent", "deberia ser block porque filtra el código", B, "filtra el código", ()),
    ("es-debio", "Debió ser REPAIR: el monto está mal", R, "el monto está mal", ()),
    ("es-haber-sido", "Debería haber sido HOLD", H, None, ()),
    ("es-esperado", "Esperado: BLOQUEO — código a un prospecto", B, "código a un prospecto", ()),
    ("es-pasa", "debería ser pasa, todo bien #Tono-Cálido", P, "todo bien", ("tono-calido",)),
    ("es-aprobado", "Debería ser aprobado — correcto", P, "correcto", ()),
    ("es-reparar", "Debería ser reparar: precio equivocado", R, "precio equivocado", ()),
    ("es-retener", "debió ser retener", H, None, ()),
    ("es-espera", "Nivel esperado: espera", H, None, ()),
    ("es-bloquear", "DEBERÍA SER BLOQUEAR", B, None, ()),
    ("es-negated-then-real", "No debería ser pasa, debería ser bloqueo", B, None, ()),
    # Notes: no level named
    ("note", "Looks fine to me", None, "Looks fine to me", ()),
    ("note-tags", "The tone is cold #tone #Warmth", None, "The tone is cold", ("tone", "warmth")),
    ("note-only-mention", "<@U123>", None, None, ()),
    ("empty", "", None, None, ()),
    ("es-note", "El tono está bien, gracias", None, "El tono está bien, gracias", ()),
    # False-positive traps: a level word outside a correction phrase
    ("trap-should-pass", "this should pass review", None, "this should pass review", ()),
    ("trap-the-pass", "the pass was fine", None, "the pass was fine", ()),
    (
        "trap-inflected",
        "this should be passed to the manager",
        None,
        "this should be passed to the manager",
        (),
    ),
    ("trap-blocked", "should be blocked", None, "should be blocked", ()),
    ("trap-negated-en", "shouldn't be block", None, "shouldn't be block", ()),
    ("trap-should-not", "should not be HOLD", None, "should not be HOLD", ()),
    ("trap-unexpected", "unexpected hold on the account", None, "unexpected hold on the account", ()),
    ("trap-es-negated", "no debería ser bloqueo", None, "no debería ser bloqueo", ()),
    ("trap-as-expected", "As expected, hold music was long", None, "As expected, hold music was long", ()),
]


@pytest.mark.parametrize(
    ("text", "level", "reason", "tags"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_parse_correction(text: str, level: Level | None, reason: str | None, tags: tuple[str, ...]) -> None:
    assert parse_correction(text) == Correction(expected_level=level, reason=reason, tags=tags)


def test_is_note_means_no_level() -> None:
    assert parse_correction("Looks fine").is_note
    assert not parse_correction("Should be PASS").is_note


def _rich(*elements: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"type": "rich_text", "block_id": "b1", "elements": list(elements)}]


def _section(*elements: dict[str, Any]) -> dict[str, Any]:
    return {"type": "rich_text_section", "elements": list(elements)}


def _text(text: str, **style: bool) -> dict[str, Any]:
    return {"type": "text", "text": text, **({"style": style} if style else {})}


RICH_BLOCKS = _rich(
    _section(
        {"type": "user", "user_id": "U9"},
        _text(" "),
        _text("Should be", bold=True),
        _text(" PASS — see "),
        {"type": "link", "url": "https://x.example", "text": "the doc"},
        _text(" "),
        {"type": "emoji", "name": "thumbsup"},
        _text(" a < b & c "),
        {"type": "channel", "channel_id": "C1"},
    ),
    {
        "type": "rich_text_list",
        "style": "bullet",
        "elements": [_section(_text("#arrival-section")), _section(_text("office hours on file"))],
    },
    {"type": "rich_text_quote", "elements": [_text("quoted")]},
    {"type": "rich_text_preformatted", "elements": [_text("code")]},
)


def test_text_from_blocks_renders_slack_text_form() -> None:
    assert text_from_blocks(RICH_BLOCKS) == (
        "<@U9> Should be PASS — see <https://x.example|the doc> :thumbsup: a &lt; b &amp; c <#C1>\n"
        "#arrival-section\noffice hours on file\nquoted\ncode"
    )


def test_reply_with_empty_text_is_read_from_blocks() -> None:
    event = {"type": "message", "text": "", "blocks": RICH_BLOCKS, "thread_ts": "1.0", "ts": "2.0"}
    assert parse_correction(reply_text(event)) == Correction(
        expected_level=P,
        reason="see the doc :thumbsup: a < b & c office hours on file quoted code",
        tags=("arrival-section",),
    )


def test_reply_text_prefers_text_over_blocks() -> None:
    event = {"text": "Should be HOLD", "blocks": RICH_BLOCKS}
    assert reply_text(event) == "Should be HOLD"


def test_reply_text_of_an_edit_reads_the_new_message() -> None:
    event = {
        "subtype": "message_changed",
        "message": {"text": "", "blocks": _rich(_section(_text("Debería ser BLOQUEO")))},
        "previous_message": {"text": "Should be PASS"},
    }
    assert parse_correction(reply_text(event)).expected_level is B


def test_reply_text_without_text_or_blocks_is_empty() -> None:
    assert reply_text({"type": "message"}) == ""
    assert reply_text({"subtype": "message_changed"}) == ""
