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
    # v3 adds "help" ("help is on the way"); "maintenance", also generic in rubric v3, is a trade
    # subject already and counts in every intent.
    "generic_subject": ["someone", "somebody", "a person", "our team", "help"],
    "determiner": ["a", "an", "the", "our", "your", "one", "another"],
    "arrival_noun": ["access", "arrival", "entry", "door", "gate", "lockbox", "self-tour", "check-in"],
    "arrival_detail": ["instructions", "details", "code", "info", "information"],
    "future_es_visit": [
        "irá", "pasará", "estará", "vendrá", "llegará", "va a ir", "va a pasar", "va a venir",
    ],
    "trade_es": [
        "técnico", "plomero", "electricista", "cerrajero", "fumigador", "equipo de mantenimiento",
    ],
    "machinery_noun": ["system", "software", "tool", "tools", "platform", "app", "portal", "database"],
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
    # --- v3 promises as people phrase them (docs/text-matching.md) ---
    "on_the_way": [
        "on the way", "on their way", "on his way", "on her way", "coming", "coming out", "coming by",
        "coming over", "heading over", "headed over", "heading your way", "headed your way",
    ],
    "present_be": ["is", "are", "'s", "'re"],
    "we_are": ["i'm", "we're", "i am", "we are"],
    "we_have_got": ["i've got", "we've got", "i have got", "we have got", "i've", "we've"],
    "visitor": ["someone", "somebody", "a person", "our team", "help"],
    "direction": [
        "out", "over", "there", "out there", "over there", "your way", "to you", "to your unit",
        "to your home", "to your place", "by", "up there",
    ],
    "causative": ["have", "get"],
    "dispatch": ["send", "dispatch"],
    "repaired": ["fixed", "repaired", "resolved", "working", "back up", "sorted"],
    "by_time": [
        "by", "today", "tonight", "tomorrow", "within", "this afternoon", "this evening",
        "in the morning", "before",
    ],
    "send_es": ["mando", "envío", "mandamos", "enviamos", "mandaré", "enviaré", "mandaremos", "enviaremos"],
    "repaired_es": ["arreglado", "reparado", "funcionando", "arreglada", "reparada"],
    "by_time_es": ["hoy", "mañana", "esta tarde", "esta noche", "antes de"],
    "non_trade": [
        "refund", "credit", "package", "packages", "filter", "order", "part", "parts", "replacement",
        "delivery", "payment", "check", "deposit", "paperwork", "lease", "key", "keys", "fob", "letter",
        "notice", "invoice", "receipt", "statement", "documents", "shipment", "mail", "parcel", "bill",
        "fee", "reminder", "confirmation", "email",
    ],
    # --- v3 failure narration as people phrase it (docs/text-matching.md) ---
    "failure_v3": [
        "glitching", "acting up", "having issues", "having problems", "not letting me",
        "isn't letting me", "not loading", "isn't loading", "giving me an error",
        "throwing an error",
    ],
    "hedge": ["seems to be", "appears to be", "looks to be", "seem to be", "appear to be"],
    "trouble": ["having trouble", "having issues", "having a hard time", "having some trouble"],
    "trouble_verb": [
        "pulling up", "looking up", "accessing", "loading", "booking", "finding", "checking",
        "getting into", "opening",
    ],
    # Rubric v3 also lists look up, pull up, load and retrieve: v2's narration.cant_retrieve_en fires on
    # those with or without a time phrase, so they are left out here (one receipt per narration).
    "access_verb": ["access", "see", "check", "open", "get into"],
    "right_now": ["right now", "at the moment", "currently", "on my end", "on our end"],
    "machinery_noun_es_v3": ["sistema", "programa", "plataforma", "portal", "herramienta"],
    "failure_es_v3": [
        # "está caído" is v2's narration.failure_es (está as filler, then caído).
        "está fallando", "no está funcionando", "no me deja", "tiene problemas",
        "está dando error", "anda fallando",
    ],
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
    # v3 (docs/text-matching.md, failure narration as people phrase it): each alternative its own id.
    {
        "id": "narration.modified_failure_en",
        "language": "en",
        "pattern": "(our | my | the) [1-2] {machinery_noun} [0-4 {failure_filler}] "
        "({failure} | {failure_v3})",
    },
    {
        "id": "narration.new_failure_en",
        "language": "en",
        "pattern": "(our | my | the) {machinery_noun} [0-4 {failure_filler}] {failure_v3}",
    },
    {
        "id": "narration.seems_failure_en",
        "language": "en",
        "pattern": "(our | my | the) [0-2] {machinery_noun} (seems | appears | looks) to be "
        "[0-2 {failure_filler}] ({failure} | {failure_v3})",
    },
    {
        "id": "narration.having_trouble_en",
        "language": "en",
        "pattern": "{we_are} {trouble} {trouble_verb}",
    },
    {
        "id": "narration.unable_right_now_en",
        "language": "en",
        "pattern": "(i | we) {unable} {access_verb} [0-5] {right_now}",
    },
    {
        "id": "narration.technical_difficulties_en",
        "language": "en",
        "pattern": "(we're | we are) (currently | still)? experiencing "
        "(technical difficulties | technical issues | an outage | some issues | some technical issues)",
    },
    {
        "id": "narration.got_error_en",
        "language": "en",
        "pattern": "(i | we) (got | hit | ran into | received | get | keep getting) an error",
    },
    {
        "id": "narration.failure_v3_es",
        "language": "es",
        "pattern": "(nuestro | mi | el) {machinery_noun_es_v3} [0-2 {failure_filler_es}] {failure_es_v3}",
    },
    {
        "id": "narration.having_trouble_es",
        "language": "es",
        "pattern": "(tengo | tenemos) problemas (para | con) (consultar | cargar | acceder | agendar)",
    },
    {
        "id": "narration.system_error_es",
        "language": "es",
        "pattern": "(hubo | tuve) un error (en | con) el sistema",
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
            # v3 (docs/text-matching.md, promises as people phrase them): each alternative its own id. A trade
            # subject counts in every intent, a generic one ("someone", "help") in maintenance only.
            {
                "id": "visit.trade_on_the_way_en",
                "language": "en",
                "pattern": "{trade} [0-4] {present_be} {on_the_way}",
            },
            {
                "id": "visit.generic_on_the_way_en",
                "language": "en",
                "maintenance_only": True,
                "pattern": "{generic_subject} {present_be} {on_the_way}",
            },
            {
                "id": "visit.sending_trade_en",
                "language": "en",
                "pattern": "{we_are} (sending | dispatching) (out | over)? {determiner}? {trade}",
            },
            {
                "id": "visit.sending_someone_en",
                "language": "en",
                "maintenance_only": True,
                "pattern": "{we_are} (sending | dispatching) (out | over)? {visitor}",
            },
            {
                "id": "visit.got_coming_trade_en",
                "language": "en",
                "pattern": "{we_have_got} {determiner}? {trade} {on_the_way}",
            },
            {
                "id": "visit.got_coming_someone_en",
                "language": "en",
                "maintenance_only": True,
                "pattern": "{we_have_got} {visitor} {on_the_way}",
            },
            {
                "id": "visit.causative_trade_en",
                "language": "en",
                "pattern": "(i | we) {future} {causative} {determiner}? {trade} {direction}",
            },
            {
                "id": "visit.causative_someone_en",
                "language": "en",
                "maintenance_only": True,
                "pattern": "(i | we) {future} {causative} {visitor} {direction}",
            },
            {
                "id": "visit.let_me_get_trade_en",
                "language": "en",
                "pattern": "let me {causative} {determiner}? {trade} ({direction} | {visit})",
            },
            {
                "id": "visit.let_me_get_someone_en",
                "language": "en",
                "maintenance_only": True,
                "pattern": "let me {causative} {visitor} ({direction} | {visit})",
            },
            {
                "id": "visit.let_me_send_trade_en",
                "language": "en",
                "pattern": "let me {dispatch} {determiner}? {trade}",
            },
            {
                "id": "visit.send_someone_en",
                "language": "en",
                "maintenance_only": True,
                "pattern": "(i | we) {future} {dispatch} {visitor}",
            },
            {
                "id": "visit.let_me_send_someone_en",
                "language": "en",
                "maintenance_only": True,
                "pattern": "let me {dispatch} {visitor}",
            },
            {
                "id": "visit.trade_on_the_way_es",
                "language": "es",
                "pattern": "(un | el | nuestro) {trade_es} [0-4] (va | van) (en camino | para allá)",
            },
            {
                "id": "visit.on_the_way_trade_es",
                "language": "es",
                "pattern": "(va | van) (un | el | nuestro) {trade_es} (en camino | para allá)",
            },
            {
                "id": "visit.someone_on_the_way_es",
                "language": "es",
                "maintenance_only": True,
                "pattern": "(alguien va | alguien ya va | va alguien) (en camino | para allá)",
            },
            {
                "id": "visit.send_trade_es",
                "language": "es",
                "pattern": "(le | te) {send_es} (a un | un | al) {trade_es}",
            },
            {
                "id": "visit.send_someone_es",
                "language": "es",
                "maintenance_only": True,
                "pattern": "(le | te) {send_es} a alguien",
            },
        ],
    },
    {
        # v3: a repair by a time is a visit promise in other words ("we'll have it fixed by tonight").
        "id": "repair_by",
        "requires_tool": "dispatch_vendor",
        "patterns": [
            {
                "id": "repair_by.have_en",
                "language": "en",
                "maintenance_only": True,
                "pattern": "(i | we) {future} {causative} [0-3] {repaired} {by_time}",
            },
            {
                "id": "repair_by.be_en",
                "language": "en",
                "maintenance_only": True,
                "pattern": "(i | we | it | that | this) {future} be? {repaired} {by_time}",
            },
            {
                "id": "repair_by.es",
                "language": "es",
                "maintenance_only": True,
                "pattern": "(lo | la) (tendremos | tendré | dejaremos) {repaired_es} {by_time_es}",
            },
        ],
    },
]  # fmt: skip

