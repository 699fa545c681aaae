"""Every sentence Smith shows to people in Slack, in one place, as functions: the English copy deck.

The texts are plain words for property staff: no scores, no internal ids, no engine vocabulary. They
return plain strings; the Block Kit builders (`blocks/`) escape them and add the mrkdwn emphasis, so a
text here never has to think about Slack markup. `blocks/texts_es.py` is the same deck in Spanish
(`blocks/copydeck.py` picks one by the property's locale); the operational texts at the end (ops
notices, `/smith`) are for the team running Smith and exist in English only.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TypeVar

from blocks import locales
from blocks.locales import SentenceFacts

LOCALE = "en"
_CHANNELS = {"email": "Email", "sms": "SMS", "voice": "Voice"}
_ROLES = {"staff": "staff member"}
_WRITERS = {
    "prospect": "the prospect",
    "resident": "the resident",
    "vendor": "the vendor",
    "staff": "staff",
    "clara": "Clara",
    "system": "an automated message",
}
_NOT_CHECKED_WHY = {
    "data_missing": "data missing",
    "judge_lane_off": "judge lane off",
    "judge_pending": "judged shortly",
    "judge_error": "judge unavailable",
    "no_receipt": "judge gave no quote",
    "too_short_to_tell": "too short to tell",
}
_JUDGED_SCORES = {0: "harmful", 1: "poor", 2: "minor issue", 3: "fine"}
_LEVEL_MEANINGS = {
    "pass": "nothing to do",
    "repair": "a detail to fix",
    "hold": "someone should follow up",
    "block": "this should never have gone out",
}
# What the person reading the post should do about a failing check, by check id. A failure that is
# ours (context, tools, data) and needs nothing from the property gets `_OURS_NOTHING_TO_DO`.
_WHAT_TO_DO = {
    "no_access_code_to_prospect": "check the access code — change it if a prospect should not have it",
    "no_internal_narration": "read the reply; if it confused them, follow up in plain words",
    "no_ungrounded_policy_claim": "keep the promise, or tell them it was a mistake",
    "amounts_match_ledger": "confirm the amount, and correct it with them if it is wrong",
    "reply_language_matches": "answer them again in their language",
    "followup_exists": "answer their last question — it is still waiting for a reply",
    "escalation_closed": "follow up on the escalation — it is past its deadline",
    "one_message_per_trigger": "tell them which of the two answers holds",
    "not_truncated": "send them the rest of the answer — the reply was cut off",
    "required_facts_present": "add the missing detail to the property's information",
    "mandated_tools_called": "double-check the answer — Clara skipped a lookup it needed",
    "loop_progress": "check that they got an answer",
    "tone": "read the reply and follow up if it landed badly",
    "pacing": "check that nobody is still waiting for an answer",
}
_CLARAS_DEFAULT_TO_DO = "read the reply and follow up with them if needed"
_OURS_NOTHING_TO_DO = "nothing for you — engineers have a ticket for it"
_REASON_TITLES: dict[str, str] = {}  # slugs read as words already ("unbacked_promise" → "unbacked promise")

CORRECT_GRADE_BUTTON = "Correct this grade"
CLARAS_HEADING = "Clara's mistake"
OURS_HEADING = "A problem on our side (engineers are told)"
ADVISORY_HEADING = "Advisory (not counted in the grade yet)"
CONVERSATION_HEADING = "What happened"
OPEN_CONVERSATION = "Open the conversation"


# --- levels, checks and what to do ------------------------------------------------------------------


def level_meaning(level: str) -> str:
    """`HOLD — someone should follow up`: a level with its plain meaning."""
    return f"{level.upper()} — {_LEVEL_MEANINGS.get(level, level)}"


def reason_title(slug: str) -> str:
    return _REASON_TITLES.get(slug, slug.replace("_", " "))


def headline(level: str, slug: str) -> str:
    """`BLOCK · unbacked promise`; never a score."""
    return f"{level.upper()} · {reason_title(slug)}"


def layer_name(layer: str) -> str:
    return layer


def check_sentence(slug: str, facts: SentenceFacts) -> str | None:
    """The deck's own sentence for a failure, when the grader's would read worse (codes, not names);
    None keeps the grader's sentence."""
    if slug == "wrong_language" and facts.languages is not None:
        asked, replied = (locales.language_name(code, LOCALE) for code in facts.languages)
        return f"Written to in {asked}, Clara answered in {replied}."
    return _plain_sentence(slug, facts)


