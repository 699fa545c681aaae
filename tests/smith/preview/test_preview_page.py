"""`smith preview` without a browser: what it writes for rejected documents and hostile text, and that
it stores nothing in the configured database."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import DEMO_DATA
from tests.gradecore.docs import demo_doc
from tests.smith.cli.in_process import run_in_process
from tests.smith.cli.runner import reading

LAMPLITER = "lampliter-unbacked-promise.json"


def test_a_rejected_document_is_listed_and_the_rest_previewed(workdir: Path) -> None:
    bad = demo_doc()
    bad["channel"] = "fax"
    del bad["settled_at"]
    (workdir / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    result = run_in_process(workdir, "preview", str(workdir / "bad.json"), str(DEMO_DATA / LAMPLITER))
    assert result.code == 0, result.stderr
    assert result.error_lines[0] == f"smith: {workdir / 'bad.json'} (left out): 2 contract errors"
    page = (workdir / "preview.html").read_text(encoding="utf-8")
    assert "2 contract errors<details><summary>show them</summary>" in page
    assert "BLOCK · unbacked promise" in page
    assert result.stdout.startswith("1 conversation(s) graded · 1 flagged · preview written to ")


def test_nothing_valid_is_one_line(workdir: Path) -> None:
    (workdir / "bad.json").write_text(json.dumps({"schema": "smith.conversation/v1"}), encoding="utf-8")
    (workdir / "worse.json").write_text(json.dumps({}), encoding="utf-8")
    result = run_in_process(workdir, "preview", str(workdir / "bad.json"), str(workdir / "worse.json"))
    assert result.code == 1
    assert result.error_lines[-1] == "smith: no document is valid: there is nothing to preview"
    assert not (workdir / "preview.html").exists()


def test_tenant_text_is_escaped_and_nothing_is_stored(workdir: Path) -> None:
    doc = json.loads((DEMO_DATA / LAMPLITER).read_text(encoding="utf-8"))
    for message in doc["messages"]:
        if message["direction"] == "outbound":
            message["text"] = message["text"] + ' <script>alert("x")</script> <img src=x onerror=alert(1)>'
    (workdir / "hostile.json").write_text(json.dumps(doc), encoding="utf-8")
    result = run_in_process(workdir, "preview", str(workdir / "hostile.json"), "--out", "out/page.html")
    assert result.code == 0, result.stderr
    page = (workdir / "out" / "page.html").read_text(encoding="utf-8")
    # Our own scripts only: the page's one script and the JSON kept for copying.
    assert len(re.findall(r"<script>", page)) == 1
    assert "<img src=x" not in page
    assert "onerror=alert(1)&gt;" in page or "onerror=alert(1)" not in page
    with reading(workdir) as unit:
        assert list(unit.properties.list()) == []
        assert unit.conversations.get(doc["conversation_id"]) is None
