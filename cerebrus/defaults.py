"""The shipped default rule tables; a rules file may override or extend them. The text checks'
phrase patterns and vocabularies are in cerebrus.text.default_phrases."""

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

# --- Backed amounts (amounts_match_ledger): money keys in tool results and ledger item labels ---

MONEY_KEY_WORDS: tuple[str, ...] = (
    "amount", "rent", "fee", "price", "cost", "balance", "deposit", "total", "due", "charge", "payment",
    "bill", "credit", "discount", "concession", "premium", "rate", "utility", "water", "sewer", "trash",
    "electric", "gas", "parking",
)  # fmt: skip
"""A number in a tool result is a money value when a key above it contains one of these words."""

AMOUNT_LABELS: dict[str, list[str]] = {
    "studio_rent": ["studio", "estudio"],
    "rent_studio": ["studio", "estudio"],
    "application_fee": ["application fee", "cuota de solicitud"],
    "pet_rent": ["pet rent", "renta de mascota"],
    "security_deposit": ["security deposit", "deposit", "depósito"],
    "deposit": ["security deposit", "deposit", "depósito"],
    "parking": ["parking", "estacionamiento"],
}
"""Labels of the ledger keys that are not derived from their words (rules' `amount_labels` override)."""

BEDROOM_LABELS: list[str] = [
    "{n} bedroom", "{n}-bedroom", "{n} bedrooms", "{en} bedroom", "{en}-bedroom", "{en} bedrooms",
    "{n}br", "{n} bed", "{n} recámara", "{n} recámaras", "{n} habitación", "{n} habitaciones",
    "{es} recámara", "{es} recámaras", "{es} habitación", "{es} habitaciones",
]  # fmt: skip
"""Labels of a bedroom-count rent key (`rent_2br`): {n} the count, {en}/{es} the count in words."""

COUNT_WORDS: dict[str, list[str]] = {
    "en": ["one", "two", "three", "four", "five", "six"],
    "es": ["una", "dos", "tres", "cuatro", "cinco", "seis"],
}

UNLABELLED: tuple[str, ...] = ("rent", "renta")
"""Words that name no particular ledger item, so never a label (`monthly rent`)."""

LABEL_FILLERS: tuple[str, ...] = (
    "a", "an", "the", "one-time", "monthly", "month", "per", "refundable", "non-refundable", "total",
    "for", "in", "de", "la", "el", "por", "mensual", "única",
)  # fmt: skip
"""The only tokens that may stand between an amount and the label right after it ("a $150 one-time
admin fee", "$250 de depósito"); any other word, a comma, a bracket or a line break ends the look."""

# --- reply_language_matches: a detected language below this confidence is "language unclear" ---

LANGUAGE_CONFIDENCE = 0.75
"""Monolingual messages of a few words detect at 0.8 or more; mixed en/es ones ("Ok gracias, I'll try
that mañana") land between 0.6 and 0.75, where naming one language would be a guess."""
