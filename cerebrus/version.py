"""The engine version: part of every rubric version, bumped whenever a check's behaviour changes."""

from __future__ import annotations

ENGINE_VERSION = "cerebrus-2.0.0"
