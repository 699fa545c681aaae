"""The daily tally line: one post per property channel per day, proof that the grader ran (docs/jobs.md).

It is posted even when nothing was flagged, says so in words when nothing was graded at all, and warns
when nobody has reacted for a week, because alert fatigue is invisible from inside the channel.
"""

from __future__ import annotations

from datetime import date

from blocks.common import PostContent, escape, plain_metadata, section
from blocks.copydeck import deck_for
from blocks.limits import MAX_FALLBACK_TEXT, clip

TALLY_EVENT_TYPE = "smith_tally"


def build_tally_blocks(
    *,
    property_name: str,
    local_date: date,
    graded: int,
    passed: int,
    flagged: int,
    reacted: int,
    no_reactions_in_7_days: bool,
    idempotency_key: str | None = None,
    locale: str | None = None,
) -> PostContent:
    """The tally for one property and one local day; `graded == 0` reads as "no conversations arrived".

    In the property's `locale`, day and month names included.
    """
    texts = deck_for(locale)
    lines = [texts.tally_line(property_name, local_date, graded, passed, flagged, reacted)]
    if no_reactions_in_7_days:
        lines.append(texts.no_reactions_warning())
    mrkdwn = escape("\n".join(lines))
    return PostContent(
        blocks=[section(mrkdwn)],
        text=clip(mrkdwn, MAX_FALLBACK_TEXT),
        metadata=plain_metadata(TALLY_EVENT_TYPE, idempotency_key),
    )
