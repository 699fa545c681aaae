"""What Smith does about each error Slack documents for the methods it writes with, in one table.

The rows come from the error lists of Slack's method pages for `chat.postMessage`, `chat.update`,
`views.publish` and `conversations.join`, and the errors every Web API method may answer. Each error
gets one handling:

- PERMANENT: retrying cannot help (a bad token, a refused layout, an archived or read-only channel);
  the post is failed at once and ops hear of it, instead of after minutes of retries.
- RETRY_LATER: Slack did not act on the call and a later one can succeed (a migration, a busy
  message); the post is tried again after a back-off.
- RATE_LIMITED: wait for Retry-After.
- JOIN_THEN_RETRY: the bot is not in the channel; join it and send again (if joining is refused,
  an admin must invite the bot).
- LOOK_UP: Slack failed on its side and may have stored the message; look it up before resending
  (a write that is idempotent anyway, an edit or a Home tab, is simply retried).

An error no page lists is taken as RETRY_LATER: the relay's attempt limit bounds it.
"""

from __future__ import annotations

from enum import StrEnum

from slack_sdk.errors import SlackApiError

from smith.transports.base import (
    AmbiguousFailure,
    DeliveryFailure,
    JoinRequired,
    PermanentFailure,
    RateLimited,
    TransientFailure,
)


class Handling(StrEnum):
    PERMANENT = "permanent"
    RETRY_LATER = "retry_later"
    RATE_LIMITED = "rate_limited"
    JOIN_THEN_RETRY = "join_then_retry"
    LOOK_UP = "look_up"


P, R, W, J, L = (
    Handling.PERMANENT,
    Handling.RETRY_LATER,
    Handling.RATE_LIMITED,
    Handling.JOIN_THEN_RETRY,
    Handling.LOOK_UP,
)

# Errors any Web API method may answer (Slack lists them on every method page).
COMMON_ERRORS: dict[str, Handling] = {
    "access_denied": P,
    "accesslimited": P,
    "account_inactive": P,
    "deprecated_endpoint": P,
    "ekm_access_denied": P,
    "enterprise_is_restricted": P,
    "invalid_auth": P,
    "method_deprecated": P,
    "missing_scope": P,
    "not_allowed_token_type": P,
    "not_authed": P,
    "no_permission": P,
    "team_access_not_granted": P,
    "token_expired": P,
    "token_revoked": P,
    "two_factor_setup_required": P,
    # A malformed call is the same call next time.
    "invalid_arg_name": P,
    "invalid_arguments": P,
    "invalid_array_arg": P,
    "invalid_charset": P,
    "invalid_form_data": P,
    "invalid_post_type": P,
    "missing_post_type": P,
    # The workspace is moving into an Enterprise organization: unavailable for a while, then fine.
    "org_login_required": R,
    "team_added_to_org": R,
    "ratelimited": W,
    # "the POST data was either missing or truncated": Slack never read the call.
    "request_timeout": R,
    "service_unavailable": R,
    # "It's possible some aspect of the operation succeeded before the error was raised."
    "fatal_error": L,
    "internal_error": L,
}

# What a message carries: a refusal of any of it is final.
_MESSAGE_CONTENT_ERRORS: dict[str, Handling] = {
    "as_user_not_supported": P,
    "channel_not_found": P,
    "invalid_attachments": P,
    "invalid_blocks": P,
    "invalid_blocks_format": P,
    "invalid_metadata_format": P,
    "invalid_metadata_schema": P,
    "markdown_text_conflict": P,
    "metadata_must_be_sent_from_app": P,
    "metadata_too_large": P,
    "msg_too_long": P,
    "no_text": P,
    "slack_connect_file_link_sharing_blocked": P,
    "too_many_attachments": P,
}

METHOD_ERRORS: dict[str, dict[str, Handling]] = {
    "chat.postMessage": {
        **_MESSAGE_CONTENT_ERRORS,
        "attachment_payload_limit_exceeded": P,
        "cannot_reply_to_message": P,
        "duplicate_channel_not_found": P,
        "duplicate_message_not_found": P,
        "is_archived": P,
        "message_limit_exceeded": R,
        "messages_tab_disabled": P,
        "missing_file_data": P,
        "not_in_channel": J,
        "rate_limited": W,
        "restricted_action": P,
        "restricted_action_non_threadable_channel": P,
        "restricted_action_read_only_channel": P,
        "restricted_action_thread_locked": P,
        "restricted_action_thread_only_channel": P,
        "slack_connect_canvas_sharing_blocked": P,
        "slack_connect_lists_sharing_blocked": P,
        "too_many_contact_cards": P,
    },
    "chat.update": {
        **_MESSAGE_CONTENT_ERRORS,
        "block_mismatch": P,
        "cant_broadcast_message": P,
        "cant_update_message": P,
        "edit_window_closed": P,
        "external_channel_migrating": R,
        "is_inactive": P,
        "message_not_found": P,
        "no_dual_broadcast_content_update": P,
        "streaming_state_conflict": R,
        "team_not_found": P,
        "update_failed": R,
        # An edit is idempotent: sending it again is the look-up.
        "fatal_error": R,
        "internal_error": R,
    },
    # Not one of the four the relay's outcomes hinge on, but the relay sends them too.
    "chat.postEphemeral": {
        **_MESSAGE_CONTENT_ERRORS,
        "is_archived": P,
        "not_in_channel": J,
        "restricted_action": P,
        "user_not_in_channel": P,
    },
    "views.publish": {
        "duplicate_external_id": P,
        # Someone else published in between; the next publish, built afresh, wins.
        "hash_conflict": R,
        "not_enabled": P,
        "view_too_large": P,
        "fatal_error": R,
        "internal_error": R,
    },
    "conversations.join": {
        "channel_is_limited_access": P,
        "channel_not_found": P,
        "is_archived": P,
        # A private channel: only an invitation lets the bot in.
        "method_not_supported_for_channel_type": P,
        "too_many_members": P,
        "fatal_error": R,
        "internal_error": R,
    },
}


def handling(method: str, error: str) -> Handling:
    """The handling of `error` answered by `method` (RETRY_LATER for an error no page lists)."""
    return METHOD_ERRORS.get(method, {}).get(error) or COMMON_ERRORS.get(error) or R


def classify(method: str, exc: SlackApiError) -> DeliveryFailure:
    """The failure the relay acts on for a Slack error answer (or an HTTP error without one)."""
    response = exc.response
    status = int(getattr(response, "status_code", 200) or 200)
    error = str(response.get("error", "") if response is not None else "") or f"http_{status}"
    if status == 429 or handling(method, error) is Handling.RATE_LIMITED:
        headers = getattr(response, "headers", None) or {}
        retry_after = float(headers.get("Retry-After", headers.get("retry-after", 1)))
        return RateLimited(max(retry_after, 1.0))
    if status >= 500:  # an HTML error page from a proxy, or Slack's own 5xx
        write_is_idempotent = method != "chat.postMessage"
        message = f"slack answered {status} {error if not error.startswith('http_') else ''}".strip()
        return TransientFailure(message) if write_is_idempotent else AmbiguousFailure(message)
    kind = handling(method, error)
    if kind is Handling.JOIN_THEN_RETRY:
        return JoinRequired()
    if kind is Handling.PERMANENT:
        return PermanentFailure(error)
    if kind is Handling.LOOK_UP:
        return AmbiguousFailure(f"slack answered {status} {error}")
    return TransientFailure(error)
