"""The shipped default rule tables (SPEC §3.2); a rules file may override or extend them.

Patterns are regular expressions matched against folded text (lower-case, accents stripped,
apostrophes unified), so they are written without accents and in lower case.
"""

from __future__ import annotations

from typing import Any

MANDATED_TOOLS: dict[str, list[str]] = {
    "tour_request": ["get_tour_slots"],
    "maintenance_request": ["create_work_order"],
}

REQUIRED_FACTS: dict[str, list[str]] = {
    "tour_request": ["office_hours"],
    "rent_question": ["amounts"],
}

_WE_WILL = r"(?:we'll|we will|we're going to|we are going to|i'll|i will|i'm going to|i am going to)"
_PEOPLE_EN = (
    r"(?:a technician|the technician|a tech|someone|somebody|maintenance|our maintenance team|"
    r"the maintenance team|a plumber|an electrician|a vendor|our vendor)"
)
_PEOPLE_ES = r"(?:un tecnico|el tecnico|alguien|mantenimiento|un plomero|un electricista|un proveedor)"

PROMISES: list[dict[str, Any]] = [
    {
        "id": "arrival_instructions",
        "patterns": {
            "en": [
                rf"\b{_WE_WILL}\s+(?:text|send|email|e-mail|message)\s+(?:you\s+)?(?:the\s+|your\s+)?"
                r"(?:(?:door|building|gate|tour)\s+)?(?:access|arrival|entry|check-in)\s+"
                r"(?:instructions|details|info(?:rmation)?)",
            ],
            "es": [
                r"\b(?:te|le|les)\s+(?:enviaremos|mandaremos|enviare|mandare|vamos a enviar|vamos a mandar)"
                r"\s+(?:las\s+)?instrucciones\s+de\s+(?:acceso|llegada|entrada)",
            ],
        },
        "requires_fact": "arrival_instructions",
        "prefilter": ["instruc", "detail", "info"],
    },
    {
        "id": "vendor_visit",
        "patterns": {
            "en": [
                rf"\b{_PEOPLE_EN}(?:\s+will|'ll|\s+is going to)\s+"
                r"(?:be\s+there|be\s+by|come|stop\s+by|swing\s+by)",
                r"\bi(?:'ll| will)\s+have\s+(?:someone|a technician|a plumber|maintenance|a vendor)\s+"
                r"(?:come|stop|swing|be|look|take)",
            ],
            "es": [
                rf"\b{_PEOPLE_ES}\s+(?:ira|pasara|estara|vendra|va\s+a\s+(?:ir|pasar|venir|estar))\b",
            ],
        },
        "requires_tool": "dispatch_vendor",
        "prefilter": [
            "tech",
            "tecnic",
            "someone",
            "somebody",
            "maintenance",
            "plumber",
            "electrician",
            "vendor",
            "alguien",
            "mantenimiento",
            "plomero",
            "electricista",
            "proveedor",
        ],
    },
]

INTERNAL_NARRATION: dict[str, list[str]] = {
    "en": [
        "system prompt", "tool", "tools", "tool call", "function call", "API", "database", "secret",
        "error code", "I can't look up", "I cannot look up", "I can't access", "I'm unable to access",
        "our system", "the system", "system error", "backend", "server error", "internal error",
        "stack trace", "null", "LLM", "language model",
    ],
    "es": [
        "sistema", "prompt", "base de datos", "herramienta", "API", "secreto", "código de error",
        "no puedo consultar", "no puedo acceder", "error del sistema", "servidor", "error interno",
    ],
}  # fmt: skip

# Words that open a question; accent-insensitive matching makes Spanish "qué/que" and "cómo/como"
# indistinguishable, so those are left to the ¿/? marks.
INTERROGATIVES: dict[str, list[str]] = {
    "en": [
        "what", "when", "where", "who", "whom", "whose", "why", "how", "which", "can", "could", "would",
        "will", "is", "are", "am", "do", "does", "did", "may", "might", "should", "shall", "any",
    ],
    "es": [
        "dónde", "quién", "quiénes", "cuál", "cuáles", "cuánto", "cuánta", "cuántos", "cuántas", "por qué",
        "puedo", "pueden", "podría", "podrían",
    ],
}  # fmt: skip

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

# --- reply_language_matches: a detected language below this confidence is "language unclear" ---

LANGUAGE_CONFIDENCE = 0.75
"""Monolingual messages of a few words detect at 0.8 or more; mixed en/es ones ("Ok gracias, I'll try
that mañana") land between 0.6 and 0.75, where naming one language would be a guess."""
