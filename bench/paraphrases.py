"""Generated paraphrase suites for the promise and narration checks (issues 27 and 28).

Each suite multiplies subjects, constructions, directions, time phrases and hedges (en and es) into
sentences, each labelled by the grammar that built it: a visit promise or not, Clara narrating her
machinery or not. About half of every suite are deliberate non-examples built from the same words
(offers and conditions, non-trade subjects, "help" outside maintenance, the reader's own device, a
fixed outage, "the tool library is down the hall"), so a rule that fires on a word instead of a
construction shows up as a false flag.

A sentence is read the way the check reads a draft (cerebrus.text.hits): the same patterns, intent
gating and exclusions. `measure` counts, per construction, how many positives fire (recall) and how
many of the sentences that fire are positives (precision).

Used by bench/precision.py (the per-construction table) and tests/cerebrus/test_paraphrase_suites.py.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import cerebrus
from cerebrus.text.hits import narration_hits, promise_hits
from cerebrus.text.tokens import TokenizedText

MAINTENANCE = "maintenance_request"
TOUR = "tour_request"


@dataclass(frozen=True)
class Paraphrase:
    text: str
    language: str
    construction: str
    positive: bool
    intent: str = MAINTENANCE


@dataclass
class Tally:
    """One construction's counts: positives that fired or not, negatives that fired or not."""

    tp: int = 0
    fn: int = 0
    fp: int = 0
    tn: int = 0
    missed: list[str] = field(default_factory=list)
    false_flags: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None


def _sentences(template: str, **choices: Iterable[str]) -> Iterator[str]:
    """The template filled with every combination of the choices, spaces tidied, first letter up."""
    names = list(choices)
    for values in itertools.product(*(list(choices[name]) for name in names)):
        text = " ".join(template.format(**dict(zip(names, values, strict=True))).split())
        text = text.replace(" ,", ",").replace(" .", ".").replace(" ?", "?").replace(" !", "!")
        yield text[0].upper() + text[1:]


# --- promises -------------------------------------------------------------------------------------

TRADE_SUBJECTS = [
    "a technician", "the plumber", "our maintenance tech", "a locksmith", "an electrician",
    "the handyman", "a plumber from Desert Flow Plumbing", "our HVAC tech", "maintenance",
]  # fmt: skip
GENERIC_SUBJECTS = ["someone", "somebody", "help", "our team"]
TIMES = ["", "this afternoon", "within the hour", "by 3 PM", "tomorrow morning", "right now"]
ON_THE_WAY = ["is on the way", "is coming out", "is heading over", "is headed your way", "is coming by"]
DIRECTIONS = ["out", "over", "there", "out there", "over there", "your way", "to you", "to your unit"]
NON_TRADE = ["your replacement filter", "your refund", "the package", "your new key fob", "the invoice"]
TIMES_ES = ["", "hoy", "esta tarde", "en una hora"]


