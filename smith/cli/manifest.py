"""The Slack app manifest: least-privilege scopes, the events Smith reads, interactivity, `/smith`."""

from __future__ import annotations

from typing import Any

BOT_SCOPES = (
    "chat:write",  # post grades, tallies, notices; ephemeral hints
    "channels:join",  # join a public apartment channel when a property is mapped to it
    "channels:history",  # see thread replies in public channels; look up a post after a timeout
    "groups:history",  # the same in private channels Smith is invited to
    "channels:read",  # check membership for /readyz, and whose channels a person is in (Home, acts)
    "groups:read",
    "reactions:read",  # 👍/👎 on Smith's posts
    "users:read",  # users.info, to map a Slack account to a staff user
    "users:read.email",  # … by e-mail
    "commands",  # /smith
)
BOT_EVENTS = ("reaction_added", "reaction_removed", "message.channels", "message.groups", "app_home_opened")


def build_manifest(*, url: str | None, socket_mode: bool, name: str = "Agent Smith") -> dict[str, Any]:
    events_url = None if socket_mode or url is None else url.rstrip("/") + "/slack/events"
    settings: dict[str, Any] = {
        "event_subscriptions": {"bot_events": list(BOT_EVENTS)},
        "interactivity": {"is_enabled": True},
        "org_deploy_enabled": False,
        "socket_mode_enabled": socket_mode,
        "token_rotation_enabled": False,
    }
    command: dict[str, Any] = {
        "command": "/smith",
        "description": "Smith's grades in this channel: stats, link, help",
        "usage_hint": "stats | link @person email | help",
        # Escaped, a person picked from the @ list arrives as <@U…|name> and an address as <mailto:…>:
        # the account itself, not a display name that can change or be shared.
        "should_escape": True,
    }
    if events_url is not None:
        settings["event_subscriptions"]["request_url"] = events_url
        settings["interactivity"]["request_url"] = events_url
        command["url"] = events_url
    return {
        "display_information": {
            "name": name,
            "description": "Grades Clara's conversations; brings the ones that need a human to this channel.",
        },
        "features": {
            "app_home": {"home_tab_enabled": True, "messages_tab_enabled": False},
            "bot_user": {"display_name": "smith", "always_online": True},
            "slash_commands": [command],
        },
        "oauth_config": {"scopes": {"bot": list(BOT_SCOPES)}},
        "settings": settings,
    }
