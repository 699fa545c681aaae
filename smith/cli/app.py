"""The command tree: each group lives in its own module and is attached here.

Command modules import only typer and light helpers at the top; what a command runs on (the engine,
SQLAlchemy, Slack's SDKs) is imported inside it, so building this tree for `--help` stays quick
(docs/operations.md, command start-up).
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from smith.cli import db, ingest, jobs, outbox, properties, rules, run, slack, tickets, users

app = typer.Typer(
    name="smith",
    help="Agent Smith: grades Clara's conversations and brings the flagged ones to Slack.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version as package_version

        from cerebrus.version import ENGINE_VERSION

        typer.echo(f"smith {package_version('agent-smith')} · engine {ENGINE_VERSION}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit"),
    ] = False,
) -> None:
    """Agent Smith: grades Clara's conversations and brings the flagged ones to Slack."""


app.add_typer(db.app, name="db")
app.add_typer(users.app, name="users")
app.add_typer(properties.app, name="properties")
app.command("ingest")(ingest.ingest)
app.command("demo")(run.demo)
app.command("grade")(run.grade)
app.command("serve")(run.serve)
app.command("outbox")(outbox.outbox)
app.command("manifest")(slack.manifest)
app.command("tally")(jobs.tally)
app.command("sweep")(jobs.sweep)
app.command("tickets")(tickets.tickets)
app.add_typer(jobs.fixtures_app, name="fixtures")
app.add_typer(rules.app, name="rules")
app.command("regrade")(rules.regrade)
app.command("agreement")(slack.agreement)
users.app.command("link")(slack.link)


@app.command()
def schema() -> None:
    """Print the JSON Schema of the input contract (smith.conversation/v1)."""
    from gradecore.contract import conversation_schema

    typer.echo(json.dumps(conversation_schema(), indent=2))