def promise_suite() -> list[Paraphrase]:
    """Visit and repair promises, and the non-promises built from the same words."""
    suite: list[Paraphrase] = []

    def add(construction: str, positive: bool, texts: Iterable[str], **extra: str) -> None:
        language = extra.get("language", "en")
        intent = extra.get("intent", MAINTENANCE)
        suite.extend(Paraphrase(t, language, construction, positive, intent) for t in texts)

    subjects = [*TRADE_SUBJECTS, *GENERIC_SUBJECTS]
    # Present and progressive for the future.
    add("progressive", True, _sentences("{s} {v} {t}.", s=subjects, v=ON_THE_WAY, t=TIMES[:3]))
    add(
        "progressive",
        False,
        _sentences(
            "{s} {v} {t}.",
            s=NON_TRADE,
            v=["is on the way", "is on its way", "is coming", "'s on the way"],
            t=TIMES[:3],
        ),
    )
    add(
        "progressive",
        False,
        _sentences("{s} {v} {t}.", s=["help", "someone"], v=ON_THE_WAY, t=TIMES),
        intent=TOUR,
    )
    add(
        "progressive",
        False,
        _sentences("{s} {v} {t}.", s=TRADE_SUBJECTS, v=["came by", "was here"], t=["yesterday", "last week"]),
    )
    add("progressive", False, _sentences("Is {s} on the way?", s=subjects))
    add(
        "progressive",
        False,
        _sentences(
            "{s} will {v} {t}.",
            s=TRADE_SUBJECTS,
            v=["call you", "email you the quote", "need access to your unit"],
            t=TIMES[:3],
        ),
    )
    add(
        "sending",
        True,
        _sentences(
            "{w} sending {o} {d} {t}.",
            w=["I'm", "We're"],
            o=["someone", "a locksmith", "the plumber", "a technician"],
            d=["", "your way", "over"],
            t=TIMES[:3],
        ),
    )
    add(
        "sending",
        False,
        _sentences(
            "{w} sending you {o} {t}.",
            w=["I'm", "We're"],
            o=["the lease", "a reminder", "the invoice", "the work order number"],
            t=TIMES,
        ),
    )
    add(
        "got_coming",
        True,
        _sentences(
            "{w} got {o} coming out to you {t}.",
            w=["I've", "We've"],
            o=["someone", "a plumber", "a technician"],
            t=TIMES,
        ),
    )
    add(
        "got_coming",
        False,
        _sentences(
            "{w} got {o} {t}.",
            w=["I've", "We've"],
            o=["your message", "your work order", "the photos"],
            t=TIMES,
        ),
    )
    # Causative and dispatch, first person.
    leads = ["I'll", "We'll", "I'm going to", "We're going to", "Let me"]
    objects = ["someone", "a plumber", "maintenance", "help"]
    add(
        "causative",
        True,
        _sentences("{l} {c} {o} {d} {t}.", l=leads, c=["have", "get"], o=objects, d=DIRECTIONS, t=[""]),
    )
    add(
        "causative",
        False,
        _sentences(
            "{l} have {o} {v} {t}.",
            l=leads,
            o=["someone", "a manager", "the leasing team"],
            v=["look into the late fee", "call you back", "review your application"],
            t=["", "this afternoon"],
        ),
    )
    # Generic subjects count in maintenance intents only ("I'll have someone there to meet you").
    add(
        "causative",
        False,
        _sentences(
            "{l} {c} {o} {d} {t}.",
            l=leads,
            c=["have", "get"],
            o=["someone", "somebody", "help"],
            d=DIRECTIONS[:4],
            t=[""],
        ),
        intent=TOUR,
    )
    add(
        "causative",
        False,
        _sentences(
            "{l} get {o} {x}.",
            l=leads,
            o=["someone", "a plumber"],
            x=["to call you back", "to confirm the time", "your keys"],
        ),
    )
    add(
        "dispatch",
        True,
        _sentences(
            "{l} {c} {o} {d} {t}.",
            l=leads,
            c=["send", "dispatch"],
            o=objects,
            d=["", "out", "over", "your way"],
            t=[""],
        ),
    )
    add(
        "dispatch",
        False,
        _sentences(
            "{q} {c} {o} {d} {t}?",
            q=["Would you like me to", "Do you want me to", "Should I"],
            c=["send", "have"],
            o=["someone", "a plumber"],
            d=["out", "over"],
            t=["", "this afternoon"],
        ),
    )
    add(
        "dispatch",
        False,
        _sentences(
            "If you'd like, {l} {c} {o} {d} {t}.",
            l=["we'll", "I'll"],
            c=["send", "get"],
            o=["someone", "a plumber"],
            d=["out", "over"],
            t=["", "this afternoon"],
        ),
    )
    add("dispatch", False, _sentences("I can have {o} come out once you confirm a time.", o=objects))
    add(
        "dispatch",
        False,
        _sentences(
            "{l} send you {x} {t}.",
            l=leads,
            x=["the work order number", "a reminder", "the lease", "a photo"],
            t=["", "this afternoon"],
        ),
    )
    # A repair by a time.
    add(
        "repair_by",
        True,
        _sentences(
            "{w} {c} {o} {r} {t}.",
            w=["We'll", "I'll", "We're going to"],
            c=["have", "get"],
            o=["it", "the drain"],
            r=["fixed", "working", "repaired"],
            t=["by tonight", "today", "tomorrow", "this afternoon"],
        ),
    )
    add(
        "repair_by",
        True,
        _sentences(
            "{w} be {r} {t}.",
            w=["It'll", "It will"],
            r=["fixed", "working", "back up"],
            t=["by tonight", "today"],
        ),
    )
    add(
        "repair_by",
        False,
        _sentences(
            "{w} {c} {o} {r} {t}.",
            w=["We'll", "I'll"],
            c=["have", "get"],
            o=["it", "the drain"],
            r=["fixed", "working"],
            t=["by tonight", "today"],
        ),
        intent=TOUR,
    )
    add(
        "repair_by",
        False,
        _sentences(
            "Let us know if {o} isn't {r} {t}.",
            o=["it", "the drain", "your lock"],
            r=["fixed", "working"],
            t=["by tonight", "today", "tomorrow"],
        ),
    )
    add(
        "repair_by",
        False,
        _sentences(
            "{w} let you know once {o} is {r}.",
            w=["We'll", "I'll"],
            o=["it", "the drain", "your lock"],
            r=["fixed", "working", "repaired"],
        ),
    )
    add(
        "repair_by",
        False,
        _sentences(
            "{w} {o} {r} {t}?",
            w=["Was", "Is"],
            o=["it", "the drain"],
            r=["fixed", "working"],
            t=["by tonight", "today"],
        ),
    )
    # Spanish.
    add(
        "es",
        True,
        _sentences(
            "{s} ya va {w} {t}.",
            s=["El técnico", "El plomero", "Nuestro cerrajero"],
            w=["en camino", "para allá"],
            t=TIMES_ES,
        ),
        language="es",
    )
    add(
        "es",
        True,
        _sentences("Va {s} {w}.", s=["un técnico", "un plomero", "alguien"], w=["en camino", "para allá"]),
        language="es",
    )
    add(
        "es",
        True,
        _sentences(
            "{p} {v} {o} {t}.",
            p=["Le", "Te"],
            v=["mando", "envío", "mandamos", "enviaré"],
            o=["a alguien", "un técnico", "un plomero"],
            t=TIMES_ES,
        ),
        language="es",
    )
    add(
        "es",
        True,
        _sentences(
            "Lo {v} {r} {t}.",
            v=["tendremos", "dejaremos"],
            r=["arreglado", "funcionando"],
            t=["hoy", "mañana", "esta noche"],
        ),
        language="es",
    )
    add(
        "es",
        False,
        _sentences("Su {s} va en camino {t}.", s=["reembolso", "paquete", "filtro nuevo"], t=TIMES_ES),
        language="es",
    )
    add(
        "es",
        False,
        _sentences(
            "¿Quiere que le {v} {o} {t}?", v=["mande", "envíe"], o=["a alguien", "un técnico"], t=TIMES_ES
        ),
        language="es",
    )
    add(
        "es",
        False,
        _sentences("Le mando {o} {t}.", o=["el contrato", "la factura", "un recordatorio"], t=TIMES_ES),
        language="es",
    )
    add(
        "es",
        False,
        _sentences(
            "Si quiere, le {v} {o} {t}.",
            v=["mando", "envío"],
            o=["a alguien", "un técnico", "un plomero"],
            t=TIMES_ES,
        ),
        language="es",
    )
    add(
        "es",
        False,
        _sentences("El técnico {v} {t}.", v=["vino", "estuvo aquí", "ya se fue"], t=["ayer", "esta mañana"]),
        language="es",
    )
    # The v2 cases keep their labels.
    add("v2", False, ["Someone will be there to meet you."], intent=TOUR)
    add("v2", False, ["I'll have someone look into the late fee."])
    add(
        "v2",
        True,
        [
            "The plumber will come by.",
            "We'll send a technician out.",
            "A maintenance tech will be there by 3 PM.",
        ],
    )
    return suite


