"""The web pages' security headers: a Content-Security-Policy that forbids framing and
anything from outside, X-Frame-Options and nosniff on every answer, and pages whose own
script and style work under that policy (no violation reported in chromium)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from corridorquest.engine import Seat
from tests.api.mode_helpers import Match, act, best_step, play_out, start
from tests.support.server import RunningServer
from tests.web.browser import browser_page, chromium_missing


def _step(client: httpx.Client, match: Match) -> None:
    step = best_step(match.mirror)
    act(client, match, "jump" if step.jump else "move", str(step.to))


def test_every_web_answer_has_the_security_headers(
    server: RunningServer, client: httpx.Client, tokens: Any
) -> None:
    match = start(client, tokens(("hda", "hdb")))
    paths = (
        "/", "/tv", "/login", "/login?next=/tv", f"/games/{match.id}", "/games/999999",
        "/web/lobby", f"/web/games/{match.id}/live", f"/web/tv/games/{match.id}",
        "/web/tv/list", "/web/tv/boards", "/web/static/watch.js", "/web/static/style.css",
    )
    for path in paths:
        answer = httpx.get(server.base_url + path, timeout=10)
        assert answer.status_code in (200, 404), (path, answer.status_code)
        policy = answer.headers.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in policy, path
        assert "default-src 'none'" in policy, path
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, path
        assert answer.headers.get("x-frame-options") == "DENY", path
        assert answer.headers.get("x-content-type-options") == "nosniff", path
    wrong = httpx.post(server.base_url + "/login", data={"username": "x", "password": "y"})
    assert wrong.headers.get("x-frame-options") == "DENY"
    # board.svg keeps its own policy (a picture that may only draw itself)
    board = client.get(f"/games/{match.id}/board.svg")
    assert board.headers["content-security-policy"].startswith("default-src 'none'")


def test_every_address_of_the_pages_sends_the_security_headers(
    server: RunningServer, client: httpx.Client, tokens: Any
) -> None:
    """Every route of web/pages.py's table (each static file too), read and, for the
    writes, sent an empty form: whatever the answer, it carries the policy."""
    from corridorquest.web.assets import STATIC_DIR
    from corridorquest.web.pages import ROUTES

    match = start(client, tokens(("hdx", "hdy")))
    fill = {"<game_id:int>": str(match.id), "<username:str>": "hdx", "<tournament_id:int>": "1"}
    asked: list[tuple[str, str]] = []
    for uri, method, _ in ROUTES:
        if uri == "/web/static/<name:str>":
            asked += [("GET", f"/web/static/{p.name}") for p in sorted(STATIC_DIR.iterdir())
                      if p.suffix in (".js", ".css")]
            continue
        for name, value in fill.items():
            uri = uri.replace(name, value)
        assert "<" not in uri, f"a route the test cannot fill in: {uri}"
        asked.append((method, uri))
    assert ("GET", "/signup") in asked and ("GET", "/web/static/play.js") in asked
    for method, path in asked:
        answer = httpx.request(method, server.base_url + path, data={} if method == "POST"
                               else None, timeout=10, follow_redirects=False)
        assert answer.status_code < 500, (method, path, answer.status_code)
        policy = answer.headers.get("content-security-policy", "")
        assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy, path
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, path
        assert answer.headers.get("x-frame-options") == "DENY", (method, path)


@contextmanager
def _framing_page(framed: str) -> Iterator[str]:
    """The address of a page on another origin (a second loopback port) that frames
    `framed`."""
    body = f'<!doctype html><iframe src="{framed}" width="600"></iframe>'.encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    framer = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=framer.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{framer.server_address[1]}/"
    finally:
        framer.shutdown()
        framer.server_close()
        thread.join(5)


RECORD = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


@pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")
def test_the_pages_work_under_their_policy_and_the_login_cannot_be_framed(
    server: RunningServer, client: httpx.Client, tokens: Any
) -> None:
    live = start(client, tokens(("hdc", "hdd")))
    done = start(client, tokens(("hde", "hdf")))
    play_out(client, done, walls_each=1)
    with browser_page() as browser:
        page = browser.new_page()
        console: list[str] = []
        page.on("console", lambda message: console.append(message.text))
        page.add_init_script(RECORD)

        def clean(where: str) -> None:
            time.sleep(0.3)  # pacing: violations that must not come
            found = page.evaluate("window.cspViolations")
            blocked = [t for t in console if "Content Security Policy" in t]
            assert not found and not blocked, (where, found, blocked)

        # framed by a page of another origin: the browser refuses to show /login in it
        with _framing_page(f"{server.base_url}/login") as framer:
            page.goto(framer)
            page.wait_for_load_state("load")
            time.sleep(0.5)  # pacing: a refused frame sends no event
        frames = [f for f in page.frames if f is not page.main_frame]
        assert frames
        for frame in frames:
            assert frame.query_selector('input[name="password"]') is None, frame.url
        assert any("frame-ancestors" in text for text in console)  # that is why
        console.clear()

        page.goto(server.base_url + "/")
        page.wait_for_selector("#lobby")
        clean("lobby")

        page.goto(f"{server.base_url}/games/{live.id}")
        page.wait_for_selector("#board svg")
        assert live.mirror.turn is not None
        seat = live.mirror.turn.value
        _step(client, live)  # the page fetches its new board and panel
        square = str(live.mirror.pawns[Seat(seat)])
        page.wait_for_selector(f'svg [data-seat="{seat}"][data-square="{square}"]', timeout=2000)
        # the style sheet applies: the board scales to its column
        width = page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width")
        assert width > 0
        clean("game")

        page.goto(f"{server.base_url}/games/{done.id}")
        page.wait_for_selector("#replay")
        page.click('button[data-step="first"]')
        page.wait_for_selector('#replay[data-shown="0"]', timeout=3000)
        page.click('button[data-step="next"]')
        page.wait_for_selector('#replay[data-shown="1"]', timeout=3000)
        clean("replay")

        page.goto(f"{server.base_url}/tv")
        page.wait_for_selector(f'figure[data-game="{live.id}"]')
        _step(client, live)
        page.wait_for_selector(
            f'figure[data-game="{live.id}"][data-revision="{live.game["revision"]}"]',
            timeout=2000,
        )
        clean("tv")

        page.close()
