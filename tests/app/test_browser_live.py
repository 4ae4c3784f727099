"""End to end in a browser: `tracker live` plays a fixture video as its camera, headless Chromium
shows the scoreboard, and the score on the page changes after the scoring shot (a 20)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.app.livehelp import free_port
from tests.app.test_browser import CHROMIUM, LAUNCH_ARGS

pytestmark = [pytest.mark.browser, pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium not installed")]
FIXTURE = Path(__file__).parents[2] / "fixtures" / "videos" / "crokinole_twenty" / "video.mp4"


def start_live(tmp_path: Path, port: int, *extra: str) -> subprocess.Popen:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    return subprocess.Popen(
        [sys.executable, "-m", "tracker", "live", "--camera", str(FIXTURE), "--game", "crokinole",
         "--port", str(port), "--token", "ref", "--db", str(tmp_path / "m.db"), *extra],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_http(url: str, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"tracker live exited: {proc.stderr.read() if proc.stderr else ''}")
        try:
            if httpx.get(url, timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError("tracker live did not start serving")


def test_live_fixture_video_scores_a_twenty_on_the_page(tmp_path):
    from playwright.sync_api import sync_playwright

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    # --fast: the file is played as fast as the pipeline takes it (no frame dropped), so a loaded CI
    # machine cannot drop the scoring shot; dropping under load is tested in test_live_session.
    proc = start_live(tmp_path, port, "--paused", "--fast")
    try:
        wait_http(url + "/api/live", proc)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
            page = browser.new_page()
            page.goto(url + "/")
            page.wait_for_function("document.getElementById('conn').textContent === 'live'", timeout=20000)
            assert "20" not in page.inner_text("#score")  # nothing scored yet
            r = httpx.post(url + "/api/live/resume", headers={"Authorization": "Bearer ref"})
            assert r.status_code == 200 and r.json()["paused"] is False
            page.wait_for_function(
                "document.querySelector(\"#score [data-team='A']\") && "
                "document.querySelector(\"#score [data-team='A']\").innerText.includes('this round 20')",
                timeout=60000)
            assert "20 for south" in page.inner_text("#calls")
            page.screenshot(path=str(tmp_path / "live.png"))
            browser.close()
        st = httpx.get(url + "/api/live").json()
        assert st["frames_processed"] > 0
    finally:
        proc.terminate()
        proc.wait(timeout=30)
