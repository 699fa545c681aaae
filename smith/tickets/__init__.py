"""The engineers' queue: one ticket per root cause of *ours* failures (docs/tickets.md)."""

from __future__ import annotations

from smith.settings import ConfigurationError, Settings
from smith.tickets.tracker import MarkdownTracker, Tracker


class TrackerSettingsError(ConfigurationError):
    """The tracker is configured incompletely; the message names the missing settings, never a value."""


def check_tracker_settings(settings: Settings) -> None:
    """Raise `TrackerSettingsError` when the tracker's settings are incomplete (checked at start-up)."""
    if settings.tracker == "github" and (settings.github_repository is None or settings.github_token is None):
        raise TrackerSettingsError(
            "SMITH_TRACKER=github needs SMITH_GITHUB_REPO (owner/name) and SMITH_GITHUB_TOKEN"
        )


def build_tracker(settings: Settings) -> Tracker | None:
    """The configured tracker; None when tickets are off."""
    check_tracker_settings(settings)
    if settings.tracker == "off":
        return None
    if settings.tracker == "github":
        # Imported here: PyGithub is only loaded by deployments that file issues on GitHub.
        from smith.tickets.github import GitHubTracker

        assert settings.github_repository is not None and settings.github_token is not None
        return GitHubTracker(
            settings.github_repository,
            settings.github_token.get_secret_value(),
            base_url=settings.github_api_url,
        )
    return MarkdownTracker(settings.fixtures_dir)
