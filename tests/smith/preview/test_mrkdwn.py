"""Slack mrkdwn as HTML (smith/preview/mrkdwn.py): what a Slack client would show, and nothing a message
says ever becoming markup of the page."""

from __future__ import annotations

import pytest

from smith.preview.mrkdwn import emojize, mrkdwn_to_html, unescape_slack


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("*BLOCK* · unbacked promise", "<b>BLOCK</b> · unbacked promise"),
        ("an _italic_ word", "an <i>italic</i> word"),
        ("~struck~ out", "<s>struck</s> out"),
        ("*bold _and italic_*", "<b>bold <i>and italic</i></b>"),
        ("`*not bold*` in code", "<code>*not bold*</code> in code"),
        ("```line one\n*two*```", "<pre>line one\n*two*</pre>"),
        # A marker inside a word is text (rule ids, arithmetic), as in Slack.
        ("_rule: access_code.whole_token_", "<i>rule: access_code.whole_token</i>"),
        ("snake_case_word and 2*3*4", "snake_case_word and 2*3*4"),
        ("first\nsecond", "first<br>second"),
    ],
)
def test_emphasis_code_and_lines(text: str, expected: str) -> None:
    assert mrkdwn_to_html(text) == expected


def test_quotes_become_one_block_per_run() -> None:
    assert mrkdwn_to_html("&gt; quoted\n&gt; still quoted\nafter") == (
        "<blockquote>quoted<br>still quoted</blockquote>after"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "<https://example.test/c/1|*open* it>",
            '<a href="https://example.test/c/1" rel="noopener" target="_blank"><b>open</b> it</a>',
        ),
        (
            "<https://example.test/?a=1&amp;b=2>",
            '<a href="https://example.test/?a=1&amp;b=2" rel="noopener" target="_blank">https://example.test/?a=1&amp;b=2</a>',
        ),
        ("<@U0MARIA>", '<span class="mention">@U0MARIA</span>'),
        ("<#C0CAMELLIA|camellia>", '<span class="mention">#camellia</span>'),
        ("<!here>", '<span class="mention">@here</span>'),
        # A link to anything but the web or mail is shown as its label only: never a javascript: link.
        ("<javascript:alert(1)|click me>", "click me"),
    ],
)
def test_links_and_mentions(text: str, expected: str) -> None:
    assert mrkdwn_to_html(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (":+1: grade is right", "👍 grade is right"),
        (":thumbsup: and :-1:", "👍 and 👎"),
        (":+1::skin-tone-3:", "👍"),
        (":warning: heads up", "⚠️ heads up"),
        (":not_an_emoji_at_all:", ":not_an_emoji_at_all:"),
    ],
)
def test_emoji_shortcodes(text: str, expected: str) -> None:
    assert emojize(text) == expected
    assert mrkdwn_to_html(text) == expected


def test_code_keeps_its_shortcodes_and_markers() -> None:
    assert mrkdwn_to_html("`:+1: *x*`") == "<code>:+1: *x*</code>"


def test_tenant_text_never_becomes_markup() -> None:
    """Slack escapes <, > and & in text; anything else a message holds is escaped for HTML here."""
    hostile = 'Hi &lt;script&gt;alert("x")&lt;/script&gt; &amp; <img src=x onerror=alert(1)> "quoted"'
    rendered = mrkdwn_to_html(hostile)
    assert "<script" not in rendered
    assert "<img" not in rendered
    assert "&lt;script&gt;" in rendered
    assert "&amp;" in rendered


def test_slack_entities_unescape_once() -> None:
    assert unescape_slack("&amp;lt; &lt;b&gt; &amp;") == "&lt; <b> &"
