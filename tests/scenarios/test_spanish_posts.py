"""Issue 13, point 6: a property whose locale is `es` gets its posts in Spanish, through the relay and
the fake Slack; an English property's posts in the same run stay English."""

from __future__ import annotations

from gradecore.persistence.store import Store
from smith.ingest import Ingestor
from tests.fakes.slack_api import FakeSlack
from tests.scenarios.examples import CHANNELS, demo
from tests.smith.outbox.harness import relay_for


async def test_a_spanish_property_gets_spanish_posts(store: Store) -> None:
    camellia = demo("camellia-wrong-language")
    lampliter = demo("lampliter-unbacked-promise")
    with store.unit() as unit:
        for conversation, locale in ((camellia, "es"), (lampliter, "en")):
            prop = conversation.property
            unit.properties.set(
                prop.id, name=prop.name, timezone=prop.timezone, locale=locale, channel_id=CHANNELS[prop.id]
            )
    ingestor = Ingestor(store)
    ingestor.ingest(camellia)
    ingestor.ingest(lampliter)
    async with FakeSlack.running(channels=list(CHANNELS.values()), post_window_s=0) as fake:
        await relay_for(store, fake).drain(within=20)

        (parent,) = fake.top_level(CHANNELS["camellia"])
        (reply,) = [m for m in fake.thread(CHANNELS["camellia"], parent.ts) if m.ts != parent.ts]
        shown = f"{parent.blocks}\n{reply.blocks}"
        # Who and when: the resident's first name and the local time of the flagged turn.
        assert parent.text.startswith(
            "HOLD · idioma equivocado — Camellia · SMS con Lucía (residente) · vie 27 nov, 11:30."
        )
        assert "HOLD — alguien debería hacer seguimiento" in shown
        assert "esta vez no se valoraron el tono y el ritmo" in shown and "juez" not in shown
        assert "Le escribieron en español y Clara respondió en inglés." in shown
        assert "Qué hacer: vuelve a responder en su idioma" in shown
        assert "Corregir esta calificación" in shown
        assert reply.text.startswith("Turno 1 · HOLD · idioma equivocado")
        assert "What to do" not in shown and "Correct this grade" not in shown

        (english,) = fake.top_level(CHANNELS["lampliter"])
        assert english.text.startswith("BLOCK · unbacked promise — Lampliter")
