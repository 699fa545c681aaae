"""docs/posts.md is the gallery of every message Smith shows, generated from the real builders by
tools/post_gallery.py: this test fails when it is stale (run `python -m tools.post_gallery`)."""

from __future__ import annotations

import pytest

from tools import post_gallery

KINDS = (
    "Parent post",
    "Turn reply (in the thread)",
    "Overflow reply (turns past the thread's bound)",
    "Regraded parent",
    "Daily tally",
    "Ephemeral: correction recorded",
    "App Home tab",
    "Correction form (modal)",
    "Sweep summary (triage channel)",
    "Weekly digest (triage channel, excerpt)",
    "Ops notice",
)


def test_the_gallery_is_up_to_date() -> None:
    said: list[str] = []
    assert post_gallery.main(["--check"], write=said.append) == 0, said


def test_the_gallery_shows_every_kind_in_english_and_spanish() -> None:
    gallery = post_gallery.gallery()
    english, rest = gallery.split("## Spanish (es)", 1)
    spanish = rest.split("## Triage and ops channels", 1)[0]
    for kind in KINDS[:8]:
        assert f"### {kind}\n" in english and f"### {kind}\n" in spanish, kind
    for kind in KINDS[8:]:
        assert f"### {kind}\n" in gallery, kind
    assert "Turno 1 · BLOCK" in spanish and "Turn 1 · BLOCK" in english


def test_a_stale_gallery_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    stale = post_gallery.ROOT / "docs" / "posts.md"
    monkeypatch.setattr(post_gallery, "GALLERY", stale.with_name("does-not-exist.md"))
    said: list[str] = []
    assert post_gallery.main(["--check"], write=said.append) == 1
    assert said == ["docs/posts.md is stale: run `python -m tools.post_gallery`"]
