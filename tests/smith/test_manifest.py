"""The app manifest enables the Home tab and subscribes to `app_home_opened`, in both modes."""

from __future__ import annotations

from smith.cli.manifest import build_manifest


def test_the_home_tab_and_its_event_are_in_the_manifest() -> None:
    for socket_mode, url in ((False, "https://smith.example.com"), (True, None)):
        manifest = build_manifest(url=url, socket_mode=socket_mode)
        assert manifest["features"]["app_home"]["home_tab_enabled"] is True
        assert "app_home_opened" in manifest["settings"]["event_subscriptions"]["bot_events"]
