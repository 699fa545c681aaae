"""The preview as one self-contained HTML page: every post as a Slack client shows it, block by block.

One stylesheet and a few lines of plain JavaScript (the "copy Block Kit JSON" control), no framework,
nothing loaded from elsewhere: the file opens offline and can be mailed. What a post says is tenant
text, so every string is escaped (`mrkdwn_to_html` for mrkdwn, `html.escape` for the rest).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from smith.preview.build import Preview, PropertyChannel
from smith.preview.mrkdwn import emojize, mrkdwn_to_html
from smith.preview.workspace import Message

Block = Mapping[str, Any]
_LANGUAGE_NAMES = {"en": "English", "es": "Spanish"}
# A link to a message of one of the preview's own (made-up) channels, as mrkdwn_to_html writes it.
_SLACK_PERMALINK = re.compile(
    r'href="https://slack\.com/archives/(C\d{4}PREVIEW)/p(\d+)" rel="noopener" target="_blank"'
)

STYLESHEET = """
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.46 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: #1d1c1d; background: #f8f8f8; overflow-wrap: anywhere; }
main { max-width: 860px; margin: 0 auto; padding: 16px; }
h1 { font-size: 22px; margin: 8px 0; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
.note { color: #616061; font-size: 13px; }
.post { background: #fff; border: 1px solid #e2e2e2; border-radius: 8px; padding: 10px 14px; margin: 10px 0;
  max-width: 100%; }
.post-head { display: flex; flex-wrap: wrap; gap: 8px; align-items: baseline; justify-content: space-between;
  font-size: 13px; color: #616061; }
.post-head b { color: #1d1c1d; }
.thread { margin: 6px 0 0 18px; padding-left: 12px; border-left: 3px solid #d4d4d4; }
.thread > .label { font-size: 12px; color: #1264a3; font-weight: 600; margin-top: 8px; }
.block { margin: 6px 0; }
.header { font-size: 17px; font-weight: 800; }
.context { font-size: 12.5px; color: #616061; display: flex; flex-wrap: wrap; gap: 4px 10px; }
.fields { display: grid; grid-template-columns: repeat(auto-fit, minmax(160px, 1fr)); gap: 6px 16px; }
.section-with-accessory { display: flex; flex-wrap: wrap; gap: 8px; justify-content: space-between; }
.actions { display: flex; flex-wrap: wrap; gap: 8px; }
.button { display: inline-block; border: 1px solid #bbb; border-radius: 4px; padding: 3px 12px;
  font-weight: 700; font-size: 13px; background: #fff; }
.button.primary { background: #007a5a; color: #fff; border-color: #007a5a; }
.button.danger { background: #e01e5a; color: #fff; border-color: #e01e5a; }
hr.divider { border: 0; border-top: 1px solid #e2e2e2; }
blockquote { margin: 4px 0; padding-left: 10px; border-left: 4px solid #ddd; color: #454245; }
code { font: 12px/1.4 Menlo, Consolas, monospace; background: #f6f6f6; border: 1px solid #e2e2e2;
  border-radius: 3px; padding: 0 3px; color: #e01e5a; }
pre { font: 12px/1.5 Menlo, Consolas, monospace; background: #f6f6f6; border: 1px solid #e2e2e2;
  border-radius: 4px; padding: 8px; white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }
a { color: #1264a3; text-decoration: none; }
.mention { background: #e8f5fa; color: #1264a3; border-radius: 3px; padding: 0 2px; }
button.copy { font-size: 12px; border: 1px solid #bbb; background: #fff; border-radius: 4px; padding: 2px 8px;
  cursor: pointer; white-space: nowrap; }
img.image { max-width: 100%; height: auto; }
table.summary { border-collapse: collapse; width: 100%; font-size: 13px; }
table.summary td, table.summary th { text-align: left; border-bottom: 1px solid #e2e2e2; padding: 4px 6px;
  vertical-align: top; }
"""

# Copies the JSON kept beside the button; `execCommand` where the Clipboard API is not allowed (file://
# in some browsers). The label says what happened, so a person knows it worked.
SCRIPT = """
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button.copy");
  if (!button) return;
  const text = document.getElementById(button.dataset.source).textContent;
  let copied = false;
  try { await navigator.clipboard.writeText(text); copied = true; } catch (error) {
    const area = document.createElement("textarea");
    area.value = text; document.body.append(area); area.select();
    copied = document.execCommand("copy"); area.remove();
  }
  button.textContent = copied ? "Copied" : "Copy failed: select the JSON by hand";
  setTimeout(() => { button.textContent = "Copy Block Kit JSON"; }, 2000);
});
"""


def render_page(preview: Preview) -> str:
    """The whole page: a summary, then each property's channel, the Home tab and the digest."""
    ids = _Ids()
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>Smith preview</title>",
        f"<style>{STYLESHEET}</style></head><body><main>",
        "<h1>Smith preview</h1>",
        f'<p class="note">{html.escape(_summary(preview))}</p>',
        *_rejected(preview.rejected),
    ]
    for prop in preview.properties:
        parts.extend(_channel(preview, prop, ids))
    parts.append('<h2 id="home">Home tab</h2>')
    parts.append('<p class="note">What a staff member opening Smith\'s App Home sees now.</p>')
    parts.extend(_post("home", "App Home", preview.home, ids))
    parts.append('<h2 id="digest">Weekly digest (triage channel)</h2>')
    parts.extend(_post("digest", "triage channel", preview.digest, ids))
    parts.append(f"</main><script>{SCRIPT}</script></body></html>")
    # The Home tab links each waiting post by its Slack archive URL: here, the post on this page.
    return _SLACK_PERMALINK.sub(lambda m: f'href="#{_anchor(m.group(1), m.group(2))}"', "\n".join(parts))


def _anchor(channel: str, ts_digits: str) -> str:
    return f"post-{channel}-{ts_digits}"


def _summary(preview: Preview) -> str:
    graded = len(preview.graded)
    return (
        f"{graded} conversation{'s' if graded != 1 else ''} graded · {preview.flagged} flagged · "
        f"{len(preview.rejected)} rejected. Nothing was stored and nothing was sent to Slack; "
        "judged checks (tone, pacing) are not run in a preview."
    )


def _rejected(rejected: Sequence[tuple[str, Sequence[str]]]) -> Iterator[str]:
    """Each rejected document with its contract errors: one shown, several folded under a count."""
    if not rejected:
        return
    yield '<h2 id="rejected">Rejected documents</h2><ul class="rejected">'
    for where, errors in rejected:
        if len(errors) == 1:
            yield f"<li><b>{html.escape(where)}</b>: {html.escape(errors[0])}</li>"
            continue
        listed = "".join(f"<li>{html.escape(error)}</li>" for error in errors)
        yield (
            f"<li><b>{html.escape(where)}</b>: {len(errors)} contract errors"
            f"<details><summary>show them</summary><ul>{listed}</ul></details></li>"
        )
    yield "</ul>"


def _channel(preview: Preview, prop: PropertyChannel, ids: _Ids) -> Iterator[str]:
    language = _LANGUAGE_NAMES.get(prop.locale, prop.locale)
    locale, property_id = html.escape(prop.locale), html.escape(prop.property_id)
    yield f'<section class="channel" lang="{locale}" data-property="{property_id}">'
    yield f"<h2>#{property_id} · {html.escape(prop.name)} · posts in {html.escape(language)}</h2>"
    channel = preview.slack.channels.get(prop.channel)
    messages = channel.messages if channel is not None else []
    if not messages:
        yield '<p class="note">Nothing flagged: Smith posts nothing here; it counts in the tally line.</p>'
    for message in messages:
        yield from _message(message, ids)
    yield '<p class="note">The daily tally line:</p>'
    yield from _post("tally", f"#{prop.property_id}", prop.tally, ids)
    yield "</section>"


def _message(message: Message, ids: _Ids) -> Iterator[str]:
    label = "parent post" + (" · edited" if message.edited else "")
    anchor = _anchor(message.channel, message.ts.replace(".", ""))
    yield from _post("parent", label, message.payload, ids, close=False, anchor=anchor)
    if message.replies:
        count = len(message.replies)
        yield f'<div class="thread"><div class="label">{count} repl{"y" if count == 1 else "ies"}</div>'
        for reply in message.replies:
            yield from _post(
                "reply", "thread reply" + (" · edited" if reply.edited else ""), reply.payload, ids
            )
        yield "</div>"
    yield "</article>"


def _post(
    kind: str,
    label: str,
    payload: Mapping[str, Any],
    ids: _Ids,
    *,
    close: bool = True,
    anchor: str | None = None,
) -> Iterator[str]:
    """One message: its blocks, and beside them the button that copies them for Block Kit Builder."""
    source = ids.next()
    builder_json = json.dumps({"blocks": payload.get("blocks") or []}, ensure_ascii=False, indent=2)
    conversation = str(
        ((payload.get("metadata") or {}).get("event_payload") or {}).get("conversation_id") or ""
    )
    where = f' id="{anchor}"' if anchor else ""
    traced = f'data-kind="{kind}" data-conversation="{html.escape(conversation)}"'
    yield f'<article class="post {kind}"{where} {traced}>'
    yield (
        f'<div class="post-head"><b>Smith</b><span>{html.escape(label)}</span>'
        f'<button type="button" class="copy" data-source="{source}">Copy Block Kit JSON</button></div>'
    )
    # `</` inside a script element would end it early: JSON allows the escaped slash.
    kept = builder_json.replace("</", "<\\/")
    yield f'<script type="application/json" id="{source}">{kept}</script>'
    blocks = payload.get("blocks") or []
    if blocks:
        yield from (render_block(block) for block in blocks)
    else:
        yield f'<div class="block section">{mrkdwn_to_html(str(payload.get("text", "")))}</div>'
    if close:
        yield "</article>"


def render_block(block: Block) -> str:
    """One Block Kit block as HTML; a block type the preview does not know is named, not dropped."""
    kind = str(block.get("type", ""))
    if kind == "header":
        return f'<div class="block header">{_text(block.get("text"))}</div>'
    if kind == "section":
        return _section(block)
    if kind == "context":
        elements = "".join(f"<span>{_element(element)}</span>" for element in block.get("elements") or [])
        return f'<div class="block context">{elements}</div>'
    if kind == "actions":
        elements = "".join(_element(element) for element in block.get("elements") or [])
        return f'<div class="block actions">{elements}</div>'
    if kind == "divider":
        return '<hr class="block divider">'
    if kind == "image":
        return f'<div class="block">{_element(block)}</div>'
    if kind == "rich_text":
        return f'<div class="block rich-text">{_rich_text(block.get("elements") or [])}</div>'
    return f'<div class="block note">[{html.escape(kind)} block]</div>'


def _section(block: Block) -> str:
    body = _text(block.get("text")) if block.get("text") else ""
    fields = block.get("fields") or []
    if fields:
        body += '<div class="fields">' + "".join(f"<div>{_text(field)}</div>" for field in fields) + "</div>"
    accessory = block.get("accessory")
    if accessory:
        return (
            f'<div class="block section section-with-accessory"><div>{body}</div>{_element(accessory)}</div>'
        )
    return f'<div class="block section">{body}</div>'


def _text(obj: Any) -> str:
    """A text object: mrkdwn rendered, plain_text escaped (its emoji shortcodes shown, as Slack does)."""
    if not isinstance(obj, Mapping):
        return ""
    text = str(obj.get("text", ""))
    if obj.get("type") == "mrkdwn":
        return mrkdwn_to_html(text)
    return emojize(html.escape(text))


def _element(element: Any) -> str:
    if not isinstance(element, Mapping):
        return ""
    kind = element.get("type")
    if kind in ("mrkdwn", "plain_text"):
        return _text(element)
    if kind == "button":
        style = html.escape(str(element.get("style", "")))
        return f'<span class="button {style}" role="button">{_text(element.get("text"))}</span>'
    if kind == "image":
        alt = html.escape(str(element.get("alt_text", "")))
        url = str(element.get("image_url", ""))
        if url.startswith("https://"):
            return f'<img class="image" src="{html.escape(url)}" alt="{alt}">'
        return f"<span>[{alt}]</span>"
    if isinstance(element.get("placeholder"), Mapping):
        return f'<span class="button">{_text(element["placeholder"])} ▾</span>'
    return f"<span>[{html.escape(str(kind))}]</span>"


def _rich_text(elements: Sequence[Any]) -> str:
    """Rich text: its sections, lists, quotes and preformatted parts, as plain styled text."""
    out = []
    for element in elements:
        if not isinstance(element, Mapping):
            continue
        inner = "".join(_rich_run(run) for run in element.get("elements") or [])
        kind = element.get("type")
        if kind == "rich_text_quote":
            out.append(f"<blockquote>{inner}</blockquote>")
        elif kind == "rich_text_preformatted":
            out.append(f"<pre>{inner}</pre>")
        elif kind == "rich_text_list":
            items = "".join(f"<li>{_rich_text([item])}</li>" for item in element.get("elements") or [])
            out.append(f"<ul>{items}</ul>")
        else:
            out.append(f"<div>{inner}</div>")
    return "".join(out)


def _rich_run(run: Any) -> str:
    if not isinstance(run, Mapping):
        return ""
    text = html.escape(str(run.get("text") or run.get("url") or run.get("name") or ""))
    if run.get("type") == "emoji":
        text = emojize(f":{run.get('name', '')}:")
    style = run.get("style") or {}
    if style.get("code"):
        text = f"<code>{text}</code>"
    if style.get("bold"):
        text = f"<b>{text}</b>"
    if style.get("italic"):
        text = f"<i>{text}</i>"
    if style.get("strike"):
        text = f"<s>{text}</s>"
    return text.replace("\n", "<br>")


class _Ids:
    """Ids for the JSON kept beside each post, unique within the page."""

    def __init__(self) -> None:
        self._count = 0

    def next(self) -> str:
        self._count += 1
        return f"blockkit-{self._count}"
