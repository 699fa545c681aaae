"""Render every kind of message Smith shows people, in English and Spanish, to docs/posts.md.

The gallery is made by the real builders from the bundled example conversations graded by the real
engine, so it cannot drift from what Slack shows: `python -m tools.post_gallery` rewrites it, and
`python -m tools.post_gallery --check` (and tests/test_post_gallery.py) fails when it is stale.
Each entry says the situation that produces the message.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import cerebrus
from blocks import (
    build_conversation_blocks,
    build_digest_blocks,
    build_more_turns_blocks,
    build_notice_blocks,
    build_tally_blocks,
    build_turn_blocks,
    texts_triage,
    validate_post,
)
from blocks import texts as english
from blocks.common import ChannelLink, PostContent
from blocks.copydeck import deck_for
from blocks.correction import CorrectedItem, build_correction_view
from blocks.home import HomeContent, MyWeek, WaitingPost, build_home_view
from blocks.regraded import build_regraded_pass_blocks
from blocks.reviewed import reviewed_block
from gradecore.model.contract import Conversation, parse_conversation
from gradecore.model.grades import ConversationGrade
from gradecore.persistence.entities import MachineGrade
from gradecore.persistence.grade_rows import turn_machine_grade
from scheduler import sweep_summary_sections
from smith.sweep.job import SweepReport
from smith.tickets.sync import TicketLink
from smith.transports.render import render_payload

ROOT = Path(__file__).resolve().parent.parent
GALLERY = ROOT / "docs" / "posts.md"
DEMO_DATA = ROOT / "smith" / "demo_data"
LOCALES = ("en", "es")
URL = "https://app.example.com/conversations/{id}"


@dataclass(frozen=True)
class Shown:
    """One message as people see it: its kind, the situation that produces it, and its rendering."""

    kind: str
    situation: str
    locale: str
    lines: list[str]
    metadata: dict[str, Any] | None = None


def graded(name: str) -> tuple[ConversationGrade, Conversation]:
    conversation = parse_conversation((DEMO_DATA / f"{name}.json").read_bytes())
    return cerebrus.grade(conversation), conversation


def _post(content: PostContent) -> tuple[list[str], dict[str, Any] | None]:
    validate_post(content)
    message = content.as_message()
    return [f"🔔 {content.text}", *render_payload(message)], message.get("metadata")


def _view(view: Any) -> list[str]:
    rendered = view.to_dict()
    title = rendered.get("title", {}).get("text")
    return ([title.upper()] if title else []) + render_payload({"blocks": rendered["blocks"]})


def shown_messages(locale: str) -> Iterator[Shown]:
    """Every message kind in `locale`, each from the situation that produces it."""
    texts = deck_for(locale)
    for name, situation in (
        (
            "lampliter-unbacked-promise",
            "Clara promised to send arrival instructions the property has not filed.",
        ),
        ("birchwood-dead-thread", "A resident's last question has had no answer (a conversation check)."),
    ):
        grade, conversation = graded(name)
        lines, metadata = _post(
            build_conversation_blocks(
                grade,
                conversation,
                machine_grade_id="mg-1",
                conversation_url=URL.format(id=conversation.conversation_id),
                idempotency_key="k",
                locale=locale,
            )
        )
        yield Shown("Parent post", situation, locale, lines, metadata)

    grade, conversation = graded("camellia-double-send")
    lines, metadata = _post(
        build_turn_blocks(
            grade.flagged_turns[0],
            grade,
            conversation,
            machine_grade_id="mg-2",
            idempotency_key="k",
            locale=locale,
        )
    )
    yield Shown(
        "Turn reply (in the thread)",
        "Clara narrated an internal error and gave a prospect the gate code; a tool failed on our side.",
        locale,
        lines,
        metadata,
    )

    grade, conversation = graded("birchwood-rent-mismatch")
    many = [grade.flagged_turns[0].model_copy(update={"number": n}) for n in range(11, 15)]
    lines, metadata = _post(
        build_more_turns_blocks(many, conversation, conversation_url=None, idempotency_key="k", locale=locale)
    )
    yield Shown(
        "Overflow reply (turns past the thread's bound)",
        "More turns were flagged than SMITH_MAX_THREAD_REPLIES allows; the rest are listed in one reply.",
        locale,
        lines,
        metadata,
    )

    grade, conversation = graded("lampliter-unbacked-promise")
    lines, metadata = _post(
        build_regraded_pass_blocks(
            grade, property_name="Lampliter", machine_grade_id="mg-3", idempotency_key="k", locale=locale
        )
    )
    yield Shown(
        "Regraded parent",
        "`smith regrade` under new rules: the conversation now passes.",
        locale,
        lines,
        metadata,
    )

    for situation, figures, warning in (
        ("A day with flagged conversations.", (47, 44, 3, 2), False),
        ("A day on which no conversation arrived.", (0, 0, 0, 0), False),
        (
            "Flagged posts for more than a week and no reaction in the last seven days.",
            (12, 11, 1, 0),
            True,
        ),
    ):
        graded_n, passed, flagged, reacted = figures
        lines, metadata = _post(
            build_tally_blocks(
                property_name="Camellia",
                local_date=date(2026, 11, 30),
                graded=graded_n,
                passed=passed,
                flagged=flagged,
                reacted=reacted,
                no_reactions_in_7_days=warning,
                locale=locale,
            )
        )
        yield Shown("Daily tally", situation, locale, lines, metadata)

    title, body = texts.note_hint()
    yield Shown(
        "Ephemeral: a reply without a level",
        "Someone replied under a post without naming the level they expected (told once per thread).",
        locale,
        _post(build_notice_blocks(title, body))[0],
    )
    title, body = texts.not_linked()
    yield Shown(
        "Ephemeral: not linked",
        "Someone whose Slack account maps to no staff user reacted or replied.",
        locale,
        _post(build_notice_blocks(title, body))[0],
    )
    # The reason is what the person typed, in their own words.
    reason = "La sección de llegada existe." if locale == "es" else "The arrival section exists."
    title, body = texts.confirmation("pass", reason, ["arrival"])
    yield Shown(
        "Ephemeral: correction recorded",
        "Someone wrote a correction (“Should be PASS — …”) or used the form.",
        locale,
        _post(build_notice_blocks(title, body))[0],
    )
    reviewed = texts.reviewed_line(["María"], [], [("Sam", "pass")], [])
    yield Shown(
        "Reviewed-by line (on the parent)",
        "People reacted to or corrected a post; the parent is edited to show who.",
        locale,
        render_payload({"blocks": [reviewed_block(reviewed).to_dict()]}),
    )

    home = HomeContent(
        locale=locale,
        linked=True,
        waiting=[
            WaitingPost(
                texts.headline("block", "unbacked_promise"),
                "Lampliter",
                "C0LAMPLITER",
                "1764540000.000100",
                datetime(2026, 11, 30, 15, 2, tzinfo=UTC),
            )
        ],
        waiting_total=1,
        week=MyWeek(acts=4, judged=3, agreeing=2),
        unlinked=[("U0ANA", 2)],
    )
    yield Shown(
        "App Home tab",
        "An admin opens Smith's Home tab (in their own Slack language).",
        locale,
        _view(build_home_view(home)),
    )

    grade, conversation = graded("camellia-double-send")
    machine = MachineGrade(**turn_machine_grade(grade, grade.flagged_turns[0]))
    item = CorrectedItem(
        conversation.conversation_id, grade.flagged_turns[0].turn_id, "camellia", "C1", "1.2"
    )
    yield Shown(
        "Correction form (modal)",
        "Someone pressed “Correct this grade” on a turn reply; the last section is for engineers.",
        locale,
        _view(build_correction_view(item, machine, [], locale=locale)),
    )


def engineering_messages() -> Iterator[Shown]:
    """The triage and ops channel's messages: for the team running Smith, in English only."""
    report = SweepReport()
    report.written.update({"clara": 2, "grader": 1})
    report.tickets.new.append(TicketLink("sig-1", "tools_succeeded: get_tour_slots failed (secret)", None))
    content = build_digest_blocks(sweep_summary_sections(report), title=texts_triage.SWEEP_SUMMARY_TITLE)
    yield Shown(
        "Sweep summary (triage channel)",
        "The nightly sweep wrote fixture drafts or filed tickets (a night with nothing new posts nothing).",
        "en",
        _post(content)[0],
    )
    sections = [
        ("Reaction rate per channel (7 days)", ["Camellia (channel C0CAMELLIA): 2 of 3 flagged reacted"]),
        (
            "Top root causes of failures on our side (this week, vs last week)",
            ["tools_succeeded: secret — 3 (new this week)"],
        ),
        ("Pass rate vs 👎 (last week → this week)", ["pass rate 91% → 93% · 👎 2 → 1"]),
    ]
    yield Shown(
        "Weekly digest (triage channel, excerpt)",
        "Monday, once Smith has graded for a full week; the 30-day section waits for 30 days of grades.",
        "en",
        _post(build_digest_blocks(sections, title="Smith weekly digest · 2026-W49"))[0],
    )
    title, body = english.delivery_failed_notice("not_in_channel", ChannelLink("C0CAMELLIA"))
    yield Shown(
        "Ops notice",
        "Posts to a channel fail permanently (told once per cause).",
        "en",
        _post(build_notice_blocks(title, body))[0],
    )


