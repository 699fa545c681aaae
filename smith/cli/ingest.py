"""`smith ingest FILE|-`."""

from __future__ import annotations

from typing import Annotated

import typer

from smith.cli.context import ingestor, open_store
from smith.cli.errors import UserError
from smith.cli.output import progress
from smith.documents import parse_documents, read_source
from smith.ingest import IngestResult


def ingest(source: Annotated[str, typer.Argument(help="A JSON or JSONL file, or - for stdin")]) -> None:
    """Validate and store conversation documents (identical re-sends are no-ops)."""
    name, raw = read_source(source)
    documents = list(parse_documents(name, raw))
    if len(documents) == 1 and documents[0].violation is not None:
        # One document, one mistake: one line, without a "1 document(s) rejected" summary after it.
        raise UserError(f"{documents[0].where}: {documents[0].violation}")
    ingest_one = ingestor(open_store()).ingest
    rejected = 0
    with progress("Ingesting", len(documents)) as advance:
        for document in documents:
            if document.conversation is None:
                assert document.violation is not None
                rejected += 1
                typer.echo(f"smith: {document.where}: {document.violation}", err=True)
            else:
                typer.echo(describe(ingest_one(document.conversation)))
            advance()
    if rejected:
        raise UserError(f"{rejected} document(s) rejected; nothing was stored for them")


def describe(result: IngestResult) -> str:
    """`id: new · BLOCK · unbacked promise · 1 of 1 turns flagged · 2 posts queued`."""
    parts = [f"{result.conversation_id}: {result.outcome.value}"]
    if result.grade is not None:
        grade = result.grade
        parts.append(grade.headline.text)
        parts.append(f"{len(grade.flagged_turns)} of {len(grade.turns)} turns flagged")
        if result.posts_queued:
            where = "parked until the property has a channel" if result.parked else "queued"
            parts.append(f"{result.posts_queued} posts {where}")
    return " · ".join(parts)
