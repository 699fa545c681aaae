"""Issue 13, point 1: every post says what its level means and what to do about each failing check,
names languages rather than codes, names judged dimensions as judged, and repeats no receipt."""

from __future__ import annotations

from blocks import build_conversation_blocks, build_turn_blocks, validate_post
from blocks.common import PostContent
from cerebrus import grade
from gradecore.model.contract import Conversation
from gradecore.model.grades import ConversationGrade
from gradecore.model.vocabulary import Evidence, Layer, Level, Owner
from tests.blocks.factories import (
    conversation_grade,
    demo_conversation,
    dim,
    synthetic_conversation,
    turn_grade,
)
from tests.blocks.reading import visible_text


def graded(name: str) -> tuple[ConversationGrade, Conversation]:
    conversation = demo_conversation(name)
    return grade(conversation), conversation


def parent(pair: tuple[ConversationGrade, Conversation], locale: str | None = None) -> PostContent:
    result, conversation = pair
    content = build_conversation_blocks(
        result,
        conversation,
        machine_grade_id="mg-1",
        conversation_url=None,
        idempotency_key="k",
        locale=locale,
    )
    validate_post(content)
    return content


def reply(pair: tuple[ConversationGrade, Conversation], locale: str | None = None) -> PostContent:
    result, conversation = pair
    content = build_turn_blocks(
        result.flagged_turns[0],
        result,
        conversation,
        machine_grade_id="mg-2",
        idempotency_key="k",
        locale=locale,
    )
    validate_post(content)
    return content


def test_the_headline_context_carries_the_level_meaning() -> None:
    expected = {
        "lampliter-unbacked-promise": "BLOCK — this should never have gone out",
        "birchwood-dead-thread": "HOLD — someone should follow up",
        "birchwood-rent-mismatch": "REPAIR — a detail to fix",
    }
    for name, legend in expected.items():
        context = parent(graded(name)).blocks[1].to_dict()
        assert [element["text"] for element in context["elements"]][-1] == legend, name


def test_each_failing_check_says_what_to_do() -> None:
    text = visible_text(reply(graded("birchwood-rent-mismatch")))
    assert "→ What to do: confirm the amount, and correct it with them if it is wrong" in text
    camellia = visible_text(reply(graded("camellia-double-send")))
    assert "→ What to do: check the access code — change it if a prospect should not have it" in camellia
    # A failure that is ours (a tool) asks nothing of the property. Issue 20: it promises a ticket only
    # when one is filed; until then it says what opens one.
    assert "→ What to do: nothing for you — a 👍 here opens a ticket for engineers" in camellia
    assert "engineers have a ticket" not in camellia
    assert camellia.count("What to do:") == camellia.count("• *")
    result, conversation = graded("camellia-double-send")
    ours = {d.check for d in result.flagged_turns[0].dimensions if d.failed and d.owner.value == "ours"}
    ticketed = build_turn_blocks(
        result.flagged_turns[0],
        result,
        conversation,
        machine_grade_id="mg-2",
        idempotency_key="k",
        tickets=dict.fromkeys(ours, "https://tracker.example.test/issues/7"),
    )
    filed = visible_text(ticketed)
    assert "engineers have a ticket for it · <https://tracker.example.test/issues/7|the ticket>" in filed
    assert "a 👍 here opens a ticket" not in filed


def test_languages_are_named_not_coded() -> None:
    text = visible_text(reply(graded("camellia-wrong-language")))
    assert "Written to in Spanish, Clara answered in English." in text
    assert " in es," not in text and "in en." not in text
    spanish = visible_text(reply(graded("camellia-wrong-language"), locale="es"))
    assert "Le escribieron en español y Clara respondió en inglés." in spanish


def test_judged_dimensions_are_named_as_judged() -> None:
    text = visible_text(parent(graded("birchwood-dead-thread")))
    assert "*HOLD · unanswered question*" in text  # the deterministic follow-up check failed…
    assert "tone and pacing not rated this time" in text  # …and the judge did not run
    assert "not checked: tone, pacing" not in text and "judge lane" not in text


def test_the_same_receipt_is_never_listed_twice_in_one_post() -> None:
    conversation = synthetic_conversation(["Your rent is $2,000 and the fee is $2,000."])
    same = Evidence(message_id="out0", quote="$2,000", fact_key="amounts")
    failures = [
        dim("amounts_match_ledger", Layer.OUTPUT, level=Level.REPAIR, evidence=(same, same, same)),
        dim("no_ungrounded_policy_claim", Layer.OUTPUT, level=Level.BLOCK, evidence=(same,)),
        dim("tools_succeeded", Layer.TOOLS, owner=Owner.OURS, evidence=(same,)),
    ]
    result = conversation_grade(conversation, [], [turn_grade("turn-0", "out0", 1, failures)])
    text = visible_text(reply((result, conversation)))
    assert text.count("“$2,000”") == 1
    assert "checked against" not in text  # which ledger entry was read is engineering detail
