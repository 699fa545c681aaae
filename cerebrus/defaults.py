"""The shipped default rule tables; a rules file may override or extend them. The text checks'
phrase patterns and vocabularies are in cerebrus.default_phrases."""

from __future__ import annotations

MANDATED_TOOLS: dict[str, list[str]] = {
    "tour_request": ["get_tour_slots"],
    "maintenance_request": ["create_work_order"],
}

REQUIRED_FACTS: dict[str, list[str]] = {
    "tour_request": ["office_hours"],
    "rent_question": ["amounts"],
}

LANGUAGES: list[str] = ["en", "es"]