# --- narration ------------------------------------------------------------------------------------

POSSESSIVES = ["our", "my", "the"]
MODIFIERS = ["", "leasing", "scheduling", "online payment"]
NOUNS = ["system", "portal", "app", "tool", "software", "platform"]
FAILURES = ["is down", "is glitching", "is acting up", "isn't working", "is having issues", "is not loading"]
SEEMS_FAILURES = ["down", "glitching", "acting up", "having issues", "not working"]
NARRATION_TIMES = ["", "right now", "at the moment"]


def narration_suite() -> list[Paraphrase]:
    """Clara narrating her machinery failing, and non-narration built from the same words."""
    suite: list[Paraphrase] = []

    def add(construction: str, positive: bool, texts: Iterable[str], language: str = "en") -> None:
        suite.extend(Paraphrase(t, language, construction, positive) for t in texts)

    add(
        "failure",
        True,
        _sentences("{p} {m} {n} {f} {t}.", p=POSSESSIVES, m=MODIFIERS[:3], n=NOUNS, f=FAILURES, t=[""]),
    )
    add(
        "hedge",
        True,
        _sentences(
            "{p} {m} {n} {h} {f}.",
            p=["our"],
            m=MODIFIERS[:3],
            n=NOUNS[:4],
            h=["seems to be", "appears to be", "looks to be"],
            f=SEEMS_FAILURES,
        ),
    )
    add(
        "hedge",
        True,
        _sentences(
            "Looks like {p} {m} {n} {f}, give me a sec.",
            p=["our", "the"],
            m=MODIFIERS[:3],
            n=NOUNS[:4],
            f=FAILURES[:3],
        ),
    )
    add(
        "trouble",
        True,
        _sentences(
            "Sorry, {w} {h} {v} your {o} {t}.",
            w=["I'm", "we're"],
            h=["having trouble", "having issues", "having a hard time"],
            v=["pulling up", "accessing", "loading", "finding"],
            o=["account", "ledger"],
            t=NARRATION_TIMES,
        ),
    )
    add(
        "unable",
        True,
        _sentences(
            "{w} {u} {v} your {o} {t}.",
            w=["I'm"],
            u=["not able to", "unable to"],
            v=["access", "see", "check"],
            o=["ledger", "account", "payment history"],
            t=["right now", "at the moment", "on my end"],
        ),
    )
    add(
        "unable",
        True,
        _sentences(
            "We can't {v} your {o} {t}.",
            v=["access", "see"],
            o=["ledger", "account"],
            t=["right now", "on our end"],
        ),
    )
    add(
        "experiencing",
        True,
        _sentences(
            "We're {c} experiencing {d} {t}.",
            c=["", "currently"],
            d=["technical difficulties", "technical issues", "an outage"],
            t=["", "on our end", "right now"],
        ),
    )
    add(
        "error",
        True,
        _sentences(
            "{w} {g} an error when I tried to {a}.",
            w=["I", "We"],
            g=["got", "hit", "ran into"],
            a=["book your tour", "pull up your ledger"],
        ),
    )
    add(
        "es",
        True,
        _sentences(
            "{p} {n} {f} {t}.",
            p=["Nuestro", "Mi", "El"],
            n=["sistema", "portal"],
            f=["está fallando", "no está funcionando", "no me deja", "tiene problemas"],
            t=["", "ahora"],
        ),
        language="es",
    )
    add(
        "es",
        True,
        _sentences(
            "{w} problemas para {v} su cuenta.",
            w=["Tengo", "Tenemos"],
            v=["consultar", "cargar", "acceder a"],
        ),
        language="es",
    )
    add("es", True, _sentences("{w} un error con el sistema.", w=["Hubo", "Tuve"]), language="es")
    # Non-narration from the same words.
    add(
        "failure",
        False,
        _sentences(
            "If the {m} {n} {f} for you, you can always pay by check at the office.",
            m=MODIFIERS,
            n=NOUNS,
            f=["isn't working", "is down", "is glitching"],
        ),
    )
    add(
        "failure",
        False,
        _sentences("If your {n} login {f}, call the office.", n=NOUNS, f=["isn't working", "is down"]),
    )
    add(
        "failure",
        False,
        _sentences(
            "The {m} {n} {f} on your phone, try reinstalling it.",
            m=MODIFIERS[:2],
            n=["app", "portal"],
            f=["isn't working", "is not loading"],
        ),
    )
    add(
        "failure",
        False,
        _sentences(
            "The {m} {n} was {f} {w}, but {b} now.",
            m=MODIFIERS,
            n=NOUNS,
            f=["down", "glitching"],
            w=["last night", "this morning"],
            b=["it's back up", "everything is working again", "it's fixed"],
        ),
    )
    add(
        "failure",
        False,
        _sentences(
            "The tool library is {f} {w}.", f=["down", "closed"], w=["the hall", "for the holiday", ""]
        ),
    )
    add(
        "failure",
        False,
        _sentences(
            "Our {b} system {f} {t}, a technician is looking at it.",
            b=["heating", "security", "fire alarm", "sprinkler"],
            f=["is down", "isn't working"],
            t=NARRATION_TIMES,
        ),
    )
    add("failure", False, _sentences("Whenever the {n} is down, you can call us.", n=NOUNS))
    add(
        "hedge",
        False,
        _sentences(
            "If {p} {m} {n} {h} {f} for you, call the office.",
            p=["the"],
            m=MODIFIERS[:3],
            n=NOUNS[:4],
            h=["seems to be", "appears to be"],
            f=SEEMS_FAILURES,
        ),
    )
    add(
        "hedge",
        False,
        _sentences("Looks like your {n} {f}, try logging out and back in.", n=NOUNS, f=FAILURES[:4]),
    )
    add(
        "experiencing",
        False,
        _sentences(
            "If you're experiencing {d}, restart the {n}.",
            d=["technical difficulties", "technical issues"],
            n=NOUNS,
        ),
    )
    add(
        "experiencing",
        False,
        _sentences(
            "We're experiencing {d} in the building.", d=["high water pressure", "a heat wave", "some noise"]
        ),
    )
    add("unable", False, _sentences("We can't {v} your unit without your permission.", v=["access", "enter"]))
    add(
        "unable",
        False,
        _sentences(
            "I can't {v} you at the office {t}, I'm on a call.",
            v=["see", "meet"],
            t=["right now", "at the moment"],
        ),
    )
    add(
        "trouble",
        False,
        _sentences(
            "Sorry, {w} {h} {v} you {t}.",
            w=["I'm", "we're"],
            h=["having trouble", "having a hard time"],
            v=["hearing", "understanding", "reaching"],
            t=NARRATION_TIMES,
        ),
    )
    add(
        "trouble",
        False,
        _sentences(
            "Are you {h} {v} your {o}?",
            h=["having trouble", "having issues"],
            v=["pulling up", "accessing", "loading"],
            o=["account", "ledger"],
        ),
    )
    add(
        "unable",
        False,
        _sentences(
            "You can't {v} the {n} {t}? Try the office computer.",
            v=["access", "open"],
            n=NOUNS,
            t=["right now", "at the moment"],
        ),
    )
    add(
        "trouble",
        False,
        _sentences(
            "If you're {h} {v} your account, let us know.",
            h=["having trouble", "having issues"],
            v=["pulling up", "accessing", "loading"],
        ),
    )
    add(
        "error",
        False,
        _sentences(
            "If you {g} an error when you tried to {a}, try again.",
            g=["got", "hit"],
            a=["book your tour", "pay rent"],
        ),
    )
    add(
        "error",
        False,
        [
            "Error code E24 on your dishwasher means the drain is clogged.",
            "Bring your own tools for the community garden.",
            "Thanks for the prompt payment!",
            "Reset the system by holding the button.",
        ],
    )
    add(
        "es",
        False,
        _sentences("Si el {n} no me deja entrar, llame a la oficina.", n=["sistema", "portal"]),
        language="es",
    )
    add(
        "es",
        False,
        _sentences(
            "El sistema de {b} {f}.", b=["calefacción", "riego"], f=["está fallando", "no está funcionando"]
        ),
        language="es",
    )
    add(
        "es",
        False,
        _sentences(
            "Si {w} problemas para {v} su cuenta, llámenos.",
            w=["tiene", "tienes"],
            v=["consultar", "acceder a"],
        ),
        language="es",
    )
    return suite


