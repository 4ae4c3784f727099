"""The scoreboard in headless Chromium (Debian's, driven by Playwright) while a live session plays
a video file as its camera: the score on the page changes after a scoring shot."""

from __future__ import annotations

import shutil

import pytest

from tests.app.livehelp import ServerThread, free_port, write_video
from tests.app.test_live_session import ScriptedProcessor
from tracker.app.live import LiveSession
from tracker.app.server import create_app
from tracker.app.store import Store

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [pytest.mark.browser, pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium not installed")]

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def open_page(pw, url):  # type: ignore[no-untyped-def]
    browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
    page = browser.new_page()
    page.goto(url)
    return browser, page


def test_scoreboard_shows_the_score_change_after_a_scoring_shot(tmp_path):
    from playwright.sync_api import sync_playwright

    video = write_video(tmp_path / "cam.mp4", frames=150, fps=30.0)
    store = Store(tmp_path / "m.db")
    proc = ScriptedProcessor({60: {"seat": "south", "disc": "s1", "end": {"s1": "hole"}}})
    session = LiveSession(store, str(video), "crokinole", 2, proc, realtime=True)
    app = create_app(store, token="t", live=session)
    with ServerThread(app, free_port()) as server, sync_playwright() as pw:
        browser, page = open_page(pw, server.url + "/")
        page.wait_for_function("document.getElementById('conn').textContent === 'live'", timeout=15000)
        session.start()
        # The 20 is announced as a call and the round's points show 20 for A.
        page.wait_for_selector("#calls li", timeout=20000)
        assert "20" in page.inner_text("#calls")
        assert "this round 20" in page.inner_text("#score [data-team='A']")
        page.screenshot(path=str(tmp_path / "scoreboard.png"))
        browser.close()
    session.stop()