# What takes a narration or promise match back, by where it stands (cerebrus.text.exclusions).
EXCLUSIONS: list[dict[str, Any]] = [
    # A failure clause governed by "if" instructs the reader; it narrates nothing. Narration only: "If
    # it still won't budge, someone will be out by eight thirty" is still a promise.
    {"id": "exclude.if_clause_en", "applies_to": "narration", "position": "before", "language": "en",
     "pattern": "(if | unless | whenever | in case)"},
    {"id": "exclude.if_clause_es", "applies_to": "narration", "position": "before", "language": "es",
     "pattern": "(si | en caso de que | cuando)"},
    # The reader's own device or account: "the app isn't working for you".
    {"id": "exclude.reader_side_en", "applies_to": "narration", "position": "right_after", "language": "en",
     "pattern": "(for you | on your end | on your side | on your phone | on your device | on your computer "
     "| for your account | with your login)"},
    {"id": "exclude.reader_side_es", "applies_to": "narration", "position": "right_after", "language": "es",
     "pattern": "(para usted | para ti | en su celular | en tu celular | en su teléfono | en tu teléfono)"},
    # A past outage announced as fixed: "the portal was down last night but it's back up now".
    {"id": "exclude.fixed_since_en", "applies_to": "narration", "position": "after", "language": "en",
     "pattern": "(it's | it is | everything's | everything is | they're | it has been | that's | that is) "
     "(now | all)? (back up | back online | fixed | working again | up and running | restored | resolved "
     "| back to normal)"},
    {"id": "exclude.fixed_since_es", "applies_to": "narration", "position": "after", "language": "es",
     "pattern": "(ya funciona | ya está funcionando | ya quedó | ya se arregló | ya está arreglado)"},
    # "I can't see you right now" is about a person, not a record.
    {"id": "exclude.see_person_en", "applies_to": "narration", "position": "overlap", "language": "en",
     "pattern": "(see | meet | reach | hear) (you | him | her | them)"},
    # A building's own system (heating, alarm...) is no machinery of Clara's.
    {"id": "exclude.building_system_en", "applies_to": "narration", "position": "overlap", "language": "en",
     "pattern": "(heating | cooling | hvac | ac | alarm | fire | sprinkler | water | security | intercom | "
     "gate | elevator | plumbing | electrical | irrigation | septic | sound | phone | entry | laundry | "
     "thermostat | filtration | ventilation | drainage) (system | software | app | tool | platform | panel)"},
    # An offer or a condition put to the reader promises nothing yet.
    {"id": "exclude.offer_en", "applies_to": "promises", "position": "sentence", "language": "en",
     "pattern": "(would you like | do you want | if you'd like | if you would like | if you want | "
     "if you prefer | if you'd prefer | once you confirm | when you confirm | after you confirm | "
     "shall i | should i | want me to | if that works | if that's ok | just let me know if)"},
    {"id": "exclude.offer_es", "applies_to": "promises", "position": "sentence", "language": "es",
     "pattern": "(si gusta | si quiere | si quieres | si gustas | si lo desea | quiere que | quieres que | "
     "cuando confirme | una vez que confirme | le parece si)"},
    # A non-trade subject on the way is a package, not a visit: "your replacement filter is on the way".
    {"id": "exclude.non_trade_on_the_way_en", "applies_to": "promises", "position": "overlap",
     "language": "en", "pattern": "{non_trade} {present_be} {on_the_way}"},
]  # fmt: skip

# A sentence that does not end in `.` or `!` asks something when it begins with one of these.
INTERROGATIVES: list[dict[str, Any]] = [
    {"id": "ask.question_word_en", "language": "en", "pattern": "{question_word}"},
    {"id": "ask.auxiliary_en", "language": "en", "pattern": "{auxiliary} {subject_word}"},
    {"id": "ask.question_word_es", "language": "es", "pattern": "{question_word_es}"},
]

MAINTENANCE_INTENTS: list[str] = ["maintenance_request"]
