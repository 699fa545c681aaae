"""Bolt listeners: thin. Each translates Bolt's arguments, calls one function in `smith`, and acks.

Events are recorded in the inbox by a listener middleware before the ack and processed after it;
listeners never call `chat.*` (posting goes through the outbox).
"""

from __future__ import annotations

from slack_bolt.async_app import AsyncApp

from blocks import CORRECT_GRADE_ACTION_ID
from blocks.correction import CALLBACK_ID
from handlers.actions import handle_correct_grade
from handlers.commands import handle_smith_command
from handlers.events import handle_event, record_in_inbox
from handlers.home import handle_app_home_opened
from handlers.services import ListenerServices
from handlers.views import handle_correction_submission

__all__ = ["ListenerServices", "register_listeners"]


def register_listeners(app: AsyncApp, services: ListenerServices) -> None:
    inbox = [record_in_inbox(services)]
    for event_type in ("reaction_added", "reaction_removed", "message"):
        app.event(event_type, middleware=inbox)(handle_event(services))
    app.event("app_home_opened")(handle_app_home_opened(services))
    app.action(CORRECT_GRADE_ACTION_ID)(handle_correct_grade(services))
    app.view(CALLBACK_ID)(handle_correction_submission(services))
    app.command("/smith")(handle_smith_command(services))
