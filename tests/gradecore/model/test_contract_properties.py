"""Properties of the contract over generated input: valid documents round-trip, and nothing the platform
could send (arbitrary JSON, mutated documents, arbitrary bytes) raises anything but ContractViolation."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gradecore.model.contract import (
    ContractViolation,
    Conversation,
    canonical_json,
    parse_conversation,
    validate_conversation,
)
from gradecore.persistence.store import content_hash
from tests.gradecore.strategies import Doc, conversation_docs, json_values
from tests.profiles import examples

FAST = settings(max_examples=examples(200), suppress_health_check=[HealthCheck.too_slow])


def _strict_json(text: str) -> Any:
    """Parse as standard JSON: NaN and Infinity are Python extensions, not JSON."""

    def refuse(constant: str) -> Any:
        raise AssertionError(f"non-standard JSON constant {constant}")

    return json.loads(text, parse_constant=refuse)


def _reordered(value: Any) -> Any:
    """The same JSON with every object's keys in reverse order."""
    if isinstance(value, dict):
        return {key: _reordered(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [_reordered(item) for item in value]
    return value


@FAST
@given(conversation_docs())
def test_valid_documents_round_trip(doc: Doc) -> None:
    first = validate_conversation(doc)
    dumped = first.model_dump(mode="json", by_alias=True)
    second = validate_conversation(dumped)
    assert second == first
    assert canonical_json(second) == canonical_json(first)
    assert parse_conversation(json.dumps(doc)) == first
    assert parse_conversation(canonical_json(first)) == first


@FAST
@given(conversation_docs())
def test_canonical_json_is_stable_and_strict(doc: Doc) -> None:
    conversation = validate_conversation(doc)
    canonical = canonical_json(conversation)
    assert canonical_json(validate_conversation(_reordered(doc))) == canonical
    assert canonical_json(validate_conversation(_strict_json(canonical))) == canonical
    assert content_hash(validate_conversation(_reordered(doc))) == content_hash(conversation)


def _outcome(call: Callable[[], Conversation]) -> Conversation | ContractViolation:
    """A conversation or a ContractViolation; anything else propagates and fails the test."""
    try:
        return call()
    except ContractViolation as violation:
        return violation


def _accepted_or_violation(data: object) -> None:
    """The only two acceptable outcomes of validation; an accepted document must also be storable."""
    outcome = _outcome(lambda: validate_conversation(data))
    if isinstance(outcome, ContractViolation):
        assert outcome.errors
        assert all(isinstance(path, str) and path and message for path, message in outcome.errors)
        return
    _strict_json(canonical_json(outcome))
    content_hash(outcome)  # hashing encodes to UTF-8: it must not fail on anything accepted


@FAST
@given(json_values)
def test_arbitrary_json_only_raises_violations(value: Any) -> None:
    _accepted_or_violation(value)
    _accepted_or_violation({"schema": "smith.conversation/v1", "messages": value, "turns": value})


@st.composite
def mutated_docs(draw: st.DrawFn) -> Doc:
    """A valid document with one value somewhere replaced by random JSON, or deleted."""
    doc = draw(conversation_docs())
    slots: list[tuple[Any, Any]] = []

    def collect(container: Any) -> None:
        keys = list(container) if isinstance(container, dict) else range(len(container))
        for key in keys:
            slots.append((container, key))
            if isinstance(container[key], dict | list):
                collect(container[key])

    collect(doc)
    container, key = draw(st.sampled_from(slots))
    if draw(st.booleans()):
        del container[key]
    else:
        container[key] = draw(json_values | st.sampled_from([float("nan"), float("inf"), "\x00", "\ud800"]))
    return doc


@FAST
@given(mutated_docs())
def test_mutated_documents_only_raise_violations(doc: Doc) -> None:
    _accepted_or_violation(doc)


@FAST
@given(st.binary(max_size=2_000))
def test_arbitrary_bytes_only_raise_violations(raw: bytes) -> None:
    outcome = _outcome(lambda: parse_conversation(raw))
    assert isinstance(outcome, Conversation) or outcome.errors[0][0] == "$"


@FAST
@given(st.text(st.characters(categories=["Cs", "Cc", "Lu", "Ll", "Nd", "Po", "Ps", "Pe"]), max_size=200))
def test_arbitrary_text_only_raises_violations(raw: str) -> None:
    outcome = _outcome(lambda: parse_conversation(raw))
    assert isinstance(outcome, Conversation) or outcome.errors


@FAST
@given(mutated_docs())
def test_mutated_documents_as_bytes_only_raise_violations(doc: Doc) -> None:
    raw = json.dumps(doc).encode()  # NaN becomes the non-standard literal NaN; surrogates are escaped
    outcome = _outcome(lambda: parse_conversation(raw))
    assert isinstance(outcome, Conversation) or outcome.errors
