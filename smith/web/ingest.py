"""`POST /v1/conversations`: the production platform hands Smith a settled conversation.

Bearer token required; 202 with the grade summary; 422 with the validation errors; 413 over the size
limit; 503 when the database is unreachable (the platform retries; nothing is half-written because
ingest is one transaction). Re-sending the same document is a no-op.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from sqlalchemy.exc import SQLAlchemyError

from gradecore.contract import MAX_DOCUMENT_BYTES, ContractViolation, parse_conversation
from smith.ingest import Ingestor

log = logging.getLogger(__name__)


def _problem(status: int, message: str, **extra: object) -> web.Response:
    return web.json_response({"error": message, **extra}, status=status)


def make_ingest_handler(
    ingestor: Ingestor, token: str | None, judge_owed: Callable[[], None] | None = None
) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """`judge_owed` is told when an ingest left a judgement owed (it wakes the judge worker): the
    request never waits for the judge lane."""
    expected = f"Bearer {token}".encode() if token else None

    async def handle_ingest(request: web.Request) -> web.StreamResponse:
        given = request.headers.get("Authorization", "").encode()
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
        try:
            conversation = parse_conversation(body)
        except ContractViolation as violation:
            status = 413 if "2 MiB" in str(violation) else 422
            return _problem(status, "the document breaks the contract", errors=violation.as_json())
        try:
            result = await asyncio.to_thread(ingestor.ingest, conversation)
        except SQLAlchemyError as exc:
            log.error(
                "ingest of %s failed on the database: %s", conversation.conversation_id, type(exc).__name__
            )
            return web.json_response(
                {"error": "storage unavailable; retry later"}, status=503, headers={"Retry-After": "30"}
            )
        if judge_owed is not None and result.judge_pending:
            judge_owed()
        return web.json_response(result.summary(), status=202)

    return handle_ingest
