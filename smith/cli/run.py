"""`smith demo`, `smith grade`: the commands that run things (`smith serve` is `app.serve_command`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from smith.cli.context import rules, settings
from smith.cli.errors import ShowAll, violation_error

# The engine, the demo and rich load inside each command (docs/operations.md, command start-up).


def demo(
    workdir: Annotated[Path, typer.Option(help="Where the demo's fresh database and payloads go")] = Path(
        "smith-demo"
    ),
) -> None:
    """Run the whole loop on the bundled examples: grade, and show the posts as staff would see them."""
    import asyncio

    from rich.console import Console

    from blocks.texts_triage import SWEEP_SUMMARY_TITLE
    from smith.cli.demo import CORRECTION, run_demo, summary_table, write_preview

    console = Console()
    console.rule("Agent Smith demo · dry run: posts are shown here, nothing is sent to Slack")
    # The same settings `serve` reads: a rules file and the conversation links apply to the demo too.
    run = asyncio.run(run_demo(workdir, console, settings(), rules()))
    console.print(summary_table(run))
    console.rule("Staff answer in Slack (simulated)")
    console.print("María reacts 👍 on the Lampliter post · Sam replies under the Birchwood turn:")
    console.print(f'  "{CORRECTION}"', markup=False, highlight=False)
    for outcome in run.acts:
        console.print(f"  → {outcome}")
    console.rule(SWEEP_SUMMARY_TITLE)
    assert run.sweep is not None
    for kind, count in sorted(run.sweep.written.items()):
        console.print(f"  {count} {kind} fixture draft(s) written under {workdir}/fixtures/{kind}/")
    # A draft the leak scan refused, or one that raised, is said so: a silent gap reads as "nothing to do".
    for verdict_id, problem in run.sweep.refused + run.sweep.failed + run.sweep.parked:
        console.print(f"  verdict {verdict_id}: no fixture draft — {problem}", markup=False, highlight=False)
    console.rule("Daily tally line")
    for line in run.tallies:
        console.print(line, markup=False, highlight=False)
    flagged = sum(1 for result in run.results if result.grade is not None and result.grade.flagged)
    console.print(
        f"{len(run.results)} conversations graded · {flagged} flagged · "
        f"{run.delivery.posted} posts delivered (dry run) · database and payloads in {workdir}/"
    )
    page = asyncio.run(write_preview(workdir, settings(), rules()))
    console.print(
        f"Every post as Slack shows it, on one page: {page.resolve()}", markup=False, highlight=False
    )


def grade(
    sources: Annotated[
        list[str], typer.Argument(help="JSON or JSONL files, directories of them, or - for stdin")
    ],
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print the grade as JSON (JSON Lines, one per document, for several)"),
    ] = False,
    show_all: ShowAll = False,
) -> None:
    """Grade documents and print the result; nothing is stored."""
    from rich.console import Console

    from cerebrus import grade as grade_conversation
    from smith.cli.documents import read_documents
    from smith.cli.grade_report import print_grade

    documents = read_documents(sources)
    console = Console()
    for document in documents:
        if document.violation is not None:
            raise violation_error(document.where, document.violation, show_all=show_all)
        assert document.conversation is not None
        result = grade_conversation(document.conversation, rules=rules())
        if as_json and len(documents) > 1:
            # JSON Lines: one document's grade per line, for `jq -c` and line-by-line readers.
            typer.echo(json.dumps(result.model_dump(mode="json"), ensure_ascii=False))
        elif as_json:
            typer.echo(json.dumps(result.model_dump(mode="json"), indent=2, ensure_ascii=False))
        else:
            print_grade(console, result, document.conversation)
