"""Screenshots of the web pages for the docs (not a test): docs/images/web-*.png.

    .venv/bin/python -m tests.web.screenshots [NAME...]   (e.g. `tv`: web-tv*.png only)

Starts the real server, plays a few games through the API (a started 2-player game, a
4-player game with walls, a finished game; then four more for the projector's six
boards, among them a 17x17 one) and photographs the pages in chromium (the lobby as a
logged-in player sees it; /tv at 1920x1080).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import httpx

from corridorquest.callers import SESSION_COOKIE
from tests.api.mode_helpers import act, best_step, pick_wall, play_out, start
from tests.support.server import running_server
from tests.support.users import insert_user
from tests.web.browser import browser_page

OUT = Path(__file__).resolve().parents[2] / "docs" / "images"


def moves(client: httpx.Client, match, count: int, walls: int = 0) -> None:  # type: ignore[no-untyped-def]
    for i in range(count):
        wall = pick_wall(match.mirror, frozenset()) if i < walls else None
        if wall is not None:
            act(client, match, "wall", wall)
        else:
            step = best_step(match.mirror)
            act(client, match, "jump" if step.jump else "move", str(step.to))


def main(only: list[str]) -> None:
    """Every screenshot, or those whose names start with one of `only` (`tv`: the
    projector's, web-tv.png and web-tv-6.png)."""
    OUT.mkdir(parents=True, exist_ok=True)

    def wanted(name: str) -> bool:
        return not only or any(name.startswith(prefix) for prefix in only)

    with tempfile.TemporaryDirectory() as tmp, running_server(Path(tmp)) as server:
        with httpx.Client(base_url=server.api, timeout=10) as client:
            names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
            names += ["ivan", "judy", "ken", "lena", "mallory", "niaj", "olivia", "peggy"]
            tokens = {n: insert_user(server.database_url, n) for n in names}
            two = start(client, {n: tokens[n] for n in ("alice", "bob")})
            moves(client, two, 7, walls=2)
            four = start(client, {n: tokens[n] for n in ("carol", "dave", "erin", "frank")},
                         players=4)
            moves(client, four, 10, walls=4)
            done = start(client, {n: tokens[n] for n in ("grace", "heidi")})
            play_out(client, done, walls_each=2)
            client.post("/games", json={"players": 4}, headers={
                "Authorization": f"Bearer {tokens['bob']}"})
            with browser_page() as browser:
                page = browser.new_page(viewport={"width": 1200, "height": 800})
                for name, path in (("game", f"/games/{four.id}"),
                                   ("replay", f"/games/{done.id}?at=5")):
                    if wanted(name):
                        page.goto(server.base_url + path)
                        time.sleep(0.5)
                        page.screenshot(path=str(OUT / f"web-{name}.png"))
                # the lobby of a logged-in player (alice's session cookie): the forms that
                # play, her games with whose turn it is, the games to join and to watch
                if wanted("lobby"):
                    alice = browser.new_context(viewport={"width": 1200, "height": 800})
                    alice.add_cookies([{"name": SESSION_COOKIE, "value": tokens["alice"],
                                        "url": server.base_url}])
                    page = alice.new_page()
                    page.goto(server.base_url + "/")
                    time.sleep(0.5)
                    page.screenshot(path=str(OUT / "web-lobby.png"), full_page=True)
                tv = browser.new_page(viewport={"width": 1920, "height": 1080})  # a projector
                if wanted("tv"):
                    tv.goto(server.base_url + "/tv")
                    time.sleep(0.5)
                    tv.screenshot(path=str(OUT / "web-tv.png"))
                page = browser.new_page(viewport={"width": 390, "height": 844})
                if wanted("game-phone"):
                    page.goto(server.base_url + f"/games/{two.id}")
                    time.sleep(0.5)
                    page.screenshot(path=str(OUT / "web-game-phone.png"), full_page=True)
                # six games on the projector: a 17x17 board and a second 4-player game too
                for players, options, count in (
                    (("ivan", "judy"), {"size": 17}, 12),
                    (("ken", "lena"), {"size": 5}, 5),
                    (("mallory", "niaj", "olivia", "peggy"), {"size": 11, "players": 4}, 9),
                    (("grace", "heidi"), {"size": 13}, 8),
                ):
                    match = start(client, {n: tokens[n] for n in players}, **options)
                    moves(client, match, count, walls=count // 2)
                if wanted("tv-6"):
                    tv.goto(server.base_url + "/tv")
                    time.sleep(0.5)
                    tv.screenshot(path=str(OUT / "web-tv-6.png"))
    print("wrote", ", ".join(sorted(p.name for p in OUT.glob("web-*.png"))))


if __name__ == "__main__":
    main(sys.argv[1:])
