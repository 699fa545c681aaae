"""Properties of grading over generated valid conversations."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from cerebrus import grade
from gradecore.model.contract import Conversation
from gradecore.model.vocabulary import Level, Outcome, worst
from tests.cerebrus.strategies import conversations
from tests.profiles import examples


@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.too_slow])
@given(conversations())
def test_grading_is_total_deterministic_and_honest(conversation: Conversation) -> None:
    graded = grade(conversation)
    assert graded == grade(conversation)

    everything = graded.all_dimensions()
    assert graded.level is worst(d.colouring_level for d in everything)
    for turn in graded.turns:
        assert turn.level is worst(d.colouring_level for d in turn.dimensions)
    assert graded.flagged is (graded.level is not Level.PASS)
    assert graded.headline.level is graded.level

    codes = conversation.property.facts.access_codes
    for dimension in everything:
        if dimension.outcome is Outcome.FAIL:
            assert dimension.evidence, dimension.check
        for evidence in dimension.evidence:
            if evidence.quote is not None:
                assert evidence.span is not None and evidence.message_id is not None
                draft = conversation.message(evidence.message_id).text
                assert draft[evidence.span.start : evidence.span.end] == evidence.quote
            for text in (evidence.quote, evidence.detail):
                assert not any(code in (text or "") for code in codes), (dimension.check, text)
