"""Screenshots of the game page as a player plays it (not a test), for the docs:
docs/images/web-game-play.png (a 9x9 game in play on a laptop: the marked squares and a
wall previewed under the pointer) and docs/images/web-wall-preview-phone.png (a wall
previewed by a first tap on a 390x844 phone).

    .venv/bin/python -m tests.web.play_screenshots

(`python -m tests.web.screenshots` takes them too, with the other pages.)
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import httpx

from tests.api.mode_helpers import act, best_step, start
from tests.support.server import running_server
from tests.support.users import insert_users
from tests.web.browser import browser_page
from tests.web.test_play_page import click_wall, logged_in, wait_turn

OUT = Path(__file__).resolve().parents[2] / "docs" / "images"


def play_screenshots(server) -> None:  # type: ignore[no-untyped-def]
    insert_users(server.database_url, ["ada", "ben"])
    with browser_page() as browser:
        desk, ada = logged_in(browser, server, "ada", viewport={"width": 1200, "height": 860})
        phone, ben = logged_in(browser, server, "ben", viewport={"width": 390, "height": 844},
                               has_touch=True, is_mobile=True, device_scale_factor=2)
        with httpx.Client(base_url=server.api, timeout=10) as client:
            match = start(client, {"ada": ada, "ben": ben})
            for wall in ("c3h", "f6v"):
                for _ in range(2):  # two steps, then a wall
                    step = best_step(match.mirror)
                    act(client, match, "jump" if step.jump else "move", str(step.to))
                act(client, match, "wall", wall)
            if match.names[match.mirror.turn.value] != "ada":  # type: ignore[union-attr]
                step = best_step(match.mirror)
                act(client, match, "jump" if step.jump else "move", str(step.to))
        page = desk.new_page()
        page.goto(f"{server.base_url}/games/{match.id}")
        wait_turn(page)
        page.locator('#board [data-slot="d5h"]').hover(position={"x": 8, "y": 12})
        time.sleep(0.3)  # pacing: the page settles for its picture
        page.screenshot(path=str(OUT / "web-game-play.png"))
        with httpx.Client(base_url=server.api, timeout=10) as client:
            step = best_step(match.mirror)  # ada moves: ben's turn
            act(client, match, "jump" if step.jump else "move", str(step.to))
        page = phone.new_page()
        page.goto(f"{server.base_url}/games/{match.id}")
        wait_turn(page)
        click_wall(page, "e4h", tap=True)
        page.wait_for_selector("#board .preview")
        time.sleep(0.3)  # pacing: the page settles for its picture
        page.screenshot(path=str(OUT / "web-wall-preview-phone.png"))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, running_server(Path(tmp)) as server:
        play_screenshots(server)
    print("wrote web-game-play.png, web-wall-preview-phone.png")


if __name__ == "__main__":
    main()