def what_to_do(check: str, owner: str, *, ticketed: bool = False) -> str:
    """`What to do: confirm the amount…`, for one failing check."""
    ours = _OURS_NOTHING_TO_DO if ticketed else OURS_NO_TICKET_YET  # issue 20: only a true promise
    fallback = ours if owner == "ours" else _CLARAS_DEFAULT_TO_DO
    action = _WHAT_TO_DO.get(check, fallback)
    return f"What to do: {action}"


# --- parent post -----------------------------------------------------------------------------------


def channel_name(channel: str) -> str:
    return _CHANNELS.get(channel, channel.capitalize())


def with_parties(roles: Sequence[str]) -> str:
    """`with a prospect`, `with a resident and a vendor`; roles are plain words already."""
    if not roles:
        return "no one wrote in"
    words = [_ROLES.get(role, role) for role in roles]
    named = [f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}" for word in words]
    if len(named) == 1:
        return f"with {named[0]}"
    return "with " + ", ".join(named[:-1]) + f" and {named[-1]}"


def turns_flagged(flagged: int, total: int, shown: int | None = None) -> str:
    """`2 of 6 turns flagged — each one is explained in this thread`; when the thread holds only
    `shown` of them, how many are explained and where the rest are."""
    if flagged == 0:
        return "No single turn was flagged — the problem is the conversation as a whole"
    noun = "turn" if total == 1 else "turns"
    if shown is None or shown >= flagged:
        where = "it is explained" if flagged == 1 else "each one is explained"
        return f"{flagged} of {total} {noun} flagged — {where} in this thread"
    return (
        f"{flagged} of {total} {noun} flagged — the first {shown} are explained in this thread, "
        "the rest are listed in its last message"
    )


def ownership_split(clara_layers: Sequence[str], our_layers: Sequence[str]) -> str:
    """Whose the failure is, in words: `Clara's mistake`, `A problem on our side (engineers are told)`,
    or both. Which layers failed is engineering detail (the post's metadata), never shown here."""
    parts = []
    if clara_layers:
        parts.append(CLARAS_HEADING)
    if our_layers:
        parts.append(OURS_HEADING if not parts else OURS_HEADING[0].lower() + OURS_HEADING[1:])
    return " and ".join(parts)


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


def scope_statement(checks_run: int, not_checked: Sequence[tuple[str, str]]) -> str:
    """`14 checks ran · tone and pacing not rated this time · not checked: the reply's language`.

    `not_checked` pairs a check's name with why (a NotCheckedWhy value). Judged dimensions are said to
    be *not rated* (or *judged shortly*, while the judge is still at work and the post will be edited),
    so "pacing" not rated never reads as contradicting a pacing check that failed. Checks that did
    not apply, and why each one was skipped, are engineering detail (the metadata).
    """
    line = locales.plural(checks_run, {"one": "{n} check ran", "other": "{n} checks ran"}, LOCALE)
    pending = _subjects(not_checked, "pending")
    judged = _subjects(not_checked, "judged")
    others = _subjects(not_checked, "other")
    if pending:
        line += f" · {_and(pending)} judged shortly"
    if judged:
        line += f" · {_and(judged)} not rated this time"
    if others:
        line += f" · not checked: {_and(others)}"
    return line


def _subjects(not_checked: Sequence[tuple[str, str]], kind: str) -> list[str]:
    """The names of the checks not checked for a reason of this kind: the judge still at work
    ("pending"), the judge not rating ("judged"), or a deterministic check's ("other")."""
    names = [
        _CHECK_NAMES.get(check, check.replace("_", " "))
        for check, why in not_checked
        if why != "not_applicable" and locales.not_checked_kind(why) == kind
    ]
    return list(dict.fromkeys(names))


def how_to_respond() -> str:
    return '👍 grade is right · 👎 grade is wrong — reply "Should be PASS — why"'


