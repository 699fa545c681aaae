"""The shipped phrase patterns and slot vocabularies of the text checks; a rules file may add, replace
or disable any of them by id (docs/text-matching.md describes the pattern language).

Every pattern is written to fire on what it means, not on a word: "thanks for the prompt payment",
"reset the system" or "bring your own tools" must never read as Clara narrating her machinery.
"""

from __future__ import annotations

from typing import Any

SLOTS: dict[str, list[str]] = {
    "future": ["will", "'ll", "is going to", "are going to", "am going to", "'re going to", "'m going to"],
    "trade": [
        "technician", "tech", "maintenance", "maintenance team", "maintenance tech", "plumber",
        "electrician", "vendor", "contractor", "handyman", "locksmith", "exterminator", "hvac tech",
    ],
    "visit": [
        "come", "come by", "come out", "stop by", "swing by", "be there", "be out", "be over",
        "head over", "arrive", "visit", "fix", "repair",
    ],
    "generic_subject": ["someone", "somebody", "a person", "our team"],
    "determiner": ["a", "an", "the", "our", "your", "one", "another"],
    "arrival_noun": ["access", "arrival", "entry", "door", "gate", "lockbox", "self-tour", "check-in"],
    "arrival_detail": ["instructions", "details", "code", "info", "information"],
    "future_es_visit": [
        "irá", "pasará", "estará", "vendrá", "llegará", "va a ir", "va a pasar", "va a venir",
    ],
    "trade_es": [
        "técnico", "plomero", "electricista", "cerrajero", "fumigador", "equipo de mantenimiento",
    ],
    "machinery_noun": ["system", "software", "tool", "tools", "platform", "app", "database"],
    "failure": [
        "error", "errored", "down", "failed", "failing", "glitch", "broken", "crashed", "outage",
        "unavailable", "not working", "isn't working", "wasn't working",
    ],
    "failure_filler": [
        "is", "was", "are", "were", "has", "had", "have", "been", "being", "having", "experiencing",
        "currently", "temporarily", "still", "just", "a", "an", "some", "technical",
    ],
    "machinery_noun_es": ["sistema", "programa", "plataforma", "herramienta"],
    "failure_es": ["error", "falló", "fallo", "caído", "no funciona", "problema técnico"],
    "failure_filler_es": [
        "está", "estaba", "tiene", "tuvo", "tenía", "un", "una", "algún", "temporalmente", "ahora",
    ],
    "unable": [
        "can't", "cannot", "couldn't", "am unable to", "was unable to", "'m unable to",
        "am not able to", "'m not able to",
    ],
    "retrieve": ["look up", "retrieve", "pull up", "load"],
    "question_word": [
        "what", "when", "where", "who", "whom", "whose", "why", "how", "which",
        "what's", "where's", "when's", "how's", "who's",
    ],
    "auxiliary": ["can", "could", "would", "will", "is", "are", "do", "does", "did", "should", "may"],
    "subject_word": [
        "i", "you", "we", "they", "he", "she", "it", "someone", "anyone", "there", "the", "my", "your",
        "this", "that", "our",
    ],
    "question_word_es": [
        "qué", "cuándo", "dónde", "cómo", "quién", "cuál", "cuánto", "cuántos", "cuánta", "cuántas",
        "por qué", "a qué hora", "puedo", "puede", "pueden", "hay",
    ],
}  # fmt: skip

# Jargon, not English: internal in a draft of any language.
MACHINERY_TERMS: list[str] = [
    "system prompt", "my instructions", "my prompt", "my tools", "tool call", "function call", "API key",
    "the API", "an API", "LLM", "language model", "backend", "database", "stack trace", "internal error",
    "server error", "missing secret",
    "mis instrucciones", "mis herramientas", "la API", "base de datos", "error interno",
    "error del servidor",
]  # fmt: skip

NARRATION: list[dict[str, Any]] = [
    *(
        {"id": "machinery." + "_".join(term.lower().split()), "pattern": term}
        for term in MACHINERY_TERMS
    ),
    {
        "id": "narration.failure_en",
        "language": "en",
        "pattern": "(our | my | the) {machinery_noun} [0-4 {failure_filler}] {failure}",
    },
    {"id": "narration.cant_retrieve_en", "language": "en", "pattern": "(i | we) {unable} {retrieve}"},
    {
        "id": "narration.failure_es",
        "language": "es",
        "pattern": "(nuestro | mi | el) {machinery_noun_es} [0-4 {failure_filler_es}] {failure_es}",
    },
    {
        "id": "narration.cant_retrieve_es",
        "language": "es",
        "pattern": "no (puedo | pude | podemos) (consultar | buscar | cargar)",
    },
]  # fmt: skip

PROMISES: list[dict[str, Any]] = [
    {
        "id": "arrival_instructions",
        "requires_fact": "arrival_instructions",
        "patterns": [
            {
                "id": "arrival.active_en",
                "language": "en",
                "pattern": "(we | i | someone | the office | our team | the team) {future} "
                "(text | send | email | e-mail | message) you? (the | your | a)? {arrival_noun} "
                "{arrival_detail}",
            },
            {
                "id": "arrival.passive_en",
                "language": "en",
                "pattern": "{arrival_noun} (instructions | details | code | info) "
                "(will be | 'll be | are going to be) (texted | sent | emailed)",
            },
            {
                "id": "arrival.active_es",
                "language": "es",
                "pattern": "(te | le | les) (enviaremos | mandaremos | enviaré | mandaré | vamos a enviar | "
                "vamos a mandar) (las | los | el | tu | su)? (instrucciones | detalles | código) de "
                "(acceso | llegada | entrada)",
            },
            {
                "id": "arrival.passive_es",
                "language": "es",
                "pattern": "las instrucciones de (acceso | llegada | entrada) "
                "(se enviarán | se mandarán | te llegarán)",
            },
        ],
    },
    {
        "id": "vendor_visit",
        "requires_tool": "dispatch_vendor",
        "patterns": [
            # Starts at the trade noun, not a determiner: "the" in every draft would start a match try.
            {"id": "visit.trade_en", "language": "en", "pattern": "{trade} [0-4] {future} {visit}"},
            {
                "id": "visit.send_en",
                "language": "en",
                "pattern": "(we | i) {future} (send | dispatch) {determiner}? {trade}",
            },
            {
                "id": "visit.have_en",
                "language": "en",
                "pattern": "(i'll | we'll) have (someone | {trade} | {determiner} {trade}) {visit}",
            },
            {
                "id": "visit.generic_en",
                "language": "en",
                "maintenance_only": True,
                "pattern": "{generic_subject} {future} {visit}",
            },
            {
                "id": "visit.trade_es",
                "language": "es",
                "pattern": "(un | el | nuestro) {trade_es} [0-4] {future_es_visit}",
            },
            {
                "id": "visit.generic_es",
                "language": "es",
                "maintenance_only": True,
                "pattern": "alguien {future_es_visit}",
            },
            {
                "id": "visit.send_es",
                "language": "es",
                "pattern": "(enviaremos | mandaremos | vamos a enviar) a un {trade_es}",
            },
        ],
    },
]  # fmt: skip

# A sentence that does not end in `.` or `!` asks something when it begins with one of these.
INTERROGATIVES: list[dict[str, Any]] = [
    {"id": "ask.question_word_en", "language": "en", "pattern": "{question_word}"},
    {"id": "ask.auxiliary_en", "language": "en", "pattern": "{auxiliary} {subject_word}"},
    {"id": "ask.question_word_es", "language": "es", "pattern": "{question_word_es}"},
]

MAINTENANCE_INTENTS: list[str] = ["maintenance_request"]
