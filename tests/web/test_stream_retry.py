"""A game page whose live stream the server refused (503 too_many_streams_on_server: the
process holds STREAMS_MAX streams) opens it again after the advised retry_after, and
then shows the moves without a reload.

The advised wait is 10 s (live/limits.py RETRY_AFTER). Rather than sleep through it, the
test installs playwright's clock in the page and moves the page's time on one second at
a time: the page's own timer (watch.js, set from the retry_after it read) still decides
when the stream is opened again, and the test checks that it is not before that time."""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.api.mode_helpers import act, best_step, start
from tests.support.server import running_server
from tests.support.sse import EventReader
from tests.support.users import insert_user
from tests.web.browser import browser_page, chromium_missing

pytestmark = pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")


def _pawn(seat: str, square: str) -> str:
    return f'svg [data-seat="{seat}"][data-square="{square}"]'


def test_a_refused_stream_is_opened_again_when_the_slot_is_free(tmp_path: Path) -> None:
    with running_server(
        tmp_path, STREAMS_MAX="1", STREAMS_PER_ADDRESS="50", STREAM_KEEPALIVE="1"
    ) as server, httpx.Client(base_url=server.api, timeout=10) as client:
        tokens = {name: insert_user(server.database_url, name) for name in ("rta", "rtb")}
        match = start(client, tokens)
        holder = EventReader(f"{server.api}/games/{match.id}/events", None).start()
        assert holder.status == 200  # the one slot is taken
        with browser_page() as browser:
            page = browser.new_page()
            page.clock.install()  # the page's timers: moved on by the test below
            refused: list[int] = []
            page.on(
                "response",
                lambda r: refused.append(r.status)
                if urlsplit(r.url).path.endswith("/events") else None,
            )
            page.goto(f"{server.base_url}/games/{match.id}")
            page.wait_for_selector("#board svg")
            page.evaluate("window.notReloaded = true")
            # the stream is refused, and so is the page's request that reads retry_after
            deadline = time.monotonic() + 5
            while refused.count(503) < 2 and time.monotonic() < deadline:
                page.wait_for_timeout(100)
            assert refused.count(503) >= 2, refused  # the page's stream was refused
            refused_at = page.evaluate("Date.now()")
            holder.close()  # the slot is free
            step = best_step(match.mirror)
            seat = match.mirror.turn
            assert seat is not None
            act(client, match, "jump" if step.jump else "move", str(step.to))
            # the page's time, a second at a time, until the page follows the game again
            pawn = page.locator(_pawn(seat.value, str(step.to)))
            for _ in range(30):
                if pawn.count():
                    break
                page.clock.run_for(1000)
                page.wait_for_timeout(200)  # (real time) the stream opens, the page updates
            # within the advised 10 s (and a margin) the page follows the game again
            page.wait_for_selector(_pawn(seat.value, str(step.to)), timeout=5_000)
            # ... and not before them (the reading of retry_after ended after refused_at)
            waited = page.evaluate("Date.now()") - refused_at
            assert waited >= 9_000, f"opened again after {waited} ms of the page's time"
            assert page.evaluate("window.notReloaded") is True
            step = best_step(match.mirror)
            seat = match.mirror.turn
            assert seat is not None
            act(client, match, "jump" if step.jump else "move", str(step.to))
            page.wait_for_selector(_pawn(seat.value, str(step.to)), timeout=3000)
