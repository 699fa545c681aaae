"""`smith.wiring.build_ingestor`: `smith serve`, `smith ingest` and the demo build their ingestor from
the settings in one place, so each way in grades, posts and owes judgements alike."""

from __future__ import annotations

from cerebrus import Rules
from gradecore.persistence.store import Store
from smith.settings import Settings
from smith.wiring import build_ingestor


def _settings(**values: object) -> Settings:
    return Settings.model_validate({"SMITH_DATABASE_URL": "sqlite://", **values})


def test_the_settings_decide_posting_judging_links_and_thread_length(store: Store) -> None:
    rules = Rules()
    settings = _settings(
        ANTHROPIC_API_KEY="sk-test",
        SMITH_POST_MODE="dry_run",
        SMITH_CONVERSATION_URL_TEMPLATE="https://platform.example/c/{conversation_id}",
        SMITH_MAX_THREAD_REPLIES=4,
    )
    ingestor = build_ingestor(settings, store, rules)
    assert (ingestor.store, ingestor.rules, ingestor.post, ingestor.judge) == (store, rules, True, True)
    assert ingestor.conversation_url_template == "https://platform.example/c/{conversation_id}"
    assert ingestor.max_thread_replies == 4


def test_without_an_api_key_nothing_is_owed_and_posts_off_means_none_queued(store: Store) -> None:
    ingestor = build_ingestor(_settings(ANTHROPIC_API_KEY="", SMITH_POST_MODE="off"), store, Rules())
    assert (ingestor.post, ingestor.judge) == (False, False)
