"""Issue 25, point 2: the preview page opened in a real browser (Debian's headless Chromium driven by
Selenium), checked for what a person sees: every flagged conversation's headline, thread replies under
their parent, no access code anywhere, Spanish properties in Spanish, nothing wider than the window at
1,280 and 390 px, and a copy control that copies the post's Block Kit JSON.

`smith preview` runs as a user would run it (a subprocess). On failure a screenshot is saved under the
test's temporary folder. Without Chromium the test is skipped, except in CI (`CI=true`), where
`.ci/ensure-chromium` installs it and its absence is a failure.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from blocks.copydeck import deck_for
from cerebrus import grade
from gradecore.model.contract import Conversation, parse_conversation
from tests.conftest import DEMO_DATA
from tests.smith.cli.runner import run_smith
from tests.smith.preview.conftest import FAILED

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
CORPUS = Path(__file__).resolve().parents[2] / "corpus"
# Beside the bundled examples: access codes sent to a prospect, two flagged Spanish properties, and a
# clean conversation (nothing posted for it).
CASES = (
    "39-access-code-to-prospect-after-hours.json",
    "37-promise-spanish-tecnico-then-silence.json",
    "34-amount-spanish-move-in-total.json",
    "01-thermostat-system-reset.json",
)
WIDTHS = (1280, 390)


def _browser_missing() -> str | None:
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.exists()]
    return (
        f"{' and '.join(missing)} not installed (apt-get install chromium chromium-driver)"
        if missing
        else None
    )


def _require_browser() -> None:
    """Fails in CI, where `.ci/ensure-chromium` installs the browser; elsewhere skips, saying why."""
    missing = _browser_missing()
    if missing is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{missing}: .ci/ensure-chromium should have installed it")
        pytest.skip(missing)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    _require_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    # Debian's driver, named outright: Selenium never looks for (or downloads) a driver of its own.
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def documents() -> list[Conversation]:
    paths = sorted(DEMO_DATA.glob("*.json")) + [CORPUS / name for name in CASES]
    return [parse_conversation(path.read_bytes()) for path in paths]


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    workdir = tmp_path_factory.mktemp("preview")
    result = run_smith(workdir, "preview", str(DEMO_DATA), *(str(CORPUS / name) for name in CASES))
    assert result.code == 0, result.stderr
    out = workdir / "preview.html"
    assert str(out) in result.stdout
    return out


@pytest.fixture
def opened(browser: Any, page: Path, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Any]:
    """The page at 1,280 px; after a failing test, what the browser showed is kept as failure.png."""
    browser.set_window_size(1280, 1000)
    browser.get(page.as_uri())
    yield browser
    if request.node.stash.get(FAILED, False):
        shot = tmp_path / "failure.png"
        browser.save_screenshot(str(shot))
        print(f"screenshot of the failing page: {shot}")


def _flagged(documents: list[Conversation]) -> list[tuple[Conversation, str]]:
    """Each flagged conversation with the headline its parent post must show, in its own language."""
    found = []
    for conversation in documents:
        result = grade(conversation)
        if result.flagged:
            deck = deck_for(conversation.property.locale)
            found.append(
                (conversation, deck.headline(result.headline.level.value, result.headline.reason.slug))
            )
    return found


def _parents(browser: Any) -> list[Any]:
    from selenium.webdriver.common.by import By

    return browser.find_elements(By.CSS_SELECTOR, "article.parent")


def test_every_flagged_conversation_shows_its_headline(opened: Any, documents: list[Conversation]) -> None:
    from selenium.webdriver.common.by import By

    flagged = _flagged(documents)
    assert len(flagged) < len(documents), "the clean conversation must not be flagged"
    parents = {parent.get_attribute("data-conversation"): parent for parent in _parents(opened)}
    assert set(parents) == {conversation.conversation_id for conversation, _ in flagged}
    for conversation, headline in flagged:
        header = parents[conversation.conversation_id].find_element(By.CSS_SELECTOR, ".block.header")
        assert header.is_displayed()
        assert header.text == headline


def test_thread_replies_sit_under_their_parent(opened: Any) -> None:
    from selenium.webdriver.common.by import By

    replies_seen = 0
    for parent in _parents(opened):
        header = parent.find_element(By.CSS_SELECTOR, ".block.header")
        for reply in parent.find_elements(By.CSS_SELECTOR, ".thread article.reply"):
            replies_seen += 1
            assert reply.is_displayed()
            assert reply.get_attribute("data-conversation") == parent.get_attribute("data-conversation")
            # Below the parent's headline and indented under it, as a Slack thread reads.
            assert reply.rect["y"] > header.rect["y"]
            assert reply.rect["x"] > header.rect["x"]
            assert reply.find_elements(By.CSS_SELECTOR, ".block")[0].text.startswith(("Turn ", "Turno "))
    assert replies_seen >= 5
    assert not opened.find_elements(By.CSS_SELECTOR, "main > article.reply, section.channel > article.reply")


def test_no_access_code_appears_anywhere_in_the_page(opened: Any, documents: list[Conversation]) -> None:
    from selenium.webdriver.common.by import By

    codes = {code for conversation in documents for code in conversation.property.facts.access_codes}
    text = opened.find_element(By.TAG_NAME, "body").text
    assert "••" in text, "a masked code must be on show, or this test checks nothing"
    for code in codes:
        assert code not in text
        assert code not in opened.page_source  # not in the Block Kit JSON kept for copying either


def test_spanish_properties_read_in_spanish(opened: Any, documents: list[Conversation]) -> None:
    from selenium.webdriver.common.by import By

    spanish = [(c, headline) for c, headline in _flagged(documents) if c.property.locale == "es"]
    assert len(spanish) >= 2
    english, castellano = deck_for("en"), deck_for("es")
    for conversation, headline in spanish:
        section = opened.find_element(
            By.CSS_SELECTOR, f'section.channel[data-property="{conversation.property.id}"]'
        )
        assert section.get_attribute("lang") == "es"
        text = section.text
        assert headline in text
        assert castellano.how_to_respond() in text
        assert english.how_to_respond() not in text
        result = grade(conversation)
        assert english.headline(result.headline.level.value, result.headline.reason.slug) not in text


@pytest.mark.parametrize("width", WIDTHS)
def test_nothing_is_wider_than_the_window(opened: Any, width: int) -> None:
    opened.set_window_size(width, 900)
    overflowing = opened.execute_script(
        """
        const limit = document.documentElement.clientWidth;
        const wide = [];
        for (const element of document.body.querySelectorAll("*")) {
          const box = element.getBoundingClientRect();
          if (box.width > 0 && (box.right > limit + 0.5 || box.left < -0.5)) {
            const where = `${Math.round(box.left)}–${Math.round(box.right)}`;
            wide.push(`${element.tagName}.${element.className} ${where}`);
          }
        }
        return {limit, scroll: document.documentElement.scrollWidth, wide: wide.slice(0, 10)};
        """
    )
    assert overflowing["limit"] <= width
    assert overflowing["wide"] == [], overflowing
    assert overflowing["scroll"] <= overflowing["limit"], overflowing


def test_the_copy_control_copies_the_posts_block_kit_json(opened: Any) -> None:
    from selenium.webdriver.common.by import By

    opened.execute_cdp_cmd(
        "Browser.grantPermissions", {"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]}
    )
    parent = _parents(opened)[0]
    button = parent.find_element(By.CSS_SELECTOR, "button.copy")
    assert button.text == "Copy Block Kit JSON"
    button.click()
    assert button.text == "Copied"
    copied = opened.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "navigator.clipboard.readText().then(done, (error) => done(String(error)));"
    )
    blocks = json.loads(copied)["blocks"]
    assert blocks[0]["type"] == "header"
    assert blocks[0]["text"]["text"] == parent.find_element(By.CSS_SELECTOR, ".block.header").text
    assert len(blocks) == len(parent.find_elements(By.CSS_SELECTOR, ":scope > .block"))


def test_without_chromium_ci_fails_and_elsewhere_skips(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The reason is named either way; a CI run never passes by skipping the browser."""
    monkeypatch.setattr(f"{__name__}.CHROMIUM", tmp_path / "no-chromium")
    # Only the browser missing, whatever this machine has installed.
    driver = tmp_path / "chromedriver"
    driver.touch()
    monkeypatch.setattr(f"{__name__}.CHROMEDRIVER", driver)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="no-chromium not installed"):
        _require_browser()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="no-chromium not installed"):
        _require_browser()


def test_the_home_tab_links_each_waiting_post_to_it_on_the_page(opened: Any) -> None:
    from selenium.webdriver.common.by import By

    links = opened.find_elements(By.CSS_SELECTOR, "article.home a")
    parents = _parents(opened)
    assert len(links) == len(parents)  # nothing reviewed yet: every flagged conversation waits
    targets = {link.get_attribute("href").rsplit("#", 1)[-1] for link in links}
    assert targets == {parent.get_attribute("id") for parent in parents}
    links[0].click()
    target = opened.find_element(By.ID, links[0].get_attribute("href").rsplit("#", 1)[-1])
    assert opened.execute_script("return arguments[0].getBoundingClientRect().top;", target) < 50