def conversation_fallback(headline: str, where: str, flagged_line: str) -> str:
    return f"{headline} — {where}. {flagged_line}."


# --- thread reply ----------------------------------------------------------------------------------


def turn_headline(number: int, headline: str) -> str:
    """`Turn 2 · HOLD · wrong language`."""
    return f"Turn {number} · {headline}"


def draft_label(excerpted: bool) -> str:
    return "What Clara wrote (excerpt):" if excerpted else "What Clara wrote:"


def no_draft() -> str:
    return "The message Clara sent is not in this conversation record."


def empty_draft() -> str:
    return "Clara sent an empty message."


def more_marks(count: int) -> str:
    """Under a draft too long to show every failing passage in one message."""
    noun = "passage" if count == 1 else "passages"
    return f"…and {count} more marked {noun} further on (see the whole draft in the conversation)"


# --- the reply that lists the flagged turns beyond the thread's bound ----------------------------


def more_turns_heading(count: int) -> str:
    noun = "turn" if count == 1 else "turns"
    return f"{count} more flagged {noun}, listed here to keep the channel readable"


def more_turns_how_to_see(has_link: bool) -> str:
    if has_link:
        return "Open the conversation (link above) to read each one; the grade is the same as above."
    return "To read one, open this conversation where you usually read Clara's messages."


def more_turns_fallback(count: int) -> str:
    return f"{count} more flagged turns in this conversation"


def judged_score(score: int | None) -> str:
    return _JUDGED_SCORES.get(score, "no score") if score is not None else "no score"


def and_more(count: int) -> str:
    return f"…and {count} more"


# --- receipts --------------------------------------------------------------------------------------


def receipt_quote(quote: str) -> str:
    return f"“{quote}”"


def receipt_message(role: str, text: str) -> str:
    """`the prospect wrote: “…”`; who wrote it in words, never a participant id."""
    return f"{_WRITERS.get(role, 'someone')} wrote: “{text}”"


def receipt_fact(fact_key: str) -> str:
    """Names the ledger entry a check read; neutral, since the failure may be that it is empty."""
    return f"checked against the property's {fact_name(fact_key)}"


# --- daily tally -----------------------------------------------------------------------------------


def short_date(day: date) -> str:
    """`Mon 30 Nov`, in English whatever the process locale."""
    return locales.short_date(day, LOCALE)


def tally_line(property_name: str, day: date, graded: int, passed: int, flagged: int, reacted: int) -> str:
    """`Camellia · Mon 30 Nov: 47 graded · 44 pass · 3 below · 2 of 3 reacted`."""
    prefix = f"{property_name} · {short_date(day)}: "
    if graded == 0:
        # Must never read as "all good": a silent grader and a quiet day look the same otherwise.
        return prefix + "0 graded — no conversations arrived"
    line = prefix + f"{graded} graded · {passed} pass · {flagged} below"
    if flagged:
        line += f" · {reacted} of {flagged} reacted"
    return line


def no_reactions_warning() -> str:
    return "⚠️ no reactions in 7 days — is anyone reading this channel?"


# --- notices and digests ---------------------------------------------------------------------------


def empty_notice() -> str:
    return "(no details)"


def nothing_to_report() -> str:
    return "Nothing to report."


def untitled_section() -> str:
    return "Other"


def and_more_sections(count: int) -> str:
    return f"…and {count} more sections, left out to fit in one message"


def digest_fallback(section_count: int) -> str:
    noun = "section" if section_count == 1 else "sections"
    return f"Smith digest: {section_count} {noun}"


# --- delivery (the outbox relay) ------------------------------------------------------------------

_FAILURE_EXPLAINED = {
    "channel_not_found": "the channel does not exist (or Smith cannot see it)",
    "not_in_channel": "Smith is not a member of the channel and could not join it (a private channel?): "
    "invite the bot to it",
    "is_archived": "the channel is archived",
    "invalid_blocks": "Slack rejected the message layout",
    "invalid_auth": "the bot token is not valid",
    "token_revoked": "the bot token was revoked",
    "missing_scope": "the Slack app lacks a permission it needs",
}


