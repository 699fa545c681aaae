from gradecore.contract import parse_conversation
from gradecore.store import PutOutcome, Store
from tests.conftest import load_demo


def test_put_is_idempotent(store: Store) -> None:
    conversation = parse_conversation(load_demo("lampliter-unbacked-promise.json"))
    with store.unit() as unit:
        assert unit.conversations.put(conversation)[0] is PutOutcome.NEW
    with store.unit() as unit:
        assert unit.conversations.put(conversation)[0] is PutOutcome.UNCHANGED
        record = unit.conversations.get(conversation.conversation_id)
        assert record is not None and record.settled_at.tzinfo is not None
