"""`smith ingest FILE|-`."""

from __future__ import annotations

from typing import Annotated

import typer

from smith.cli.context import open_store
from smith.cli.errors import UserError
from smith.documents import parse_documents, read_source
from smith.ingest import Ingestor


def ingest(source: Annotated[str, typer.Argument(help="A JSON or JSONL file, or - for stdin")]) -> None:
    """Validate and store conversation documents (identical re-sends are no-ops)."""
    name, raw = read_source(source)
    ingestor = Ingestor(open_store())
    rejected = 0
    for document in parse_documents(name, raw):
        if document.conversation is None:
            assert document.violation is not None
            rejected += 1
            typer.echo(f"smith: {document.where}: {document.violation}", err=True)
            continue
        result = ingestor.ingest(document.conversation)
        typer.echo(f"{result.conversation_id}: {result.outcome}")
    if rejected:
        raise UserError(f"{rejected} document(s) rejected; nothing was stored for them")
