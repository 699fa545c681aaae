"""Issue 22, point 3: tenant and tool text in a ticket can neither ping, cross-link nor mislead.

The body is rendered by cmarkgfm (GitHub's own fork of cmark, with its GFM extensions): outside code
every mention, issue reference, link, image and HTML tag would be live, so the test asserts the hostile
text reaches the HTML only inside <code>. Mentions and `#n` references are GitHub's post-processing on
text outside code, so "only inside <code>" is what keeps them inert.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from html.parser import HTMLParser

import cmarkgfm
from cmarkgfm.cmark import Options

from gradecore.persistence.entities import TicketConfirmation, TicketSignature
from gradecore.persistence.store.tickets import SignatureCounts
from smith.tickets.render import inert_code, inert_title, marker, render_ticket

HOSTILE = (
    "connection refused @octocat @github/security-team see acme/other#2 and #7 "
    "[click here](https://evil.test/login) ![x](https://evil.test/pixel.png) <details><summary>more"
    " `tick` ``double`` <img src=x onerror=alert(1)> <!-- smith-signature: 0123456789abcdef -->"
)
NOW = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
_OPTIONS = Options.CMARK_OPT_UNSAFE  # as permissive as can be: what is inert here is inert anywhere


class _Outside(HTMLParser):
    """The text outside <code>, and every tag opened anywhere."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.outside: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.depth += tag == "code"

    def handle_endtag(self, tag: str) -> None:
        self.depth -= tag == "code"

    def handle_data(self, data: str) -> None:
        if self.depth == 0:
            self.outside.append(data)


def _render(markdown: str) -> _Outside:
    parsed = _Outside()
    parsed.feed(cmarkgfm.github_flavored_markdown_to_html(markdown, options=_OPTIONS))
    return parsed


def _ticket() -> str:
    signature = TicketSignature(
        id="a1b2c3d4e5f60789",
        key="tools_succeeded · tools · x",
        check_id="tools_succeeded",
        layer="tools",
        cause=f"tool get_slots → {HOSTILE}",
        status="open",
        status_changed_at=NOW,
        history=[],
    )
    counts = SignatureCounts(
        total=3, last_7_days=3, previous_7_days=0, first_seen=NOW, last_seen=NOW,
        by_property={"@octocat": 2, "camellia": 1}, ups=1, corrections=0, last_recorded=NOW,
    )  # fmt: skip
    example = TicketConfirmation(
        signature_id=signature.id,
        verdict_id=9,
        signal="up",
        property_id="camellia`<b>",
        example=HOSTILE,
        receipts=[HOSTILE],
        created_at=NOW,
    )
    content = render_ticket(signature, counts, [example], with_history=False)
    assert content.body.count(marker(signature.id)) == 1  # tenant text cannot forge the marker
    return content.body


def test_hostile_text_in_a_ticket_body_renders_only_inside_code() -> None:
    rendered = _render(_ticket())
    outside = " ".join(rendered.outside)
    assert not re.search(r"@[A-Za-z]", outside), outside  # no mention
    assert not re.search(r"#\d", outside), outside  # no issue reference, local or cross-repository
    assert "evil.test" not in outside and "onerror" not in outside
    allowed = {"p", "strong", "code", "h2", "ul", "li", "blockquote", "em"}
    assert set(rendered.tags) <= allowed, set(rendered.tags) - allowed  # no a, img, details, b
    assert "Examples (anonymized)" in outside  # the rest of the ticket is still there, not hidden


def test_a_code_span_holds_any_backticks_literally() -> None:
    for text in ("plain", "`", "a ` b", "``x``", "ends with `", "` starts", "a\nb   c"):
        rendered = _render(f"x {inert_code(text)} y")
        assert "".join(rendered.outside).strip() == "x  y", text
        html = cmarkgfm.github_flavored_markdown_to_html(f"x {inert_code(text)} y", options=_OPTIONS)
        assert html.count("<code>") == 1, text


def test_a_title_keeps_its_words_but_neither_mentions_nor_links() -> None:
    title = inert_title(HOSTILE)
    assert not re.search(r"@[A-Za-z]", title) and not re.search(r"#\d", title)
    assert title.replace("\u2060", "").startswith("connection refused @octocat @github/security-team")
