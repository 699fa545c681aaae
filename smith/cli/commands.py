"""The command tree: each group lives in its own module and is attached here. `serve`, which runs the
wired application, is attached by `smith_cli.main`, the console script, above `app` (docs/architecture.md).

Command modules import only typer and light helpers at the top; what a command runs on (the engine,
SQLAlchemy, Slack's SDKs) is imported inside it, so building this tree for `--help` stays quick
(docs/operations.md, command start-up).
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from smith.cli import (
    db,
    examples,
    ingest,
    jobs,
    outbox,
    preview,
    properties,
    reports,
    rules,
    run,
    slack,
    tickets,
    users,
)

commands = typer.Typer(
    name="smith",
    help="Agent Smith: grades Clara's conversations and brings the flagged ones to Slack.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=True,
)


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version as package_version

        from cerebrus.version import ENGINE_VERSION

        typer.echo(f"smith {package_version('agent-smith')} · engine {ENGINE_VERSION}")
        raise typer.Exit()


@commands.callback()
def main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit"),
    ] = False,
) -> None:
    """Agent Smith: grades Clara's conversations and brings the flagged ones to Slack."""


commands.add_typer(db.app, name="db")
commands.add_typer(users.app, name="users")
commands.add_typer(properties.app, name="properties")
commands.command("ingest")(ingest.ingest)
commands.command("demo")(run.demo)
commands.command("grade")(run.grade)
commands.command("preview")(preview.preview)
commands.command("outbox")(outbox.outbox)
commands.command("manifest")(slack.manifest)
commands.command("tally")(jobs.tally)
commands.command("digest")(reports.digest)
commands.command("home")(reports.home)
commands.command("sweep")(jobs.sweep)
commands.command("tickets")(tickets.tickets)
commands.add_typer(jobs.fixtures_app, name="fixtures")
commands.add_typer(rules.app, name="rules")
commands.command("regrade")(rules.regrade)
commands.command("agreement")(slack.agreement)
users.app.command("link")(slack.link)


@commands.command()
def schema() -> None:
    """Print the JSON Schema of the input contract (smith.conversation/v1)."""
    from gradecore.model.contract import conversation_schema

    typer.echo(json.dumps(conversation_schema(), indent=2))


examples.attach_examples(commands)
