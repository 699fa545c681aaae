"""Access codes are found and masked by one matcher per code list, whatever the list's length."""

from __future__ import annotations

import json
import random
import re
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from gradecore.model.access_codes import CodeMatcher, code_matcher, mask_code
from gradecore.model.contract import parse_conversation
from gradecore.persistence.store import Store
from smith.ingest import Ingestor
from tests.conftest import load_demo
from tests.profiles import examples


def test_long_codes_are_found_inside_tokens_and_short_ones_only_as_tokens() -> None:
    matcher = CodeMatcher(["4821", "12"])
    text = "gate 04821, unit 12, not 123 or a12"
    assert [text[s:e] for s, e in matcher.spans(text)] == ["4821", "12"]
    assert [text[s:e] for s, e in matcher.spans(text, whole_tokens_only=True)] == ["12"]


def test_matching_ignores_case_and_prefers_the_longest_code_at_a_place() -> None:
    matcher = CodeMatcher(["ab12", "AB12CD"])
    assert matcher.mask("door AB12CD, side ab12") == "door ••CD, side ••12"


def test_masking_keeps_length_and_leaves_no_code_spelled_again() -> None:
    matcher = CodeMatcher(["2121", "77"])
    masked = matcher.mask("pin 212121 and 77", keep_length=True)
    assert len(masked) == len("pin 212121 and 77")
    assert "2121" not in masked and " 77" not in masked
    assert masked == "pin ••••21 and ••"


def test_one_mask_policy_shows_at_most_the_last_two_characters_and_none_of_a_short_code() -> None:
    assert [mask_code(code) for code in ("4821", "AB12CD", "123")] == ["••21", "••CD", "••"]
    assert [mask_code(code, keep_length=True) for code in ("4821", "AB12CD", "123")] == [
        "••21",
        "••••CD",
        "•••",
    ]
    assert CodeMatcher(["12"]).mask("unit 12") == "unit ••"
    masked = code_matcher(["4821", "99#7"]).mask("codes 4821 and 99#7 and 4821")
    assert masked == "codes ••21 and ••#7 and ••21"


def test_a_code_that_spells_its_own_mask_still_ends() -> None:
    assert CodeMatcher(["••21"]).mask("x ••21 y") == "x ••21 y"


def test_no_codes_match_nothing() -> None:
    assert not CodeMatcher(["", ""])
    assert CodeMatcher([]).mask("4821") == "4821"


def _reference_spans(codes: list[str], text: str) -> set[tuple[int, int]]:
    """Where the old per-code patterns found codes (the same policy, one regex per code)."""
    found: set[tuple[int, int]] = set()
    for code in codes:
        body = re.escape(code)
        pattern = body if len(code) >= 4 else rf"(?<![0-9A-Za-z]){body}(?![0-9A-Za-z])"
        found |= {m.span() for m in re.finditer(pattern, text, re.IGNORECASE)}
    return found


@settings(max_examples=examples(200))
@given(
    codes=st.lists(st.text(alphabet="0123456789abAB#", min_size=1, max_size=6), min_size=1, max_size=8),
    text=st.text(alphabet="0123456789abAB# x", max_size=60),
)
def test_every_span_found_is_a_code_and_every_code_occurrence_is_covered(codes: list[str], text: str) -> None:
    matcher = CodeMatcher(codes)
    spans = matcher.spans(text)
    lowered = {code.lower() for code in codes}
    assert all(text[s:e].lower() in lowered for s, e in spans)
    covered = {i for s, e in spans for i in range(s, e)}
    for start, end in _reference_spans(codes, text):
        # Every occurrence the per-code patterns saw is at least partly inside a found span (a longer
        # or earlier code may have claimed the overlap).
        assert covered & set(range(start, end)), (codes, text, (start, end))
    masked = matcher.mask(text, keep_length=True)
    assert not matcher.spans(masked) or any(c.startswith("•") for c in codes)


def test_the_matcher_for_a_list_is_built_once() -> None:
    codes = [f"{n:06d}" for n in range(100)]
    assert code_matcher(codes) is code_matcher(list(codes))
    assert code_matcher(code_matcher(codes)) is code_matcher(codes)


def test_fifty_thousand_codes_still_grade_and_mask_correctly(store: Store) -> None:
    rng = random.Random(7)
    many = [f"{rng.randrange(10**7):07d}" for _ in range(50_000)]
    planted = many[25_000]
    document = json.loads(load_demo("camellia-double-send.json"))
    document["property"]["facts"]["access_codes"] = ["4821", *many]
    draft = document["messages"][-1]
    draft["text"] += f" The side door takes {planted}."
    conversation = parse_conversation(json.dumps(document).encode())

    started = time.perf_counter()
    result = Ingestor(store).ingest(conversation)
    print(f"bench: ingest with 50,001 access codes took {time.perf_counter() - started:.2f} s")

    assert result.grade is not None and result.grade.level.value == "block"
    [turn] = [t for t in result.grade.turns if t.flagged]
    [check] = [d for d in turn.dimensions if d.check == "no_access_code_to_prospect"]
    found = sorted(draft["text"][e.span.start : e.span.end] for e in check.evidence if e.span is not None)
    assert found == sorted(["4821", planted])
    assert "4821" not in check.model_dump_json() and planted not in check.model_dump_json()
    with store.unit() as unit:
        payloads = [json.dumps(post.payload) for post in unit.outbox.list()]
    assert payloads, "the flagged conversation was queued for Slack"
    assert all("4821" not in payload and planted not in payload for payload in payloads)
