"""The engine version: part of every rubric version, bumped whenever a check's behaviour changes."""

from __future__ import annotations

ENGINE_VERSION = "cerebrus-3.0.0"
