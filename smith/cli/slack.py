"""`smith manifest`, `smith users link`, `smith agreement`: the Slack-side administration commands."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import typer

from smith.cli.arguments import bounded, email_address
from smith.cli.context import open_store
from smith.cli.errors import UserError
from smith.cli.output import JsonOption, print_json, print_table, table
from smith.cli.windows import Since, window

# The store's entities, the listening code and the manifest load inside each command (docs/operations.md,
# command start-up).


def manifest(
    url: Annotated[str | None, typer.Option(help="Public base URL of `smith serve` (HTTP mode)")] = None,
    socket_mode: Annotated[
        bool, typer.Option("--socket-mode", help="Socket Mode: no public URL needed")
    ] = False,
) -> None:
    """Print the Slack app manifest (JSON) to create the app in one step."""
    from urllib.parse import urlsplit

    from smith.cli.manifest import build_manifest

    if not socket_mode and url is None:
        raise UserError("give --url https://your-host (HTTP mode) or --socket-mode")
    # Slack sends events and interactions only to an https:// request URL on a named host.
    if url is not None and (urlsplit(url).scheme != "https" or not urlsplit(url).hostname):
        raise UserError(f"--url must be an https:// URL such as https://smith.example.com, not {url!r}")
    typer.echo(json.dumps(build_manifest(url=url, socket_mode=socket_mode), indent=2))


def link(
    slack_user_id: str,
    email: str,
    force: Annotated[
        bool, typer.Option("--force", help="Link onto an admin (they act as the admin)")
    ] = False,
) -> None:
    """Link a Slack user id (U…) to a staff user; their pending reactions and replies then count."""
    from gradecore.persistence.entities import SlackIdentity
    from smith.listening.linking import LinkRefused, link_identity

    if not slack_user_id.startswith(("U", "W")):
        raise UserError(f"{slack_user_id!r} is not a Slack user id (they start with U or W)")
    bounded(slack_user_id, (SlackIdentity, "slack_user_id"), "the Slack user id")
    try:
        result = link_identity(
            open_store(), slack_user_id, email_address(email), linked_by="admin", force=force
        )
    except LinkRefused as refused:
        raise UserError(
            str(refused).replace("/smith link --force @person", "smith users link --force U…")
        ) from None
    typer.echo(
        f"linked {slack_user_id} to {result.user.email} · {result.attributed} pending act(s) attributed"
    )
    if result.replaced:
        typer.echo(f"replaced its link to {result.replaced}")


def agreement(
    since: Since = None,
    by: Annotated[Literal["grader", "check", "property"], typer.Option(help="Group by")] = "grader",
    as_json: JsonOption = False,
) -> None:
    """Agreement between staff and Smith: share agreeing (👎 included) and Cohen's κ (4 levels and
    pass/not-pass) over the acts naming a level, with their number."""
    from smith.reports.meaning_reads import agreement_counts, overall

    start, end = window(since)
    with open_store().unit() as unit:
        table_rows = agreement_counts(unit, start, end, by).table()
        every = overall(unit, start, end)
    rows: list[dict[str, Any]] = [
        {
            by: row.key,
            "acts": row.n,
            "agreeing": row.share_agreeing,
            "kappa": row.kappa,
            "kappa_binary": row.kappa_binary,
            "kappa_n": row.kappa_n,
        }
        for row in table_rows
    ]
    total: dict[str, Any] = {
        by: "all",
        "acts": 0 if every is None else every.n,
        "agreeing": None if every is None else every.share_agreeing,
        "kappa": None if every is None else every.kappa,
        "kappa_binary": None if every is None else every.kappa_binary,
        "kappa_n": 0 if every is None else every.kappa_n,
    }
    if as_json:
        print_json([*rows, total])
        return
    grid = table(by, "acts", "agreeing", "κ (4 levels)", "κ (pass/not)", "κ n")
    for row in [*rows, total]:
        agreeing = row["agreeing"]
        grid.add_row(
            str(row[by]),
            str(row["acts"]),
            "—" if agreeing is None else f"{agreeing:.0%}",
            _kappa(row["kappa"]),
            _kappa(row["kappa_binary"]),
            str(row["kappa_n"]),
            style="bold" if row is total else None,
        )
    print_table(grid)


def _kappa(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


__all__ = ["agreement", "link", "manifest"]