Where = TypeVar("Where")  # how a channel is shown in a text: the caller's choice (a link)


def delivery_failed_notice(cause: str, channel: Where | None) -> tuple[str, list[str | Where]]:
    """Title and body of the ops notice sent once per failure cause; `channel` (a link to it) is put in
    the body as given, the caller decides how a channel is shown."""
    reason = _FAILURE_EXPLAINED.get(cause, cause)
    body: list[str | Where] = [
        "Posts to ",
        *([channel] if channel is not None else ["a channel"]),
        f" are failing: {reason}. They are kept as failed; fix the cause, then run "
        "`smith outbox --retry-failed`.",
    ]
    return "Smith could not deliver a post", body


# --- listening: answers to people in Slack ---------------------------------------------------------


def note_hint() -> tuple[str, str]:
    """Told once per person per thread when a reply names no expected level."""
    return (
        "Thanks — kept as a note",
        'To make it a test case, name the level you expected and why, e.g. "Should be PASS — the '
        'arrival section exists". Add #tags for the principle it rests on.',
    )


def not_linked() -> tuple[str, str]:
    """Told once when someone whose Slack account maps to no staff user grades a post."""
    return (
        "Your Slack account is not linked to Smith yet",
        "Your reaction or reply is saved and will count as soon as an admin links your account "
        "(`/smith link @you your-email`).",
    )


def confirmation(level: str | None, reason: str | None, tags: Sequence[str]) -> tuple[str, str]:
    """Told to the person once their written correction or modal submission is recorded."""
    said = f"Should be {level_meaning(level)}" if level else "a note"
    lines = [f"Recorded: {said}."]
    if reason:
        lines.append(f"Why: {reason}")
    if tags:
        lines.append("Principles: " + ", ".join(f"#{tag}" for tag in tags))
    return "Thanks — your correction counts", "\n".join(lines)


# --- who reviewed a post -------------------------------------------------------------------------


_NAMES_SHOWN = 8  # per kind of act: a popular post's line stays one line


def _some(names: Sequence[str]) -> str:
    if len(names) <= _NAMES_SHOWN:
        return ", ".join(names)
    return ", ".join(names[:_NAMES_SHOWN]) + " and " + f"{len(names) - _NAMES_SHOWN} others"


def reviewed_line(
    ups: Sequence[str], downs: Sequence[str], corrections: Sequence[tuple[str, str]], notes: Sequence[str]
) -> str:
    """`Reviewed: 👍 María · correction by Sam → PASS`: who has reviewed this post, kept current."""
    parts = []
    if ups:
        parts.append("👍 " + _some(ups))
    if downs:
        parts.append("👎 " + _some(downs))
    parts += [f"correction by {name} → {level.upper()}" for name, level in corrections[:_NAMES_SHOWN]]
    if len(corrections) > _NAMES_SHOWN:
        parts.append(f"{len(corrections) - _NAMES_SHOWN} more corrections")
    if notes:
        parts.append("note by " + _some(notes))
    return "Reviewed: " + " · ".join(parts) if parts else "Not reviewed yet"


# --- the App Home tab ------------------------------------------------------------------------------

HOME_TITLE = "Smith — what waits for you"
HOME_NOTHING_WAITING = "Nothing is waiting for a review. 🎉"
HOME_UNLINKED_HEADING = "Slack accounts not linked, with acts waiting (admins)"


def home_waiting_heading(total: int) -> str:
    noun = "post waits" if total == 1 else "posts wait"
    return f"{total} {noun} for a review (newest first)"


def home_waiting_line(headline: str, property_name: str, day: date) -> str:
    return f"{headline} — {property_name} · {short_date(day)}"


def home_my_week(acts: int, judged: int, agreeing: int) -> str:
    if acts == 0:
        return "You have not reviewed anything this week."
    noun = "post" if acts == 1 else "posts"
    line = f"This week you reviewed {acts} {noun}"
    if judged:
        line += f" · you agreed with Smith on {agreeing} of {judged} ({agreeing / judged:.0%})"
    return line + "."


