"""`POST /v1/conversations`: the production platform hands Smith a settled conversation.

Bearer token required; 202 with the grade summary; 422 with the validation errors (or naming both
properties when a known conversation is re-sent with another property.id); 413 over the size
limit; 400 for a body that cannot be decoded as sent; 503 only when the database is unreachable or
cannot serve now (the platform retries; nothing is half-written because ingest is one transaction);
500 for any other database error, which retrying would not cure. Re-sending the same document is a
no-op, and so is a second replica storing the same document at the same moment.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.web_protocol import RequestPayloadError
from sqlalchemy.exc import SQLAlchemyError

from gradecore.model.contract import (
    MAX_DOCUMENT_BYTES,
    ContractViolation,
    DocumentTooLarge,
    parse_conversation,
)
from gradecore.persistence.store.conversations import PutOutcome
from gradecore.persistence.store.errors import PropertyChanged, database_unavailable
from smith.ingest import Ingestor
from smith.metrics import GRADES
from smith.web.observe import INGEST_NOTE, IngestNote

log = logging.getLogger(__name__)


def _problem(status: int, message: str, **extra: object) -> web.Response:
    return web.json_response({"error": message, **extra}, status=status)


def make_ingest_handler(
    ingestor: Ingestor,
    token: str | None,
    judge_owed: Callable[[], None] | None = None,
    *,
    deadline_seconds: float = 10.0,
) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """`judge_owed` is told when an ingest left a judgement owed (it wakes the judge worker): the
    request never waits for the judge lane. `deadline_seconds` bounds the storing: a database that
    hangs (rather than refuses) is answered 503 in time, and the platform's retry finds the document
    stored once or not at all (ingest is one transaction; a re-send of a stored document is a no-op)."""
    expected = f"Bearer {token}".encode() if token else None

    async def handle_ingest(request: web.Request) -> web.StreamResponse:
        # aiohttp keeps a header's undecodable bytes as surrogates: encode them back, never fail on them.
        given = request.headers.get("Authorization", "").encode("utf-8", "surrogateescape")
        if expected is None or not hmac.compare_digest(given, expected):
            return _problem(
                401, "a valid bearer token is required", hint="Authorization: Bearer <SMITH_INGEST_TOKEN>"
            )
        if (request.content_length or 0) > MAX_DOCUMENT_BYTES:
            return _problem(413, "document over the 2 MiB limit")
        try:
            body = await request.read()
        except web.HTTPRequestEntityTooLarge:
            return _problem(413, "document over the 2 MiB limit")
        except RequestPayloadError as exc:
            # The body could not be decoded as sent (a Content-Encoding that does not match it).
            detail = " ".join(str(exc.__cause__ or exc).split())
            return _problem(400, "the request body could not be read", detail=detail)
        try:
            conversation = parse_conversation(body)
        except ContractViolation as violation:
            status = 413 if isinstance(violation, DocumentTooLarge) else 422
            return _problem(status, "the document breaks the contract", errors=violation.as_json())
        # For the request's log line (smith/web/observe.py), when the handler is observed.
        note = request.get(INGEST_NOTE) or IngestNote()
        note.conversation_id, note.property = conversation.conversation_id, conversation.property.id
        try:
            result = await asyncio.wait_for(
                asyncio.to_thread(ingestor.ingest, conversation), deadline_seconds
            )
        except PropertyChanged as refused:
            return _problem(
                422,
                "the document breaks the contract",
                errors=[{"path": "property.id", "message": str(refused)}],
                conversation_id=refused.conversation_id,
                stored_property_id=refused.stored,
                sent_property_id=refused.sent,
            )
        except TimeoutError:
            # The worker thread may still finish once the database answers; the retry then finds the
            # document stored and changes nothing.
            log.error(
                "ingest of %s took longer than %.0f s: the database is not answering",
                conversation.conversation_id,
                deadline_seconds,
            )
            return web.json_response(
                {"error": "storage not answering; retry later"}, status=503, headers={"Retry-After": "30"}
            )
        except SQLAlchemyError as exc:
            # The type only: the message may quote the document's values (names, phones, codes).
            log.error(
                "ingest of %s failed on the database: %s", conversation.conversation_id, type(exc).__name__
            )
            if database_unavailable(exc):
                return web.json_response(
                    {"error": "storage unavailable; retry later"}, status=503, headers={"Retry-After": "30"}
                )
            return _problem(500, "the document could not be stored; this is a fault in Smith")
        if result.posts_queued:
            where = "parked until the property has a channel" if result.parked else "queued"
            note.posts = f"{result.posts_queued} post(s) {where}"
        if result.level is not None:
            note.level = result.level.value
            if result.outcome is not PutOutcome.UNCHANGED:
                GRADES.labels(level=result.level.value).inc()
        if judge_owed is not None and result.judge_pending:
            judge_owed()
        return web.json_response(result.summary(), status=202)

    return handle_ingest
