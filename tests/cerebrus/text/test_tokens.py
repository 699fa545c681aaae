"""The tokenizer every text check shares: whole tokens, folded, with exact spans into the original."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cerebrus.text.folding import fold
from cerebrus.text.tokens import (
    _TOKEN,
    TokenizedText,
    first_piece,
    read_token,
    reading_of,
    split_clitic,
    tokens_of,
)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Can't wait, we'll see!", ["can't", "wait", "we'll", "see"]),
        ("Send it by e-mail to 555-2580.", ["send", "it", "by", "e-mail", "to", "555-2580"]),
        ("Total: $1,950.00 or 1.950,00", ["total", "1,950.00", "or", "1.950,00"]),
        ("Ends with a comma, 1, 2. Then 3.5", ["ends", "with", "a", "comma", "1", "2", "then", "3.5"]),
        ("Código DE ÉRROR", ["codigo", "de", "error"]),
        ("We’ll text you — it’s fine", ["we'll", "text", "you", "it's", "fine"]),  # curly → straight
        ("ﬁle Ｔｏｏｌ", ["file", "tool"]),  # compatibility forms (NFKC) fold too
        ("snake_case 'quoted' -dash-", ["snake", "case", "quoted", "dash"]),
        ("", []),
    ],
)
def test_tokens_are_runs_of_letters_and_digits_with_internal_joiners(text: str, words: list[str]) -> None:
    assert list(TokenizedText(text).words) == words
    assert tokens_of(text) == words


@pytest.mark.parametrize(
    ("text", "first", "stop", "quote"),
    [
        ("Our SYSTEM is down", 1, 4, "SYSTEM is down"),
        ("El técnico va a pasar", 0, 2, "El técnico"),
        ("Co\u0301digo de error", 0, 1, "Co\u0301digo"),  # a decomposed accent stays in the quote
        ("We’ll send it", 0, 2, "We’ll send"),
        ("İstanbul office", 1, 2, "office"),  # İ folds to two characters
    ],
)
def test_spans_quote_the_original_text(text: str, first: int, stop: int, quote: str) -> None:
    tokens = TokenizedText(text)
    span = tokens.span(first, stop)
    assert text[span.start : span.end] == quote


def test_starts_include_contraction_bases() -> None:
    tokens = TokenizedText("We'll call; I can't. We can.")
    assert tokens.starts(frozenset({"we", "can"})) == [0, 3, 4, 5]
    assert tokens.starts(frozenset({"can't"})) == [3]
    assert split_clitic("we'll") == ("we", "'ll")
    assert split_clitic("plain") is None


@given(st.text(max_size=60))
def test_every_token_span_quotes_the_text_it_was_read_from(text: str) -> None:
    tokens = TokenizedText(text)
    for position, word in enumerate(tokens.words):
        span = tokens.span(position, position + 1)
        # Containment, not equality: one character may fold to several tokens ("¼" is 1⁄4).
        assert word in fold(text[span.start : span.end])


@given(st.text(max_size=60))
def test_every_tokens_first_piece_is_among_the_texts_pieces(text: str) -> None:
    # The pre-filters rest on this: a text holding a token holds that token's first piece.
    tokens = TokenizedText(text)
    for word in tokens.words:
        piece = first_piece(word)
        assert piece is None or piece in tokens.pieces
        if "'" in word:
            _, tail = split_clitic(word) or ("", "")
            tail_piece = first_piece(tail)
            assert tail_piece is None or tail_piece in tokens.pieces


@given(st.text(alphabet=st.sampled_from(list("aZé9 '-.,_\u2010ßﬁ¼İ\u0301!")), max_size=40))
def test_spans_agree_with_the_token_regex(text: str) -> None:
    # The lazily found bounds (one find per token) and the windows are exactly the regex's matches.
    tokens = TokenizedText(text)
    folded = tokens.folded.folded
    expected = [match.span() for match in _TOKEN.finditer(folded)]
    assert [m.group() for m in _TOKEN.finditer(folded)] == list(tokens.words)
    for index, (start, end) in enumerate(expected):
        assert tokens.span(index, index + 1) == tokens.folded.span(start, end)
        assert tokens.starts_token(start)
        words, bounds = tokens.window(start, 3)
        assert (words[0], bounds[0]) == (tokens.words[index], (start, end))


@given(st.text(alphabet=st.sampled_from(list("aZé9 '-.,_!?\n\t\u2010ßﬁİ\u0301")), max_size=40))
def test_a_texts_sentences_hold_exactly_its_tokens(text: str) -> None:
    # Matching sentence by sentence rests on this: cutting a text into sentences cuts no token, and every
    # sentence's tokens stand where the whole text's do.
    tokens = TokenizedText(text)
    folded = tokens.folded.folded
    found: list[tuple[str, int]] = []
    for begins, sentence in tokens.sentences:
        assert sentence.folded.folded == folded[begins : begins + len(sentence.folded.folded)]
        found.extend((word, begins + sentence.start_of(n)) for n, word in enumerate(sentence.words))
    assert found == [(word, tokens.start_of(n)) for n, word in enumerate(tokens.words)]


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("Our system is down. Sorry!", ["our system is down", " sorry"]),
        ("It costs $1.50 at 8.30 today", ["it costs $1.50 at 8.30 today"]),  # one sentence: the text itself
        ("Done.", ["done."]),
        ("Wait?! Yes\nno", ["wait", " yes", "no"]),
    ],
)
def test_a_sentence_ends_at_bang_question_line_break_or_a_dot_before_a_space(
    text: str, sentences: list[str]
) -> None:
    tokens = TokenizedText(text)
    assert [sentence.folded.folded for _, sentence in tokens.sentences] == sentences
    if len(sentences) == 1:
        assert tokens.sentences == [(0, tokens)]


# --- v3 (issue 21): contractions read as written and expanded ----------------------------------------


@pytest.mark.parametrize(
    ("token", "reading"),
    [
        ("i'm", ("i", "am")),
        ("we're", ("we", "are")),
        ("should've", ("should", "have")),
        ("they'll", ("they", "will")),
        ("'ll", ("will",)),  # a clitic as a pattern writes it
        ("isn't", ("is", "not")),
        ("don't", ("do", "not")),
        ("can't", ("cannot",)),
        ("won't", ("will", "not")),
        ("im", ("i", "am")),
        ("whats", ("what's",)),
        ("theyll", ("they", "will")),
        ("it's", ("it's",)),  # 's and 'd are ambiguous: as written
        ("we'd", ("we'd",)),
        ("o'clock", ("o'clock",)),
        ("well", ("well",)),  # bare forms that are words are those words
        ("were", ("were",)),
        ("ill", ("ill",)),
        ("its", ("its",)),
        ("shed", ("shed",)),
        ("hell", ("hell",)),
        ("wont", ("wont",)),
        ("cant", ("cant",)),
    ],
)
def test_a_token_is_read_with_its_contraction_expanded(token: str, reading: tuple[str, ...]) -> None:
    assert read_token(token) == reading


def test_a_sequence_reads_can_not_as_cannot_and_keeps_its_sources() -> None:
    assert reading_of(["the", "app", "works"]) is None  # nothing to expand: nothing built
    read, sources = reading_of(["i", "can", "not", "see", "what's", "im"]) or ([], [])
    assert read == ["i", "cannot", "see", "what's", "i", "am"]
    assert sources == [(0, 1), (1, 3), (3, 4), (4, 5), (5, 6), (5, 6)]
