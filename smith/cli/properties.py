"""`smith properties set|list`."""

from __future__ import annotations

from typing import Annotated, Literal

import typer

from smith.cli.arguments import bounded, channel_id
from smith.cli.context import open_database, open_store, settings
from smith.cli.errors import UserError
from smith.cli.output import JsonOption, print_json, print_table, table

Locale = Literal["en", "es"]  # the locales Smith has a copy deck for (blocks/locales.py)

app = typer.Typer(help="Properties and their Slack channels.", no_args_is_help=True)


@app.command("set")
def set_property(
    property_id: str,
    name: Annotated[str | None, typer.Option(help="Display name")] = None,
    timezone: Annotated[str | None, typer.Option(help="IANA timezone, e.g. America/Los_Angeles")] = None,
    locale: Annotated[Locale | None, typer.Option(help="Language of its posts", case_sensitive=False)] = None,
    channel: Annotated[
        str | None, typer.Option(help="Slack channel id (C… or G…, not its name) for this property's posts")
    ] = None,
) -> None:
    """Create or update a property (creating needs --name and --timezone)."""
    from gradecore.persistence.entities import Property

    bounded(property_id, (Property, "id"), "the property id")
    if name is not None:
        bounded(name, (Property, "name"), "--name")
    if timezone is not None:
        bounded(timezone, (Property, "timezone"), "--timezone")
    channel = None if channel is None else channel_id(channel)
    with open_store().unit() as unit:
        if unit.properties.get(property_id) is None and (name is None or timezone is None):
            raise UserError(f"unknown property {property_id!r}: to create it, give --name and --timezone")
        found = unit.properties.set(
            property_id, name=name, timezone=timezone, locale=locale, channel_id=channel
        )
        # Posts graded before the property had a channel were parked; now they can go.
        routed = unit.outbox.route_parked(property_id, channel) if channel else 0
        # Posts refused for a channel reason (a mistyped id, an archived channel) go to the new one.
        requeued = unit.outbox.requeue_channel_failures(property_id, channel) if channel else 0
    typer.echo(
        f"{found.id}: {found.name} · {found.timezone} · channel {found.slack_channel_id or 'not mapped'}"
    )
    if routed:
        typer.echo(f"{routed} waiting posts queued for {channel}")
    if channel:
        typer.echo(f"{requeued} posts that failed for a channel reason re-queued for {channel}")
    if channel:
        _join(channel)


def _join(channel: str) -> None:
    """Smith must be in the channel to see the thread replies it grades from; say so if it cannot join."""
    import asyncio

    from smith.wiring import build_transport

    current = settings()
    if current.post_mode != "live":
        return
    transport = build_transport(current)
    if transport is not None and asyncio.run(transport.join(channel)):
        typer.echo(f"joined {channel}")
    else:
        typer.echo(
            f"could not join {channel}: invite the bot there (/invite @Smith); "
            "a private channel always needs an invite",
            err=True,
        )


@app.command("list")
def list_properties(as_json: JsonOption = False) -> None:
    """List properties."""
    from gradecore.persistence import listings

    with open_database().connect() as connection:
        rows = [
            {
                "id": row.id,
                "name": row.name,
                "timezone": row.timezone,
                "locale": row.locale,
                "channel": row.channel,
            }
            for row in listings.properties(connection)
        ]
    if as_json:
        print_json(rows)
        return
    grid = table("id", "name", "timezone", "locale", "channel")
    for row in rows:
        grid.add_row(row["id"], row["name"], row["timezone"], row["locale"], row["channel"] or "not mapped")
    print_table(grid)
