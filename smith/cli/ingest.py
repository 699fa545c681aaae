"""`smith ingest FILE…` (files, directories, or - for stdin)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

from smith.cli.context import ingestor, open_store, rules, settings
from smith.cli.errors import ShowAll, UserError, database_failure, tell, violation_error
from smith.cli.output import progress

if TYPE_CHECKING:
    from gradecore.model.contract import Conversation
    from smith.cli.documents import ParsedDocument
    from smith.ingest import Ingestor, IngestResult

# The contract, the store and the judge load inside the command (docs/operations.md, command start-up).


def ingest(
    sources: Annotated[
        list[str], typer.Argument(help="JSON or JSONL files, directories of them, or - for stdin")
    ],
    show_all: ShowAll = False,
) -> None:
    """Validate and store conversation documents (identical re-sends are no-ops)."""
    import asyncio

    from smith.cli.documents import read_documents

    documents = read_documents(sources)
    if len(documents) == 1 and documents[0].violation is not None:
        # One document: its mistakes alone, without a "1 document(s) rejected" summary after them.
        raise violation_error(documents[0].where, documents[0].violation, show_all=show_all)
    ingesting = ingestor(open_store())
    rejected = 0
    judge_owed = False
    outcomes: Counter[str] = Counter()
    resume = "what was stored is kept; rerun the same command to continue (stored documents are skipped)"
    with progress("Ingesting", len(documents), unit="documents", resume=resume) as advance:
        for document in documents:
            if document.violation is not None:
                rejected += 1
                advance()
                tell(violation_error(document.where, document.violation, show_all=show_all))
                continue
            result, problem = _ingest_document(document, ingesting.ingest)
            advance()
            if result is not None:
                outcomes[result.outcome.value] += 1
                judge_owed = judge_owed or result.judge_pending
                continue
            if len(documents) == 1:
                raise UserError(f"{document.where}: {problem}")
            rejected += 1
            typer.echo(f"smith: {document.where}: {problem}", err=True)
    if judge_owed:
        # A batch: the judged grades are paid here, after every document is stored, as `smith serve`
        # pays them after answering each ingest.
        typer.echo(f"judged {asyncio.run(pay_judgements(ingesting))} conversation(s)")
    if len(documents) > 1:
        counted = " · ".join(f"{count} {outcome}" for outcome, count in sorted(outcomes.items()))
        typer.echo(
            f"{len(documents)} documents: {counted or 'none stored'}"
            + (f" · {rejected} rejected" if rejected else "")
        )
    if rejected:
        raise UserError(f"{rejected} document(s) rejected; nothing was stored for them")


def _ingest_document(
    document: ParsedDocument, ingest_one: Callable[[Conversation], IngestResult]
) -> tuple[IngestResult | None, str | None]:
    """Stores one document and prints its outcome; else the reason it was not stored."""
    from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

    from gradecore.persistence.store.errors import PropertyChanged

    if document.conversation is None:
        assert document.violation is not None
        return None, str(document.violation)
    try:
        result = ingest_one(document.conversation)
    except (OperationalError, InterfaceError):
        raise  # the database itself is failing: no later document would fare better
    except PropertyChanged as refused:
        return None, str(refused)  # one line; the transaction rolled back
    except DBAPIError as exc:
        # This document's write was refused (its transaction rolled back); the others may still go in.
        return None, f"{database_failure(exc)}; nothing was stored for it"
    typer.echo(describe(result))
    return result, None


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


async def pay_judgements(ingesting: Ingestor) -> int:
    from smith.judging import JudgeWorker
    from smith.wiring import build_judge_lane

    async with build_judge_lane(settings(), rules()) as lane:
        return await JudgeWorker(ingesting.store, lane, ingesting).drain()
