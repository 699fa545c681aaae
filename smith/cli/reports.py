"""`smith digest` and `smith home`: what the weekly job and the App Home tab would show right now."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from smith.cli.context import open_store, rules, settings
from smith.cli.errors import UserError
from smith.cli.output import print_json

if TYPE_CHECKING:
    from gradecore.persistence.entities import User
    from gradecore.persistence.store import Store

# The store, the composers and the judge load inside each command (docs/operations.md, command start-up).


def digest(
    post: Annotated[
        bool, typer.Option("--post", help="Queue it for the triage channel (SMITH_TRIAGE_CHANNEL) instead")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the Block Kit message as JSON")] = False,
) -> None:
    """Print (or post) the weekly engineering digest as the scheduler would compose it now."""
    import asyncio

    from gradecore.persistence.entities import utcnow
    from smith.outbox.keys import digest_key
    from smith.outbox.queue import NewPost, queue_one
    from smith.reports.digest import compose_digest, iso_week
    from smith.transports.render import render_payload

    triage = settings().triage_channel
    if post and triage is None:
        raise UserError("--post needs SMITH_TRIAGE_CHANNEL, the channel the digest goes to")
    store = open_store()
    now = utcnow()
    week = iso_week(now)
    content = compose_digest(store, now, week=week, judge_drift=asyncio.run(_judge_drift(store)))
    if post:
        with store.unit() as unit:
            queued = queue_one(
                unit, NewPost(key=digest_key(week), kind="digest", content=content, channel=triage)
            )
        typer.echo(f"digest {week}: {'queued for' if queued else 'already queued for'} {triage}")
    elif as_json:
        print_json({"week": week, "message": content.as_message()})
    else:
        typer.echo("\n".join(render_payload(content.as_message())))


async def _judge_drift(store: Store) -> list[str] | None:
    """The judge drift lines, as the scheduler measures them; None (judge lane off) without a judge."""
    from smith.reports.judge_drift import measure_drift
    from smith.wiring import build_judge_lane

    async with build_judge_lane(settings(), rules()) as lane:
        if not lane.enabled:
            return None
        return (await measure_drift(store, lane)).lines()


def home(
    user: Annotated[
        str, typer.Option("--user", help="A Slack user id (U0123ABCD) or a staff e-mail address")
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the Home tab's Block Kit view as JSON")
    ] = False,
) -> None:
    """Print what this person's App Home tab shows now."""
    from blocks.home import build_home_view
    from smith.listening.home import home_for
    from smith.transports.render import render_payload

    store = open_store()
    viewer = _viewer(store, user)
    if viewer is None:
        typer.echo(f"smith: {user} is not a linked, active staff member: this is the tab they see", err=True)
    view: dict[str, Any] = build_home_view(home_for(store, viewer)).to_dict()
    if as_json:
        print_json(view)
    else:
        typer.echo("\n".join(render_payload(view)))


def _viewer(store: Store, who: str) -> User | None:
    """The User behind a Slack id (through its link) or an e-mail; None unless active staff who may grade,
    as the Home tab decides."""
    with store.unit() as unit:
        found = unit.users.by_email(who) if "@" in who else unit.identities.user_for(who)
    if found is None and "@" in who:
        raise UserError(f"no user with the e-mail address {who!r} (see `smith users list`)")
    return found if found is not None and found.active else None
