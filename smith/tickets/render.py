"""A ticket's title and body, the same for a markdown file and a tracker issue (docs/tickets.md).

The body depends only on stored state and the day it is rendered for, so rendering it again with
nothing new gives the same bytes, and the sync can tell "nothing changed" from a hash.

Every text that did not come from Smith — a tool's error, a conversation excerpt, a receipt, a
property id — is inert (issue 22): in the body it is a code span (no mention, no `#n` or
`owner/repo#n` reference, no link, image or HTML renders inside one), in the title, which GitHub
renders as plain text but still links, a word joiner follows each `@` and `#`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from gradecore.persistence.entities import TicketConfirmation, TicketSignature
from gradecore.persistence.store.tickets import SignatureCounts

MARKER_PREFIX = "smith-signature:"
EXCERPT_LIMIT = 400


def marker(signature_id: str) -> str:
    """The hidden line that finds a ticket again in a tracker after a crash or a lost database row."""
    return f"<!-- {MARKER_PREFIX} {signature_id} -->"


@dataclass(frozen=True, slots=True)
class TicketContent:
    signature_id: str
    title: str
    body: str
    labels: tuple[str, ...]
    open: bool

    @property
    def body_hash(self) -> str:
        return hashlib.sha256(f"{self.title}\n{self.open}\n{self.body}".encode()).hexdigest()


def render_ticket(
    signature: TicketSignature,
    counts: SignatureCounts,
    examples: Sequence[TicketConfirmation],
    *,
    with_history: bool,
) -> TicketContent:
    lines = [
        marker(signature.id),
        f"**Status:** {_status(signature)}",
        "",
        f"**Root cause** (check `{signature.check_id}`, layer `{signature.layer}`): "
        f"{inert_code(signature.cause)}",
        "",
        "## Occurrences",
        "",
        f"- total: **{counts.total}** · last 7 days: **{counts.last_7_days}** "
        f"(the 7 days before: {counts.previous_7_days})",
        f"- first seen: {_day(counts.first_seen)} · last seen: {_day(counts.last_seen)}",
        "- per property: "
        + (
            " · ".join(
                f"{inert_code(prop)} {n}" for prop, n in sorted(counts.by_property.items(), key=_busiest)
            )
            or "none"
        ),
        "",
        "## Confirmed by graders",
        "",
        f"- 👍 on the failure: {counts.ups} · corrections naming it ours: {counts.corrections}",
        "",
        "## Failing receipts",
        "",
        *(_receipts(examples) or ["_No receipts recorded._"]),
        "",
        "## Examples (anonymized)",
        "",
        *(_examples(examples) or ["_No anonymized example yet._"]),
    ]
    if with_history and signature.history:
        lines += [
            "",
            "## History",
            "",
            *(f"- {_day_text(e.get('at'))}: {e.get('text')}" for e in signature.history),
        ]
    lines += [
        "",
        "_Kept current by Agent Smith's nightly sweep: one ticket per root cause of *ours* failures "
        "(context, tools, data). It closes itself after a quiet spell and reopens on recurrence._",
    ]
    return TicketContent(
        signature_id=signature.id,
        title=f"[smith] {signature.check_id}: {inert_title(signature.cause)}"[:250],
        body="\n".join(lines) + "\n",
        labels=("smith", "ours", signature.layer),
        open=signature.status != "closed",
    )


def _status(signature: TicketSignature) -> str:
    since = _day(signature.status_changed_at)
    if signature.status == "closed":
        return f"quiet — probably fixed (closed {since})"
    if signature.times_reopened:
        times = "once" if signature.times_reopened == 1 else f"{signature.times_reopened} times"
        return f"open — reopened {since} after it recurred (reopened {times})"
    return f"open since {since}"


def _receipts(examples: Sequence[TicketConfirmation]) -> list[str]:
    latest = examples[-1] if examples else None
    return [f"- {inert_code(line)}" for line in (latest.receipts if latest else [])]


def _examples(examples: Sequence[TicketConfirmation]) -> list[str]:
    lines: list[str] = []
    for example in examples:
        text = _inline(example.example or "")
        if len(text) > EXCERPT_LIMIT:
            text = text[: EXCERPT_LIMIT - 1] + "…"
        lines += [
            f"From {inert_code(example.property_id)} (verdict {example.verdict_id}, {example.signal}):",
            f"> {inert_code(text)}",
            "",
        ]
    return lines[:-1] if lines else lines


def _busiest(item: tuple[str, int]) -> tuple[int, str]:
    return (-item[1], item[0])


def _day(value: datetime | None) -> str:
    return "—" if value is None else value.date().isoformat()


def _day_text(value: object) -> str:
    return str(value)[:10] if value else "—"


def _inline(text: str) -> str:
    # One line, and no way to close the hidden marker or open another one from tenant text.
    return " ".join(text.split()).replace("<!--", "<!- -").replace("-->", "- ->")


_WORD_JOINER = "\u2060"


def inert_code(text: str) -> str:
    """`text` on one line as a code span GitHub renders literally, whatever backticks it holds."""
    flat = _inline(text)
    if not flat:
        return "` `"
    run, longest = 0, 0
    for char in flat:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    # A space inside the fence keeps a leading or trailing backtick from joining it (CommonMark
    # strips one space from each side of a code span).
    padded = f" {flat} " if flat.startswith("`") or flat.endswith("`") or flat.isspace() else flat
    return f"{fence}{padded}{fence}"


def inert_title(text: str) -> str:
    """A title line that neither mentions (`@octocat`) nor links an issue (`#2`, `acme/other#2`)."""
    return _inline(text).replace("@", "@" + _WORD_JOINER).replace("#", "#" + _WORD_JOINER)
