"""The Spanish copy deck: the same texts as `blocks/texts.py`, for properties whose locale is `es`.

Level words (PASS, REPAIR, HOLD, BLOCK) stay as they are: they are the vocabulary people write back
("Debería ser PASS — …"). Check sentences are rewritten here from the failure's evidence; a check this
deck does not know keeps the grader's own sentence.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from blocks import locales
from blocks.locales import SentenceFacts

LOCALE = "es"

_CHANNELS = {"email": "Correo", "sms": "SMS", "voice": "Llamada"}
_PARTIES = {
    "prospect": "un interesado",
    "resident": "un residente",
    "vendor": "un proveedor",
    "staff": "personal",
}
_WRITERS = {
    "prospect": "el interesado",
    "resident": "el residente",
    "vendor": "el proveedor",
    "staff": "el personal",
    "clara": "Clara",
    "system": "un mensaje automático",
}
_NOT_CHECKED_WHY = {
    "data_missing": "faltan datos",
    "judge_lane_off": "evaluación por juez desactivada",
    "judge_error": "juez no disponible",
    "no_receipt": "el juez no dio una cita",
    "too_short_to_tell": "demasiado corto para saberlo",
    "language_unclear": "idioma poco claro",
}
_JUDGED_SCORES = {0: "dañino", 1: "deficiente", 2: "detalle menor", 3: "bien"}
_LAYERS = {
    "context": "contexto",
    "tools": "herramientas",
    "truth": "datos",
    "shape": "forma",
    "handoff": "traspaso",
    "loop": "bucle",
    "output": "respuesta",
    "pacing": "ritmo",
    "tone": "tono",
}
_LEVEL_MEANINGS = {
    "pass": "nada que hacer",
    "repair": "un detalle que corregir",
    "hold": "alguien debería hacer seguimiento",
    "block": "esto nunca debió enviarse",
}
_REASON_TITLES = {
    "access_code_to_prospect": "código de acceso a un interesado",
    "internal_narration": "habla de su funcionamiento interno",
    "unbacked_promise": "promesa sin respaldo",
    "amount_mismatch": "importe que no cuadra",
    "wrong_language": "idioma equivocado",
    "unanswered_question": "pregunta sin responder",
    "escalation_left_open": "escalado sin cerrar",
    "double_send": "respuesta doble",
    "truncated": "respuesta cortada",
    "fact_missing": "falta un dato",
    "fact_not_in_context": "dato que Clara no vio",
    "over_token_budget": "por encima del presupuesto",
    "tool_failed": "falló una herramienta",
    "mandated_tool_skipped": "consulta omitida",
    "loop_stalled": "bucle sin avance",
    "clean": "sin problemas",
    "amount_for_the_wrong_item": "importe de otro concepto",
    "harmful_tone": "tono dañino",
    "poor_tone": "tono deficiente",
    "tone_needs_polish": "tono mejorable",
    "harmful_pacing": "ritmo dañino",
    "poor_pacing": "ritmo deficiente",
    "pacing_needs_polish": "ritmo mejorable",
}
_WHAT_TO_DO = {
    "no_access_code_to_prospect": "revisa el código de acceso — cámbialo si un interesado no debía tenerlo",
    "no_internal_narration": "lee la respuesta; si confundió a la persona, aclárala con palabras sencillas",
    "no_ungrounded_policy_claim": "cumple la promesa, o avisa de que fue un error",
    "amounts_match_ledger": "confirma el importe y corrígelo con la persona si es incorrecto",
    "reply_language_matches": "vuelve a responder en su idioma",
    "followup_exists": "responde a su última pregunta — sigue esperando respuesta",
    "escalation_closed": "haz seguimiento del escalado — ya pasó su plazo",
    "one_message_per_trigger": "dile cuál de las dos respuestas es la válida",
    "not_truncated": "envíale el resto de la respuesta — se cortó",
    "required_facts_present": "añade el dato que falta a la información de la propiedad",
    "mandated_tools_called": "verifica la respuesta — Clara omitió una consulta necesaria",
    "loop_progress": "comprueba que recibió una respuesta",
    "tone": "lee la respuesta y haz seguimiento si cayó mal",
    "pacing": "comprueba que nadie siga esperando respuesta",
}
_CLARAS_DEFAULT_TO_DO = "lee la respuesta y haz seguimiento si hace falta"
_OURS_NOTHING_TO_DO = "nada por tu parte — los ingenieros ya tienen una incidencia abierta"

CORRECT_GRADE_BUTTON = "Corregir esta calificación"
CLARAS_HEADING = "Error de Clara"
OURS_HEADING = "Un problema por nuestra parte (los ingenieros ya están avisados)"
ADVISORY_HEADING = "Orientativo (aún no cuenta en la calificación)"
CONVERSATION_HEADING = "Qué pasó"
OPEN_CONVERSATION = "Abrir la conversación"


# --- levels, checks and what to do ------------------------------------------------------------------


def level_meaning(level: str) -> str:
    return f"{level.upper()} — {_LEVEL_MEANINGS.get(level, level)}"


def reason_title(slug: str) -> str:
    return _REASON_TITLES.get(slug, slug.replace("_", " "))


def headline(level: str, slug: str) -> str:
    return f"{level.upper()} · {reason_title(slug)}"


def layer_name(layer: str) -> str:
    return _LAYERS.get(layer, layer)


def _quoted(facts: SentenceFacts) -> str:
    return ", ".join(dict.fromkeys(facts.quotes))


def check_sentence(slug: str, facts: SentenceFacts) -> str | None:
    """Una frase sencilla por fallo; nunca un nombre de herramienta ni una clave en inglés."""
    known = _and([fact_name(key) for key in dict.fromkeys(facts.fact_keys)]) if facts.fact_keys else ""
    if slug == "wrong_language" and facts.languages is not None:
        asked, replied = (locales.language_name(code, LOCALE) for code in facts.languages)
        return f"Le escribieron en {asked} y Clara respondió en {replied}."
    backed_by = "no se reservó ni se confirmó nada" if facts.tools else "nada de lo registrado la respalda"
    sentences = {
        "access_code_to_prospect": "Clara dio un código de acceso a un interesado.",
        "internal_narration": "Clara habló de su funcionamiento interno en lugar de responder sin más.",
        "unbacked_promise": f"Clara hizo una promesa, pero {backed_by}.",
        "amount_mismatch": (
            f"Clara indicó {_quoted(facts)}, que no coincide con ningún importe registrado."
            if facts.quotes
            else "Clara indicó un importe que no coincide con ninguno registrado."
        ),
        "amount_for_the_wrong_item": (
            f"Clara indicó {_quoted(facts)}, pero ese es el importe de otro concepto."
            if facts.quotes
            else "Clara indicó el importe de otro concepto."
        ),
        "unanswered_question": "Su última pregunta quedó sin respuesta.",
        "escalation_left_open": "Un traspaso al personal sigue abierto pasado su plazo.",
        "double_send": "Recibió dos respuestas distintas al mismo mensaje.",
        "truncated": "La respuesta de Clara se cortó antes del final.",
        "fact_missing": (
            f"La información de la propiedad no incluye {known}."
            if known
            else "Falta un dato en la información de la propiedad."
        ),
        "fact_not_in_context": "Un dato registrado nunca le llegó a Clara, así que no pudo usarlo.",
        "over_token_budget": "Responder esto costó mucho más trabajo del debido.",
        "tool_failed": "Falló uno de los sistemas de los que depende Clara mientras respondía.",
        "mandated_tool_skipped": "Clara respondió sin consultar antes lo que necesitaba.",
        "loop_stalled": "Clara dio vueltas sin llegar a ninguna parte.",
    }
    return sentences.get(slug)


def what_to_do(check: str, owner: str, *, ticketed: bool = False) -> str:
    ours = _OURS_NOTHING_TO_DO if ticketed else OURS_NO_TICKET_YET  # issue 20: only a true promise
    fallback = ours if owner == "ours" else _CLARAS_DEFAULT_TO_DO
    action = _WHAT_TO_DO.get(check, fallback)
    return f"Qué hacer: {action}"


# --- parent post -----------------------------------------------------------------------------------


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" y {names[-1]}"


def turns_flagged(flagged: int, total: int, shown: int | None = None) -> str:
    if flagged == 0:
        return "Ningún turno concreto señalado — el problema es la conversación en conjunto"
    # «1 de 1 turno señalado», «2 de 6 turnos señalados»: el sustantivo concuerda con el total.
    head = f"{flagged} de " + locales.plural(
        total, {"one": "{n} turno señalado", "other": "{n} turnos señalados"}, LOCALE
    )
    if shown is None or shown >= flagged:
        where = "se explica en este hilo" if flagged == 1 else "cada uno se explica en este hilo"
        return f"{head} — {where}"
    first = locales.plural(
        shown, {"one": "el primero se explica", "other": "los {n} primeros se explican"}, LOCALE
    )
    return f"{head} — {first} en este hilo; el resto aparece en su último mensaje"


def ownership_split(clara_layers: Sequence[str], our_layers: Sequence[str]) -> str:
    parts = []
    if clara_layers:
        parts.append(CLARAS_HEADING)
    if our_layers:
        parts.append(OURS_HEADING if not parts else OURS_HEADING[0].lower() + OURS_HEADING[1:])
    return " y ".join(parts)


_SCOPE_FORMS = (
    ("pending", {"one": "en breve se valorará {names}", "other": "en breve se valorarán {names}"}),
    ("judged", {"one": "esta vez no se valoró {names}", "other": "esta vez no se valoraron {names}"}),
    ("other", {"one": "no se comprobó {names}", "other": "no se comprobaron {names}"}),
)


def scope_statement(checks_run: int, not_checked: Sequence[tuple[str, str]]) -> str:
    line = locales.plural(
        checks_run, {"one": "Se hizo {n} comprobación", "other": "Se hicieron {n} comprobaciones"}, LOCALE
    )
    # «no se valoró el tono», «no se valoraron el tono y el ritmo»: el verbo concuerda con el sujeto.
    for kind, forms in _SCOPE_FORMS:
        names = _subjects(not_checked, kind)
        if names:
            line += " · " + locales.plural(len(names), forms, LOCALE, names=_and(names))
    return line


def _subjects(not_checked: Sequence[tuple[str, str]], kind: str) -> list[str]:
    names = [
        _CHECK_NAMES.get(check, "otras comprobaciones")
        for check, why in not_checked
        if why != "not_applicable" and locales.not_checked_kind(why) == kind
    ]
    return list(dict.fromkeys(names))


def how_to_respond() -> str:
    return '👍 la calificación es correcta · 👎 es incorrecta — responde "Debería ser PASS — por qué"'


def conversation_fallback(headline: str, where: str, flagged_line: str) -> str:
    return f"{headline} — {where}. {flagged_line}."


# --- thread reply ----------------------------------------------------------------------------------


def turn_headline(number: int, headline: str) -> str:
    return f"Turno {number} · {headline}"


def draft_label(excerpted: bool) -> str:
    return "Lo que escribió Clara (extracto):" if excerpted else "Lo que escribió Clara:"


def no_draft() -> str:
    return "El mensaje que envió Clara no está en el registro de esta conversación."


def empty_draft() -> str:
    return "Clara envió un mensaje vacío."


def more_marks(count: int) -> str:
    noun = "pasaje marcado" if count == 1 else "pasajes marcados"
    return f"…y {count} {noun} más adelante (el borrador completo está en la conversación)"


def more_turns_heading(count: int) -> str:
    return locales.plural(
        count,
        {
            "one": "{n} turno señalado más, listado aquí para no saturar el canal",
            "other": "{n} turnos señalados más, listados aquí para no saturar el canal",
        },
        LOCALE,
    )


def more_turns_how_to_see(has_link: bool) -> str:
    if has_link:
        return "Abre la conversación (enlace arriba) para leer cada uno; la calificación es la misma."
    return "Para leer uno, abre esta conversación donde sueles leer los mensajes de Clara."


def more_turns_fallback(count: int) -> str:
    return locales.plural(
        count,
        {
            "one": "{n} turno señalado más en esta conversación",
            "other": "{n} turnos señalados más en esta conversación",
        },
        LOCALE,
    )


def judged_score(score: int | None) -> str:
    return _JUDGED_SCORES.get(score, "sin puntuación") if score is not None else "sin puntuación"


def and_more(count: int) -> str:
    return f"…y {count} más"


# --- receipts --------------------------------------------------------------------------------------


def receipt_quote(quote: str) -> str:
    return f"«{quote}»"


def receipt_message(role: str, text: str) -> str:
    return f"{_WRITERS.get(role, 'alguien')} escribió: «{text}»"


def receipt_fact(fact_key: str) -> str:
    return f"contrastado con {fact_name(fact_key)} de la propiedad"


# --- daily tally -----------------------------------------------------------------------------------


def short_date(day: date) -> str:
    """`lun 30 nov`."""
    return locales.short_date(day, LOCALE)


def tally_line(property_name: str, day: date, graded: int, passed: int, flagged: int, reacted: int) -> str:
    prefix = f"{property_name} · {short_date(day)}: "
    if graded == 0:
        return prefix + "0 calificadas — no llegó ninguna conversación"
    # «1 calificada · 1 correcta», «2 calificadas · 2 correctas»: concordancia por las reglas de CLDR.
    line = prefix + " · ".join(
        [
            locales.plural(graded, {"one": "{n} calificada", "other": "{n} calificadas"}, LOCALE),
            locales.plural(passed, {"one": "{n} correcta", "other": "{n} correctas"}, LOCALE),
            f"{flagged} por debajo",
        ]
    )
    if flagged:
        line += f" · {reacted} de {flagged} con reacción"
    return line


def no_reactions_warning() -> str:
    return "⚠️ ninguna reacción en 7 días — ¿alguien está leyendo este canal?"


# --- listening: answers to people in Slack ---------------------------------------------------------


def note_hint() -> tuple[str, str]:
    return (
        "Gracias — guardado como nota",
        'Para convertirlo en un caso de prueba, indica el nivel esperado y por qué, p. ej. "Debería ser '
        'PASS — la sección de llegada existe". Añade #etiquetas del principio en que se basa.',
    )


def not_linked() -> tuple[str, str]:
    return (
        "Tu cuenta de Slack aún no está vinculada a Smith",
        "Tu reacción o respuesta está guardada y contará en cuanto un administrador vincule tu cuenta "
        "(`/smith link @tú tu-correo`).",
    )


def confirmation(level: str | None, reason: str | None, tags: Sequence[str]) -> tuple[str, str]:
    said = f"Debería ser {level_meaning(level)}" if level else "una nota"
    lines = [f"Registrado: {said}."]
    if reason:
        lines.append(f"Por qué: {reason}")
    if tags:
        lines.append("Principios: " + ", ".join(f"#{tag}" for tag in tags))
    return "Gracias — tu corrección cuenta", "\n".join(lines)


# --- who reviewed a post -------------------------------------------------------------------------


_NAMES_SHOWN = 8  # per kind of act: a popular post's line stays one line


def _some(names: Sequence[str]) -> str:
    if len(names) <= _NAMES_SHOWN:
        return ", ".join(names)
    return ", ".join(names[:_NAMES_SHOWN]) + " y " + f"{len(names) - _NAMES_SHOWN} más"


def reviewed_line(
    ups: Sequence[str], downs: Sequence[str], corrections: Sequence[tuple[str, str]], notes: Sequence[str]
) -> str:
    parts = []
    if ups:
        parts.append("👍 " + _some(ups))
    if downs:
        parts.append("👎 " + _some(downs))
    parts += [f"corrección de {name} → {level.upper()}" for name, level in corrections[:_NAMES_SHOWN]]
    if len(corrections) > _NAMES_SHOWN:
        parts.append(f"{len(corrections) - _NAMES_SHOWN} correcciones más")
    if notes:
        parts.append("nota de " + _some(notes))
    return "Revisado: " + " · ".join(parts) if parts else "Sin revisar todavía"


# --- the App Home tab ------------------------------------------------------------------------------

HOME_TITLE = "Smith — lo que te espera"
HOME_NOTHING_WAITING = "Nada espera revisión. 🎉"
HOME_UNLINKED_HEADING = "Cuentas de Slack sin vincular, con actos pendientes (administradores)"


def home_waiting_heading(total: int) -> str:
    return locales.plural(
        total,
        {
            "one": "{n} publicación espera revisión (las más recientes primero)",
            "other": "{n} publicaciones esperan revisión (las más recientes primero)",
        },
        LOCALE,
    )


def home_waiting_line(headline: str, property_name: str, day: date) -> str:
    return f"{headline} — {property_name} · {short_date(day)}"


def home_my_week(acts: int, judged: int, agreeing: int) -> str:
    if acts == 0:
        return "Esta semana no has revisado nada."
    noun = "publicación" if acts == 1 else "publicaciones"
    line = f"Esta semana revisaste {acts} {noun}"
    if judged:
        line += f" · coincidiste con Smith en {agreeing} de {judged} ({agreeing / judged:.0%})"
    return line + "."


def home_unlinked_line(pending: int) -> str:
    noun = "acto pendiente" if pending == 1 else "actos pendientes"
    return f"{pending} {noun} — vincúlala con `/smith link @persona su-correo`"


MODAL_TITLE = "Corregir calificación"
MODAL_SUBMIT = "Guardar"
MODAL_CLOSE = "Cancelar"
MODAL_LEVEL_LABEL = "¿Cuál debería ser la calificación?"
MODAL_LEVEL_PLACEHOLDER = "Elige un nivel"
MODAL_PRINCIPLES_LABEL = "¿En qué principios se basa?"
MODAL_NEW_PRINCIPLE_LABEL = "+ principio nuevo (un nombre corto)"
MODAL_REASON_LABEL = "¿Por qué?"
MODAL_ERROR_LEVEL = "Elige el nivel que esperabas."
MODAL_ERROR_PRINCIPLE = "No estás de acuerdo con Smith: elige un principio arriba o nombra uno nuevo aquí."
MODAL_ERROR_PRINCIPLE_NAME = "Usa letras o números para el nombre del principio."


def modal_machine_said(level: str, headline: str) -> str:
    return f"Smith calificó esto *{level.upper()} · {reason_title(headline)}*."


def modal_level_option(level: str) -> str:
    return level_meaning(level)


# --- issue 23: lo que lee la gente (quién y cuándo, frases sencillas, detalle para ingenieros) -----

_PARTY_ROLES = {"prospect": "interesado", "resident": "residente", "vendor": "proveedor", "staff": "personal"}
_FACT_NAMES = {
    "arrival_instructions": "las instrucciones de llegada",
    "office_hours": "el horario de oficina",
    "access_codes": "los códigos de acceso",
    "amounts": "los importes",
}
_CHECK_NAMES = {
    "tone": "el tono",
    "pacing": "el ritmo",
    "reply_language_matches": "el idioma de la respuesta",
    "required_facts_present": "la información de la propiedad",
    "required_facts_in_context": "lo que se le dijo a Clara",
    "amounts_match_ledger": "los importes",
    "mandated_tools_called": "las consultas",
    "tools_succeeded": "las consultas",
    "followup_exists": "las preguntas sin respuesta",
    "escalation_closed": "los traspasos al personal",
    "no_ungrounded_policy_claim": "las promesas",
    "no_access_code_to_prospect": "los códigos de acceso",
    "no_internal_narration": "si Clara habla de su funcionamiento interno",
    "one_message_per_trigger": "las respuestas dobles",
    "not_truncated": "las respuestas cortadas",
    "loop_progress": "si Clara da vueltas sin avanzar",
    "token_budget": "el coste",
}
DETAIL_HEADING = "Detalle para ingenieros"
REGRADED_HEADER = "PASS · revisada de nuevo"


def fact_name(fact_key: str) -> str:
    """Un dato de la propiedad en palabras, con su artículo: `amounts` → `los importes`."""
    return _FACT_NAMES.get(fact_key, "un dato de la propiedad")


def who_and_when(
    property_name: str, channel: str, party_name: str | None, role: str | None, when: str | None
) -> str:
    """`Lampliter · SMS con Morgan (interesado) · mar 24 nov, 9:02`."""
    medium = _CHANNELS.get(channel, channel.capitalize())
    if party_name and role:
        party = f"{medium} con {party_name} ({_PARTY_ROLES.get(role, role)})"
    elif role:
        party = f"{medium} con {_PARTIES.get(role, role)}"
    else:
        party = medium
    return " · ".join([property_name, party, *([when] if when else [])])


def regraded_pass_lines() -> tuple[str, str]:
    return (
        "Las reglas de Smith cambiaron y esta conversación ya no tiene problemas — nada que hacer.",
        "Las reacciones anteriores siguen unidas a la calificación sobre la que se hicieron.",
    )


# --- issue 20: what a post promises is true (docs/verdicts.md) ---------------------------------------------
# "engineers have a ticket" only once one is filed; until then, what makes one.
OURS_NO_TICKET_YET = "nada por tu parte — un 👍 aquí abre una incidencia para los ingenieros"
TICKET_LINK = "ver la incidencia"


def turn_superseded(number: int) -> str:
    """A turn reply whose conversation was regraded and whose turn now passes (`smith regrade`)."""
    return f"Turno {number} · sustituido — ahora PASS, no hay nada que hacer"