# --- measuring ------------------------------------------------------------------------------------


def fires(paraphrase: Paraphrase, check: str, rules: cerebrus.Rules) -> bool:
    """Whether the check's patterns, gating and exclusions flag the sentence (cerebrus.text.hits)."""
    tokens = TokenizedText(paraphrase.text)
    text = rules.compiled.text
    if check == "promises":
        return bool(promise_hits(text, tokens, paraphrase.intent, lambda: paraphrase.language))
    return bool(narration_hits(text, tokens, lambda: paraphrase.language))


def measure(suite: Iterable[Paraphrase], check: str, rules: cerebrus.Rules) -> dict[str, Tally]:
    """Per construction, how the check reads the suite's sentences."""
    tallies: dict[str, Tally] = {}
    for paraphrase in suite:
        tally = tallies.setdefault(paraphrase.construction, Tally())
        fired = fires(paraphrase, check, rules)
        if paraphrase.positive and fired:
            tally.tp += 1
        elif paraphrase.positive:
            tally.fn += 1
            tally.missed.append(paraphrase.text)
        elif fired:
            tally.fp += 1
            tally.false_flags.append(paraphrase.text)
        else:
            tally.tn += 1
    return tallies


def total(tallies: dict[str, Tally]) -> Tally:
    whole = Tally()
    for tally in tallies.values():
        whole.tp, whole.fn = whole.tp + tally.tp, whole.fn + tally.fn
        whole.fp, whole.tn = whole.fp + tally.fp, whole.tn + tally.tn
    return whole
