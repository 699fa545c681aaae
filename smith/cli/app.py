"""The command tree: each group lives in its own module and is attached here."""

from __future__ import annotations

import json

import typer

from gradecore.contract import conversation_schema
from smith.cli import db, ingest, jobs, outbox, properties, rules, run, slack, tickets, users

app = typer.Typer(
    name="smith",
    help="Agent Smith: grades Clara's conversations and brings the flagged ones to Slack.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
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
    typer.echo(json.dumps(conversation_schema(), indent=2))