def home_unlinked_line(pending: int) -> str:
    noun = "act waits" if pending == 1 else "acts wait"
    return f"{pending} {noun} — link with `/smith link @person their-email`"


MODAL_TITLE = "Correct the grade"
MODAL_SUBMIT = "Save"
MODAL_CLOSE = "Cancel"
MODAL_LEVEL_LABEL = "What should the grade be?"
MODAL_LEVEL_PLACEHOLDER = "Pick a level"
MODAL_PRINCIPLES_LABEL = "Which principles does it rest on?"
MODAL_NEW_PRINCIPLE_LABEL = "+ new principle (a short name)"
MODAL_REASON_LABEL = "Why?"
MODAL_ERROR_LEVEL = "Pick the level you expected."
MODAL_ERROR_PRINCIPLE = "You disagree with Smith's grade: pick a principle above or name a new one here."
MODAL_ERROR_PRINCIPLE_NAME = "Use letters or numbers for the principle's name."


def modal_machine_said(level: str, headline: str) -> str:
    return f"Smith graded this *{level.upper()} · {headline.replace('_', ' ')}*."


def modal_level_option(level: str) -> str:
    """A level option in the modal, with its one-line meaning."""
    return level_meaning(level)


# --- /smith ---------------------------------------------------------------------------------------


def command_help() -> str:
    return (
        "*/smith stats* — this channel's last 30 days: graded, flagged, reaction rate, agreement\n"
        "*/smith link @person email* — (admins) link a Slack account to a staff user\n"
        "*/smith help* — this message\n"
        'On a Smith post: 👍 the grade is right · 👎 it is wrong — reply "Should be PASS — why".'
    )


def stats_no_property() -> str:
    return "No property posts to this channel, so there is nothing to count here."


def stats_line(graded: int, flagged: int, reacted: int, agreement: float | None, *, days: int) -> str:
    rate = "—" if flagged == 0 else f"{reacted / flagged:.0%}"
    agreeing = "no graded reactions yet" if agreement is None else f"{agreement:.0%} agree with Smith"
    return (
        f"Last {days} days: {graded} graded · {flagged} flagged · "
        f"{reacted} of {flagged} reacted ({rate}) · {agreeing}"
    )


def link_usage() -> str:
    return "Usage: `/smith link @person their-email@example.com`"


def link_needs_a_mention() -> str:
    return (
        "I could not tell whose Slack account that is: type @ and pick the person from Slack's list, "
        "so the command carries their account, then their e-mail — "
        "`/smith link @person their-email@example.com`."
    )


def slack_unavailable() -> str:
    return "Slack did not answer who you are just now; please try again in a minute."


def link_admins_only() -> str:
    return "Only Smith admins can link accounts."


def link_failed(problem: str) -> str:
    return f"Could not link: {problem}."


def linked(slack_user_id: str, email: str, attributed: int) -> str:
    waiting = f" {attributed} earlier reaction(s)/repl(ies) now count." if attributed else ""
    return f"Linked <@{slack_user_id}> to {email}.{waiting}"


# --- issue 23: what people read (who and when, plain sentences, engineers' detail) -----------------

_PARTY_ROLES = {"prospect": "prospect", "resident": "resident", "vendor": "vendor", "staff": "staff"}
_FACT_NAMES = {
    "arrival_instructions": "arrival instructions",
    "office_hours": "office hours",
    "access_codes": "access codes",
    "amounts": "amounts",
}
# A check's subject in words, for "not looked at this time: tone, pacing".
_CHECK_NAMES = {
    "tone": "tone",
    "pacing": "pacing",
    "reply_language_matches": "the reply's language",
    "required_facts_present": "the property's information",
    "required_facts_in_context": "what Clara was told",
    "amounts_match_ledger": "amounts",
    "mandated_tools_called": "look-ups",
    "tools_succeeded": "look-ups",
    "followup_exists": "unanswered questions",
    "escalation_closed": "hand-offs to staff",
    "no_ungrounded_policy_claim": "promises",
    "no_access_code_to_prospect": "access codes",
    "no_internal_narration": "talk about Clara's inner workings",
    "one_message_per_trigger": "double answers",
    "not_truncated": "cut-off answers",
    "loop_progress": "going round in circles",
    "token_budget": "cost",
}
DETAIL_HEADING = "Detail for engineers"
REGRADED_HEADER = "PASS · looked at again"