def gallery() -> str:
    out = [
        "# What people read: every message Smith shows",
        "",
        "Generated by `python -m tools.post_gallery` from the real builders and the bundled examples",
        "graded by the real engine; `tests/test_post_gallery.py` fails when this file is stale. Do not",
        "edit by hand. 🔔 marks the notification text (the plain-text fallback Slack shows in alerts).",
        "Engineering detail (check ids, layers, rule entries, rubric) is never in the text: it is in the",
        "message metadata (`event_payload.detail`, shown under each post) and the correction form.",
        "",
    ]
    for locale in LOCALES:
        out += [f"## {'English' if locale == 'en' else 'Spanish (es)'}", ""]
        for shown in shown_messages(locale):
            out += _entry(shown)
    out += ["## Triage and ops channels (English only, for the team running Smith)", ""]
    for shown in engineering_messages():
        out += _entry(shown)
    return "\n".join(out).rstrip() + "\n"


def _entry(shown: Shown) -> list[str]:
    lines = [f"### {shown.kind}", "", f"*When:* {shown.situation}", "", "```text", *shown.lines, "```", ""]
    detail = (shown.metadata or {}).get("event_payload", {}).get("detail")
    if detail is not None:
        lines += [
            "<details><summary>Detail for engineers (message metadata)</summary>",
            "",
            "```json",
            json.dumps(detail, indent=2, ensure_ascii=False),
            "```",
            "",
            "</details>",
            "",
        ]
    return lines


def main(argv: list[str] | None = None, write: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="fail if docs/posts.md is not up to date")
    args = parser.parse_args(argv)
    fresh = gallery()
    if args.check:
        current = GALLERY.read_text(encoding="utf-8") if GALLERY.exists() else ""
        if current != fresh:
            write("docs/posts.md is stale: run `python -m tools.post_gallery`")
            return 1
        return 0
    GALLERY.write_text(fresh, encoding="utf-8")
    write(f"wrote {GALLERY.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
