"""The correction modal's submission: validated before the ack (errors show in the modal), then kept."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncAck

from gradecore.store import Store
from gradecore.vocabulary import Level
from handlers.services import ListenerServices
from smith.listening.inbox_writer import InboxUnavailable
from smith.listening.modal import ModalSubmission, UnreadableSubmission

log = logging.getLogger(__name__)


def _machine_level(store: Store, grade_id: str) -> Level | None:
    with store.unit() as unit:
        grade = unit.grades.get(grade_id)
        return None if grade is None else Level(grade.level)


def handle_correction_submission(services: ListenerServices) -> Callable[..., Awaitable[None]]:
    async def handle_correction_view(ack: AsyncAck, body: dict[str, Any]) -> None:
        try:
            submission = ModalSubmission.from_payload(body)
        except UnreadableSubmission as exc:  # acked: Slack would only show the person an error
            log.info("ignored a view submission: %s", exc)
            await ack()
            return
        # Both database steps before the ack share one deadline: a stalled database is an error
        # the person sees in the modal, never a submission that hangs.
        started = time.monotonic()
        try:
            level = await asyncio.wait_for(
                asyncio.to_thread(_machine_level, services.store, submission.machine_grade_id),
                timeout=services.inbox.deadline,
            )
        except TimeoutError:
            raise InboxUnavailable("the database did not answer in time") from None
        errors = ModalSubmission.from_payload(body, machine_level=level).errors()
        if errors:
            await ack(response_action="errors", errors=errors)
            return
        event_id = f"view:{submission.view_id}"
        left = services.inbox.deadline - (time.monotonic() - started)
        new = await services.inbox.record(event_id, "view_submission", body, within=max(left, 0.1))
        await ack()
        if new:
            await services.processor.process(event_id, kind="view_submission", payload=body)

    return handle_correction_view
