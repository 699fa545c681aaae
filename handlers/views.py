"""The correction modal's submission: validated before the ack (errors show in the modal), then kept."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncAck

from gradecore.store import Store
from gradecore.vocabulary import Level
from handlers.services import ListenerServices
from smith.listening.modal import ModalSubmission


def _machine_level(store: Store, grade_id: str) -> Level | None:
    with store.unit() as unit:
        grade = unit.grades.get(grade_id)
        return None if grade is None else Level(grade.level)


def handle_correction_submission(services: ListenerServices) -> Callable[..., Awaitable[None]]:
    async def handle_correction_view(ack: AsyncAck, body: dict[str, Any]) -> None:
        submission = ModalSubmission.from_payload(body)
        level = await asyncio.to_thread(_machine_level, services.store, submission.machine_grade_id)
        errors = ModalSubmission.from_payload(body, machine_level=level).errors()
        if errors:
            await ack(response_action="errors", errors=errors)
            return
        event_id = f"view:{submission.view_id}"
        new = await services.inbox.record(event_id, "view_submission", body)
        await ack()
        if new:
            await services.processor.process(event_id, kind="view_submission", payload=body)

    return handle_correction_view
