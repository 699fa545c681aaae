"""The correction modal's "Detail for engineers": what the posts leave out (docs/slack-surface.md)."""

from __future__ import annotations

from blocks.correction import CorrectedItem, build_correction_view
from gradecore.persistence.entities import MachineGrade
from gradecore.persistence.grade_rows import turn_machine_grade
from tests.blocks.factories import camellia_double_send


def _detail_text(locale: str | None) -> str:
    grade, conversation = camellia_double_send()
    machine = MachineGrade(**turn_machine_grade(grade, grade.turns[0]))
    item = CorrectedItem(conversation.conversation_id, grade.turns[0].turn_id, "camellia", "C1", "1.2")
    view = build_correction_view(item, machine, [], locale=locale).to_dict()
    texts = [block["text"]["text"] for block in view["blocks"] if block["type"] == "section"]
    assert len(texts) == 1, texts
    return str(texts[0])


def test_the_modal_lists_check_ids_layers_owners_tools_and_the_rubric() -> None:
    text = _detail_text(None)
    assert text.startswith("*Detail for engineers*")
    assert "• tools_succeeded · tools · owner ours · tool get_tour_slots" in text
    assert "• no_internal_narration · output · owner clara" in text
    assert "• rubric rubric-test" in text


def test_the_detail_heading_is_in_the_propertys_language() -> None:
    assert _detail_text("es").startswith("*Detalle para ingenieros*")
