"""The shoe explorer in a real browser: Voila serves it on 127.0.0.1, headless Chromium clicks a card button.

The edge shown after the click (and after cards typed in the box) must be the engine's for the shoe less those
cards.  A screenshot is saved as a
test artefact in ``$BACCARAT_TEST_ARTEFACTS`` (default ``build/test-artefacts/``).  Skipped, with the reason,
where Chromium (or its driver), Selenium or Voila is missing.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from toolkit.bets.paytable import get_bet
from toolkit.bets.pricing import expected_values
from toolkit.coup.cards import Composition

ROOT = Path(__file__).resolve().parents[2]
BETS = ["banker", "player", "tie", "dragon7"]
SOURCE = f"from toolkit.widgets import ShoeExplorer\n\nShoeExplorer('8 decks', bets={BETS!r}, systems=['dragon7'])"


def _browser() -> tuple[str, str]:
    browser = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        pytest.skip("no headless Chromium and chromedriver (apt-get install chromium chromium-driver)")
    return browser, driver


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ev(comp: Composition, bet: str) -> float:
    return float(expected_values(np.array([comp.by_rank]), [get_bet(bet)])[0, 0])


@pytest.mark.browser
def test_clicking_a_card_button_shows_the_engines_edge(tmp_path: Path):
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    pytest.importorskip("voila", reason="voila is not installed")
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser, driver_path = _browser()
    nbformat = pytest.importorskip("nbformat")
    notebook = tmp_path / "explorer.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(SOURCE)])
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nbformat.write(nb, notebook)
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    server = subprocess.Popen(
        [sys.executable, "-m", "voila", str(notebook), "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )
    url = f"http://127.0.0.1:{port}/"
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(flag)
    driver = None
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/static/", timeout=2)
                break
            except OSError as err:
                if getattr(err, "code", None):  # an HTTP error: the server answers
                    break
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"voila did not start: {server.stderr.read().decode()[-2000:]}") from None
                time.sleep(0.5)
        from selenium.webdriver.chrome.service import Service

        driver = webdriver.Chrome(options=options, service=Service(driver_path))
        driver.get(url)
        # the widget redraws its HTML on every change: elements go stale, so every read finds them afresh
        wait = WebDriverWait(driver, 180, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))
        row = "tr[data-bet='banker']"

        def read(css: str, attribute: str | None = None) -> str:
            def attempt(d):
                element = d.find_element(By.CSS_SELECTOR, css)
                return element.get_attribute(attribute) if attribute else element.text

            return wait.until(attempt)

        full = Composition.from_decks(8)
        shown = float(read(row, "data-ev"))
        assert shown == pytest.approx(_ev(full, "banker"), abs=1e-12)
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "button[title='remove a 5']")).click()
        wait.until(lambda d: float(d.find_element(By.CSS_SELECTOR, row).get_attribute("data-ev")) != shown)
        expected = _ev(full.remove("5"), "banker")
        assert float(read(row, "data-ev")) == pytest.approx(expected, abs=1e-12)
        assert f"{100 * expected:+.4f}%" in read(row)
        assert read("span[data-rank='5']", "data-count") == "31"
        # cards typed in the box, then Enter
        box = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "input[placeholder^='type cards']"))
        box.send_keys("K 9h\n")
        # both typed cards are out once the shoe shows 413 cards (the redraw may come in steps)
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "div[data-cards]").get_attribute("data-cards") == "413")
        typed = _ev(full.remove("5", "K", "9"), "banker")
        assert float(read(row, "data-ev")) == pytest.approx(typed, abs=1e-12)
        artefacts = Path(os.environ.get("BACCARAT_TEST_ARTEFACTS", ROOT / "build" / "test-artefacts"))
        artefacts.mkdir(parents=True, exist_ok=True)
        assert driver.save_screenshot(str(artefacts / "browser-explorer.png"))
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        server.stderr.close()
