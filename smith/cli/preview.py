"""`smith preview FILE…`: every post Smith would make for these conversations, on one HTML page."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from smith.cli.context import rules, settings
from smith.cli.errors import ShowAll, UserError, tell, violation_error

# The engine, the store and the page load inside the command (docs/operations.md, command start-up).


def preview(
    sources: Annotated[
        list[str], typer.Argument(help="JSON or JSONL files, directories of them, or - for stdin")
    ],
    out: Annotated[Path, typer.Option("--out", help="Where to write the page")] = Path("preview.html"),
    open_page: Annotated[bool, typer.Option("--open", help="Open the page in the default browser")] = False,
    show_all: ShowAll = False,
) -> None:
    """Grade documents without storing anything and write one HTML page of every post, as Slack shows it."""
    import asyncio
    import webbrowser

    from smith.cli.documents import read_documents
    from smith.preview.build import build_preview
    from smith.preview.page import render_page

    documents = read_documents(sources)
    if len(documents) == 1 and documents[0].violation is not None:
        raise violation_error(documents[0].where, documents[0].violation, show_all=show_all)
    for document in documents:
        if document.violation is not None:
            tell(violation_error(f"{document.where} (left out)", document.violation, show_all=show_all))
    if not any(document.conversation is not None for document in documents):
        raise UserError("no document is valid: there is nothing to preview")
    built = asyncio.run(build_preview(documents, settings(), rules()))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(render_page(built), encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write {out}: {exc.strerror}") from None
    summary = f"{len(built.graded)} conversation(s) graded · {built.flagged} flagged"
    typer.echo(f"{summary} · preview written to {out.resolve()}")
    if open_page:
        webbrowser.open(out.resolve().as_uri())
