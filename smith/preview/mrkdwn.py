"""Slack's mrkdwn as HTML, the way a Slack client shows it: bold, italics, strike, code, quotes, links,
mentions and emoji shortcodes (`:+1:` → 👍, through the `emoji` library's aliases).

Slack text arrives escaped (`&amp;`, `&lt;`, `&gt;`): a literal `<` is never markup, so every `<…>` is a
link, a mention or a special token. Everything a message says is data: the result escapes it for HTML.
"""

from __future__ import annotations

import html
import re

import emoji

_SLACK_ENTITIES = (("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&"))
_PRE = re.compile(r"```(.*?)```", re.DOTALL)
_ANGLE = re.compile(r"<([^<>\n]+)>")
_CODE = re.compile(r"`([^`\n]+)`")
# A marker opens after a non-word character and closes before one, hugging its text (Slack's rule): a
# marker inside a word (`access_code`, `2*3`) is text.
_BOLD = re.compile(r"(?<![\w*])\*(?=\S)([^\n]*?\S)\*(?![\w*])")
_ITALIC = re.compile(r"(?<![\w_])_(?=\S)([^\n]*?\S)_(?![\w_])")
_STRIKE = re.compile(r"(?<![\w~])~(?=\S)([^\n]*?\S)~(?![\w~])")
_SKIN_TONE = re.compile(r"::skin-tone-[2-6]:")
_PLACEHOLDER = re.compile("\x00(\\d+)\x00")
_SAFE_SCHEMES = ("https://", "http://", "mailto:", "slack://")


def unescape_slack(text: str) -> str:
    """Slack's three entities back to characters (`&amp;` last, so `&amp;lt;` stays `&lt;`)."""
    for entity, char in _SLACK_ENTITIES:
        text = text.replace(entity, char)
    return text


def emojize(text: str) -> str:
    """`:+1:`, `:thumbsup:`, `:white_check_mark:` → the emoji; an unknown shortcode stays as typed."""
    return emoji.emojize(_SKIN_TONE.sub(":", text), language="alias")


def mrkdwn_to_html(text: str) -> str:
    """HTML for a mrkdwn string (inline: the caller wraps it in a block element)."""
    kept: list[str] = []

    def keep(fragment: str) -> str:
        kept.append(fragment)
        return f"\x00{len(kept) - 1}\x00"

    text = _PRE.sub(lambda m: keep(f"<pre>{_escape(m.group(1).strip(chr(10)))}</pre>"), text)
    text = _ANGLE.sub(lambda m: keep(_angle(m.group(1))), text)
    text = _CODE.sub(lambda m: keep(f"<code>{_escape(m.group(1))}</code>"), text)
    lines = [_inline(line) for line in text.split("\n")]
    rendered = _quotes(lines)
    while _PLACEHOLDER.search(rendered):  # a link's label may itself hold a kept fragment
        rendered = _PLACEHOLDER.sub(lambda m: kept[int(m.group(1))], rendered)
    return rendered


def _escape(slack_text: str) -> str:
    return html.escape(unescape_slack(slack_text), quote=True)


def _inline(line: str) -> str:
    """One line: escaped, then its emphasis and emoji (code and links are already kept aside)."""
    out = html.escape(unescape_slack(line), quote=False)
    out = _BOLD.sub(r"<b>\1</b>", out)
    out = _ITALIC.sub(r"<i>\1</i>", out)
    out = _STRIKE.sub(r"<s>\1</s>", out)
    return emojize(out)


def _quotes(lines: list[str]) -> str:
    """Runs of lines starting with `>` become quote blocks; other lines are joined by line breaks."""
    runs: list[tuple[bool, list[str]]] = []
    for line in lines:
        quoted = line.startswith("&gt;")
        if quoted:
            line = line.removeprefix("&gt;").removeprefix(" ")
        if runs and runs[-1][0] == quoted:
            runs[-1][1].append(line)
        else:
            runs.append((quoted, [line]))
    # A quote is a block of its own, so the runs around it need no line break to sit apart from it.
    return "".join(
        f"<blockquote>{'<br>'.join(run)}</blockquote>" if quoted else "<br>".join(run) for quoted, run in runs
    )


def _angle(inner: str) -> str:
    """`<url|label>`, `<url>`, `<@U123>`, `<#C123|name>`, `<!here>`, `<!date^…|fallback>`."""
    target, _, label = inner.partition("|")
    if target.startswith("@"):
        return f'<span class="mention">@{_escape(label or target[1:])}</span>'
    if target.startswith("#"):
        return f'<span class="mention">#{_escape(label or target[1:])}</span>'
    if target.startswith("!"):
        word = label or target[1:].split("^", 1)[0]
        return f'<span class="mention">{"" if label else "@"}{_escape(word)}</span>'
    shown = _inline(label) if label else _escape(target)
    url = unescape_slack(target)
    if not url.startswith(_SAFE_SCHEMES):  # never a javascript: link out of tenant text
        return shown
    return f'<a href="{html.escape(url, quote=True)}" rel="noopener" target="_blank">{shown}</a>'
