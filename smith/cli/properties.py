"""`smith properties set|list`."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from smith.cli.context import open_store

app = typer.Typer(help="Properties and their Slack channels.", no_args_is_help=True)


@app.command("set")
def set_property(
    property_id: str,
    name: Annotated[str | None, typer.Option(help="Display name")] = None,
    timezone: Annotated[str | None, typer.Option(help="IANA timezone, e.g. America/Los_Angeles")] = None,
    locale: Annotated[str | None, typer.Option(help="en or es")] = None,
    channel: Annotated[
        str | None, typer.Option(help="Slack channel id (C…) for this property's posts")
    ] = None,
) -> None:
    """Create or update a property (creating needs --name and --timezone)."""
    with open_store().unit() as unit:
        found = unit.properties.set(
            property_id, name=name, timezone=timezone, locale=locale, channel_id=channel
        )
    typer.echo(
        f"{found.id}: {found.name} · {found.timezone} · channel {found.slack_channel_id or 'not mapped'}"
    )


@app.command("list")
def list_properties() -> None:
    """List properties."""
    with open_store().unit() as unit:
        rows = unit.properties.list()
    table = Table("id", "name", "timezone", "locale", "channel")
    for row in rows:
        table.add_row(row.id, row.name, row.timezone, row.locale, row.slack_channel_id or "not mapped")
    Console().print(table)
