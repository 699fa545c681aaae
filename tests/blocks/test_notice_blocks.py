"""Ops notices, ephemerals and digests: escaped, cut to size, and summarised when too long."""

from __future__ import annotations

from blocks import build_digest_blocks, build_notice_blocks, validate_post
from blocks.common import ChannelLink
from tests.blocks.reading import block_texts, visible_text


def test_notice_is_a_bold_title_over_an_escaped_body() -> None:
    content = build_notice_blocks("Posting failed", "Slack said channel_not_found for <#C123> & more")
    validate_post(content)
    assert block_texts(content) == [
        "*Posting failed*\nSlack said channel_not_found for &lt;#C123&gt; &amp; more"
    ]
    assert content.metadata is None


def test_long_notice_body_is_cut_to_fit() -> None:
    content = build_notice_blocks("Title", "word " * 5000, idempotency_key="notice:1")
    validate_post(content)
    assert block_texts(content)[0].endswith("…")
    assert content.metadata is not None and content.metadata.event_type == "smith_notice"


def test_empty_notice_still_valid() -> None:
    content = build_notice_blocks("", "  ")
    validate_post(content)
    assert visible_text(content).startswith("(no details)")


def test_digest_sections_with_headings_and_bullets() -> None:
    content = build_digest_blocks(
        [("Reaction rate", ["#apartment-camellia: 60%", "#apartment-oak: 0% <!here>"]), ("Quiet checks", [])],
        title="Weekly digest",
    )
    validate_post(content)
    assert block_texts(content) == [
        "Weekly digest",
        "*Reaction rate*\n• #apartment-camellia: 60%\n• #apartment-oak: 0% &lt;!here&gt;",
        "*Quiet checks*\nNothing to report.",
    ]
    assert content.text == "Weekly digest"


def test_digest_with_too_many_sections_and_lines_is_summarised() -> None:
    sections = [(f"Section {i}", [f"line {j}" for j in range(100)]) for i in range(80)]
    content = build_digest_blocks(sections, title="Sweep summary", idempotency_key="sweep:1")
    validate_post(content)
    assert len(content.blocks) == 50
    texts = block_texts(content)
    assert texts[-1] == "…and 32 more sections, left out to fit in one message"
    assert texts[1].endswith("…and 60 more")


def test_empty_digest_is_still_a_valid_post() -> None:
    content = build_digest_blocks([])
    validate_post(content)
    assert visible_text(content) == "Smith digest: 0 sections\nNothing to report."


def test_a_channel_link_stays_a_link_while_the_text_around_it_is_escaped() -> None:
    body = ["Posts to ", ChannelLink("C0GONE"), " fail <!here> & more"]
    content = build_notice_blocks("Posting failed", body)
    validate_post(content)
    assert block_texts(content) == ["*Posting failed*\nPosts to <#C0GONE> fail &lt;!here&gt; &amp; more"]


def test_a_channel_link_that_is_not_a_channel_id_is_shown_as_text() -> None:
    content = build_notice_blocks("T", ["in ", ChannelLink("general>|<!channel")])
    assert block_texts(content) == ["*T*\nin general&gt;|&lt;!channel"]
