"""Reading `/smith link @person email`: who is meant, and at which address.

The app manifest asks Slack to escape the command's text (`should_escape: true`), so a person picked
from Slack's @ list arrives as `<@U123|name>` (or `<@U123>`) and an address as `<mailto:a@b|a@b>`.
What a person typed by hand — a raw `U123` id or an `@name` Slack did not turn into a mention — names
nobody reliably, so it is answered with how to do it rather than guessed at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from blocks import texts
from gradecore.errors import SmithError

_MENTION = re.compile(r"<@([UW][A-Z0-9]+)(?:\|[^>]*)?>")
_EMAIL = re.compile(r"<mailto:([^|>]+)(?:\|[^>]*)?>|(\S+@\S+)")
_RAW_USER_ID = re.compile(r"(?<![\w<@])[UW][A-Z0-9]{6,}\b")
_RAW_AT_NAME = re.compile(r"(?<![\w<])@[\w.\-]+")


@dataclass(frozen=True)
class LinkRequest:
    slack_user_id: str
    email: str
    force: bool = False  # `--force`: link onto an admin


# Typed by hand, or turned into a dash by the keyboard's autocorrect.
_FORCE = re.compile(r"(?<!\S)(?:--|—|–)force(?!\S)")


class UnclearLink(SmithError):
    """The text does not name one Slack account and one address; the message says how to write it."""


def parse_link_text(text: str) -> LinkRequest:
    force = _FORCE.search(text) is not None
    text = _FORCE.sub(" ", text)
    mention = _MENTION.search(text)
    email = _EMAIL.search(_MENTION.sub(" ", text))
    if mention is not None and email is not None:
        return LinkRequest(mention.group(1), email.group(1) or email.group(2), force)
    if mention is None:
        without_email = _EMAIL.sub(" ", text)
        if _RAW_USER_ID.search(without_email) or _RAW_AT_NAME.search(without_email):
            raise UnclearLink(texts.link_needs_a_mention())
    raise UnclearLink(texts.link_usage())
