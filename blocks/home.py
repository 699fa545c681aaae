"""The App Home tab: a `home` view of what waits for a review, the person's week, and (for admins)
the Slack accounts whose acts wait for a link. Pure: built from a `HomeContent`
(`smith/listening/home.py` reads it from the database)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from slack_sdk.models.blocks import Block
from slack_sdk.models.views import View

from blocks.common import context, escape, header, listed_section, section
from blocks.copydeck import CopyDeck, deck_for

MAX_HOME_LINES = 20
_SLACK_ID = re.compile(r"[UW][A-Z0-9]{2,30}")


@dataclass(frozen=True)
class WaitingPost:
    headline: str
    property_name: str
    channel: str
    ts: str
    posted_at: datetime


@dataclass(frozen=True)
class MyWeek:
    acts: int  # standing acts (👍, 👎, corrections, notes) made in the last seven days
    judged: int  # those that judge the grade: 👍, 👎 and corrections naming a level (docs/verdicts.md)
    agreeing: int  # … that agree with the machine (👍, or its own level named)


@dataclass(frozen=True)
class HomeContent:
    locale: str
    linked: bool
    waiting: Sequence[WaitingPost]
    waiting_total: int
    week: MyWeek | None
    unlinked: Sequence[tuple[str, int]]  # admins only: (Slack user id, acts waiting)


def build_home_view(content: HomeContent) -> View:
    texts = deck_for(content.locale)
    blocks: list[Block] = [header(texts.HOME_TITLE)]
    if not content.linked:
        title, body = texts.not_linked()
        blocks.append(section(f"*{escape(title)}*\n{escape(body)}"))
        return View(type="home", blocks=blocks)
    if content.waiting:
        lines = [_waiting_line(post, texts) for post in content.waiting]
        heading = texts.home_waiting_heading(content.waiting_total)
        blocks.append(listed_section(heading, lines, MAX_HOME_LINES, content.waiting_total, texts))
    else:
        blocks.append(section(escape(texts.HOME_NOTHING_WAITING)))
    if content.week is not None:
        week = content.week
        blocks.append(context(escape(texts.home_my_week(week.acts, week.judged, week.agreeing))))
    if content.unlinked:
        lines = [
            f"• {_mention(user)} — {escape(texts.home_unlinked_line(count))}"
            for user, count in content.unlinked
        ]
        blocks.append(listed_section(texts.HOME_UNLINKED_HEADING, lines, MAX_HOME_LINES, None, texts))
    return View(type="home", blocks=blocks)


def _waiting_line(post: WaitingPost, texts: CopyDeck) -> str:
    text = texts.home_waiting_line(post.headline, post.property_name, post.posted_at.date())
    return f"• <{_permalink(post)}|{escape(text)}>"


def _mention(slack_user_id: str) -> str:
    """`<@U123>` for a well-formed Slack user id; anything else is shown as plain text."""
    return f"<@{slack_user_id}>" if _SLACK_ID.fullmatch(slack_user_id) else escape(slack_user_id)


def _permalink(post: WaitingPost) -> str:
    """Slack's archive link to a message: opens it in any workspace the reader belongs to."""
    return f"https://slack.com/archives/{post.channel}/p{post.ts.replace('.', '')}"
