"""The phrase pattern language: what each element matches, whole tokens only, and clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cerebrus.phrase_syntax import compile_phrase
from cerebrus.phrases import Choice, PatternError, Phrase, PhraseSet
from cerebrus.tokens import _TOKEN, TokenizedText, reading_of, split_clitic
from tests.profiles import examples

SLOTS = {
    "future": ["will", "'ll", "is going to"],
    "trade": ["plumber", "maintenance team", "hvac tech"],
    "visit": ["come by", "be there", "fix"],
    "filler": ["is", "was", "just", "an"],
    "multi": ["a b"],
    "empty": [],
}


def matches(pattern: str, text: str) -> list[str]:
    phrase = compile_phrase(pattern, SLOTS)
    tokens = TokenizedText(text)
    quotes = []
    for start, end in phrase.finditer(tokens):
        span = tokens.folded.span(start, end)
        quotes.append(text[span.start : span.end])
    return quotes


@pytest.mark.parametrize(
    ("pattern", "text", "found"),
    [
        ("can", "I can't go. Can you? Cannot.", ["Can"]),  # never inside a token or a contraction
        ("(i | we) {future} fix", "We'll fix it and I will fix that", ["We'll fix", "I will fix"]),
        (
            "{trade} [0-4] {future} {visit}",
            "A plumber from Desert Flow Plumbing will come by",
            ["plumber from Desert Flow Plumbing will come by"],
        ),
        ("{trade} [0-2] {future} {visit}", "A plumber from Desert Flow Plumbing will come by", []),
        (
            "{trade} {future} {visit}",
            "The HVAC tech is going to be there",
            ["HVAC tech is going to be there"],
        ),
        (
            "system [0-3 {filler}] down",
            "The system is just down; the system library is down",
            ["system is just down"],
        ),
        ("system [1-2] down", "system down, system is down", ["system is down"]),
        (
            "send you? (the | your)? code",
            "send the code, send you your code, send code",
            ["send the code", "send you your code", "send code"],
        ),
        (
            "el tecnico (ira | va a pasar)",
            "El Técnico irá y el técnico va a pasar",
            ["El Técnico irá", "el técnico va a pasar"],
        ),
        ("e-mail", "email me or e-mail me", ["e-mail"]),
        ("system [0-2 {filler}] down", "the system's down", []),  # `'s` is not in this gap's vocabulary
        ("what", "What's up? what now", ["what"]),
        ("(what | what's)", "What's up? what now", ["What's", "what"]),
        ("i {future}", "I'll", ["I'll"]),
        ("{multi}", "x a b c", ["a b"]),
    ],
)
def test_elements_match_whole_tokens(pattern: str, text: str, found: list[str]) -> None:
    assert matches(pattern, text) == found


def test_matches_are_leftmost_longest_and_do_not_overlap() -> None:
    assert matches("a [0-3] b", "a a b b") == ["a a b b"]
    assert matches("x y?", "x y x") == ["x y", "x"]


@pytest.mark.parametrize(
    ("pattern", "problem"),
    [
        ("", "empty"),
        ("(a | b", "not closed"),
        ("a )", "unexpected ')'"),
        ("(a | )", "empty alternative"),
        ("((a))", "do not nest"),
        ("{nope} a", "unknown slot {nope}"),
        ("{empty}", "slot {empty} is empty"),
        ("a [0-9] b", "bad gap"),
        ("a [3-1] b", "bad gap"),
        ("a [x] b", "bad gap"),
        ("a [0-2 {multi}] b", "must hold single words"),
        ("[0-2] a", "cannot start or end with a gap"),
        ("a?", "could match nothing"),
        ("'ll a", "cannot begin with the clitic"),
        ("a [0-2]? b", "cannot be optional"),
        ("a.b", "is not one token"),
        ("a # b", "'#' is not one token"),
        ("a ] b", "unexpected ']'"),
    ],
)
def test_a_malformed_pattern_names_its_problem(pattern: str, problem: str) -> None:
    with pytest.raises(PatternError) as caught:
        compile_phrase(pattern, SLOTS)
    assert problem in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_set_dismisses_texts_without_any_first_word() -> None:
    phrases = PhraseSet([(compile_phrase("{trade} {future} {visit}", SLOTS), "visit")])
    assert not phrases.may_match(TokenizedText("Thanks, see you soon."))
    assert phrases.scan(TokenizedText("Thanks, see you soon.")) == []
    [(_, payload, start, end)] = phrases.scan(TokenizedText("ok, the plumber will fix it"))
    assert (payload, start, end) == ("visit", 8, 24)


def test_matching_stays_linear_on_adversarial_gaps() -> None:
    # Nested gaps and options over a long run of fillers: each element keeps a set of reached states,
    # so the work stays bounded by the window, whatever the nesting.
    phrase = compile_phrase("a [0-8] a? [0-8] a? [0-8] a? [0-8] z", SLOTS)
    tokens = TokenizedText("a " * 5000)
    assert list(phrase.finditer(tokens)) == []


# --- against a plain reference: every way of matching, tried exhaustively ---------------------------


def _reference_ends(phrase: Phrase, written: tuple[str, ...], start: int) -> set[int]:
    """Every end position (in written tokens) the pattern can reach from the token `start`, by
    exhaustive search over the tokens as read (docs/text-matching.md: "we'll" reads as "we will", so a gap
    counts read words); a match ends only where a written token ends."""
    reading = reading_of(written)
    words, sources = (
        reading if reading is not None else (list(written), [(i, i + 1) for i in range(len(written))])
    )
    begin = next((index for index, (first, _) in enumerate(sources) if first == start), None)
    if begin is None:
        return set()
    read_ends = _read_ends(phrase, tuple(words), begin)
    token_ends = {
        sources[end - 1][1]
        for end in read_ends
        if end == len(words) or sources[end][0] != sources[end - 1][0]
    }
    return {end for end in token_ends if end > start}


def _read_ends(phrase: Phrase, words: tuple[str, ...], start: int) -> set[int]:
    """Every end position the pattern can reach from `start` in `words` as read."""
    ends: set[int] = set()

    def walk(index: int, position: int, pending: str | None) -> None:
        if index == len(phrase.elements):
            if pending is None:
                ends.add(position)
            return
        element = phrase.elements[index]
        if isinstance(element, Choice):
            if element.optional:
                walk(index + 1, position, pending)
            for alternative in element.alternatives:
                step = _reference_consume(alternative, words, position, pending)
                if step is not None:
                    walk(index + 1, *step)
        else:
            for count in range(element.least, element.most + 1):
                state: tuple[int, str | None] | None = (position, pending)
                for _ in range(count):
                    assert state is not None
                    at, tail = state
                    if tail is not None:
                        state = (at, None) if element.allowed is None or tail in element.allowed else None
                    elif at < len(words) and (element.allowed is None or words[at] in element.allowed):
                        state = (at + 1, None)
                    else:
                        state = None
                    if state is None:
                        break
                if state is not None:
                    walk(index + 1, *state)

    walk(0, start, None)
    return ends


def _reference_consume(
    alternative: tuple[str, ...], words: tuple[str, ...], position: int, pending: str | None
) -> tuple[int, str | None] | None:
    for word in alternative:
        if pending is not None:
            if word != pending:
                return None
            pending = None
        elif position < len(words) and words[position] == word and not word.startswith("'"):
            position += 1
        elif position < len(words) and (pair := split_clitic(words[position])) and pair[0] == word:
            pending, position = pair[1], position + 1
        else:
            return None
    return position, pending


_PIECES = [
    "a",
    "b",
    "we'll",
    "we",
    "is",
    "(a | b)",
    "b?",
    "{future}",
    "[0-2]",
    "[1-3 {filler}]",
    "(we | a b)",
]
_WORDS = ["a", "b", "we", "we'll", "will", "is", "just", "x"]


@settings(max_examples=examples(300))
@given(
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=5).map(lambda parts: ["a", *parts, "b"]),
    st.lists(st.sampled_from(_WORDS), max_size=10),
)
def test_the_state_set_matcher_finds_the_longest_match_the_reference_finds(
    parts: list[str], words: list[str]
) -> None:
    phrase = compile_phrase(" ".join(parts), SLOTS)
    tokens = TokenizedText(" ".join(words))
    for start in range(len(tokens.words)):
        ends = _reference_ends(phrase, tokens.words, start)
        longest = phrase.longest_prefix(tokens.words[start:])
        assert (start + longest if longest >= 0 else -1) == (max(ends) if ends else -1)


def _reference_finditer(phrase: Phrase, tokens: TokenizedText) -> list[tuple[int, int]]:
    """Leftmost-longest, non-overlapping matches over the whole token list, as folded offsets."""
    bounds = [match.span() for match in _TOKEN.finditer(tokens.folded.folded)]
    found: list[tuple[int, int]] = []
    position = 0
    while position < len(tokens.words):
        covered = phrase.longest_prefix(tokens.words[position:])
        stop = position + covered
        if covered > 0:
            found.append((bounds[position][0], bounds[stop - 1][1]))
            position = stop
        else:
            position += 1
    return found


@settings(max_examples=examples(300))
@given(
    st.tuples(
        st.sampled_from(["a", "we", "(we | a b)", "is"]), st.lists(st.sampled_from(_PIECES), max_size=4)
    ).map(lambda pair: [pair[0], *pair[1], "b"]),
    st.lists(st.sampled_from([*_WORDS, "a-b", "ab", "ba", "x.a", "1,2", "a'b", "we's"]), max_size=10),
    st.sampled_from([" ", ", ", "-", "'", ". "]),
)
def test_matching_from_where_first_words_stand_equals_matching_every_token(
    parts: list[str], words: list[str], separator: str
) -> None:
    phrase = compile_phrase(" ".join(parts), SLOTS)
    tokens = TokenizedText(separator.join(words))
    assert list(phrase.finditer(tokens)) == _reference_finditer(phrase, tokens)


@given(st.text(alphabet=st.sampled_from(list("ab9 '-.,_\u2010é")), max_size=30))
def test_a_token_starts_exactly_where_the_tokenizer_starts_one(text: str) -> None:
    tokens = TokenizedText(text)
    folded = tokens.folded.folded
    starts = {match.start() for match in _TOKEN.finditer(folded)}
    assert {offset for offset in range(len(folded)) if tokens.starts_token(offset)} == starts


# v3 (issue 21): contractions read as written and expanded; finding a match from the places its
# first words (as written: "can" for "cannot", "im" for "i") stand, with the short look at a
# several-word first element, finds what matching at every token finds.
_READ_PIECES = ["(we will | a b)", "(i am | we)", "cannot", "(do not | is)", "{future}", "[0-2]", "b?", "a"]
_READ_WORDS = ["a", "b", "we", "we'll", "will", "i", "i'm", "im", "am", "can", "not", "cannot"]
_READ_WORDS += ["can't", "don't", "do", "dont", "isn't", "is", "x", "what's", "whats"]


@settings(max_examples=examples(300))
@given(
    st.tuples(
        st.sampled_from(["(we will | a b)", "(i am | we)", "cannot", "(do not | is)", "a"]),
        st.lists(st.sampled_from(_READ_PIECES), max_size=3),
    ).map(lambda pair: [pair[0], *pair[1], "b"]),
    st.lists(st.sampled_from(_READ_WORDS), max_size=10),
    st.sampled_from([" ", ", ", "  "]),
)
def test_matching_a_contraction_from_where_first_words_stand_equals_matching_every_token(
    parts: list[str], words: list[str], separator: str
) -> None:
    phrase = compile_phrase(" ".join(parts), SLOTS)
    tokens = TokenizedText(separator.join(words))
    assert list(phrase.finditer(tokens)) == _reference_finditer(phrase, tokens)


@pytest.mark.parametrize(
    ("pattern", "text", "found"),
    [
        ("i am unable", "Im unable. I'm unable! I am unable", ["Im unable", "I'm unable", "I am unable"]),
        ("i cannot", "I can't, I can not, I cannot, I can", ["I can't", "I can not", "I cannot"]),
        ("we will send", "We'll send it; we will send it; well send it", ["We'll send", "we will send"]),
        ("do", "don't do that", ["do"]),  # a match ends where a token ends
    ],
)  # fmt: skip
def test_contractions_are_matched_as_written_and_expanded(pattern: str, text: str, found: list[str]) -> None:
    phrase = compile_phrase(pattern, SLOTS)
    tokens = TokenizedText(text)
    assert [text[start:end] for start, end in phrase.finditer(tokens)] == found