def fact_name(fact_key: str) -> str:
    """A ledger entry in words: `arrival_instructions` → `arrival instructions`."""
    return _FACT_NAMES.get(fact_key, fact_key.replace("_", " "))


def who_and_when(
    property_name: str, channel: str, party_name: str | None, role: str | None, when: str | None
) -> str:
    """`Lampliter · SMS with Morgan (prospect) · Tue 24 Nov, 9:02 AM`: who wrote in, how, and when."""
    if party_name and role:
        party = f"{channel_name(channel)} with {party_name} ({_PARTY_ROLES.get(role, role)})"
    elif role:
        party = f"{channel_name(channel)} {with_parties([role])}"
    else:
        party = channel_name(channel)
    parts = [property_name, party, *([when] if when else [])]
    return " · ".join(parts)


def regraded_pass_lines() -> tuple[str, str]:
    """The edited parent of a conversation that no longer fails: what happened, and why it changed."""
    return (
        "Smith's rules were updated, and this conversation now passes — nothing to do.",
        "Reactions made earlier stay with the grade they were made on.",
    )


def _plain_sentence(slug: str, facts: SentenceFacts) -> str | None:
    """One plain sentence per failure, for the person who has to act on it (None: the grader's own)."""
    known = _and([fact_name(key) for key in dict.fromkeys(facts.fact_keys)]) if facts.fact_keys else ""
    backed_by = "nothing was booked or confirmed" if facts.tools else "nothing on file backs it"
    quoted = " and ".join(dict.fromkeys(facts.quotes))
    sentences = {
        "access_code_to_prospect": "Clara gave an access code to a prospect.",
        "internal_narration": "Clara talked about her own inner workings instead of just answering.",
        "unbacked_promise": f"Clara made a promise, but {backed_by}.",
        "amount_mismatch": (
            f"Clara quoted {quoted}, which matches no amount on file."
            if quoted
            else "Clara quoted an amount that matches nothing on file."
        ),
        "amount_for_the_wrong_item": (
            f"Clara quoted {quoted}, but that is the amount of something else."
            if quoted
            else "Clara quoted the amount of something else."
        ),
        "double_send": "They got two different answers to the same message.",
        "truncated": "Clara's answer was cut off before the end.",
        "fact_missing": (
            f"The property's information has no {known}."
            if known
            else "A detail is missing from the property's information."
        ),
        "fact_not_in_context": "A detail on file never reached Clara, so she could not use it.",
        "over_token_budget": "Answering this took far more work than it should have.",
        "tool_failed": "One of the systems Clara relies on failed while she answered.",
        "mandated_tool_skipped": "Clara answered without looking up what she needed first.",
        "loop_stalled": "Clara went round in circles without getting anywhere.",
    }
    return sentences.get(slug)


# --- Issue 22 (trust): who may see what, link guards, forms out of date ------------------------------


def stats_members_only() -> str:
    return "Only members of this channel can see its figures."


def form_out_of_date() -> str:
    return (
        "This form is out of date: the post it came from has changed. "
        "Nothing was saved; open it again from the post."
    )


def link_inactive(email: str) -> str:
    return f"Could not link: {email} is not an active Smith user."


def link_admin_needs_force(email: str) -> str:
    return f"{email} is a Smith admin: whoever holds this Slack account acts as one. Add --force to link."


def link_replaced(previous: str) -> str:
    return f"(This Slack account was linked to {previous}; that link is replaced.)"


# --- issue 20: what a post promises is true (docs/verdicts.md) ---------------------------------------------
# "engineers have a ticket" only once one is filed; until then, what makes one.
OURS_NO_TICKET_YET = "nothing for you — a 👍 here opens a ticket for engineers"
TICKET_LINK = "the ticket"


def turn_superseded(number: int) -> str:
    """A turn reply whose conversation was regraded and whose turn now passes (`smith regrade`)."""
    return f"Turn {number} · superseded — now PASS, nothing to do"
