"""Screenshots of the web pages for the docs (not a test): docs/images/web-*.png.

    .venv/bin/python -m tests.web.screenshots [NAME...]   (e.g. `tv`: web-tv*.png only)

Starts the real server, plays a few games through the API (a started 2-player game, a
4-player game with walls, a finished game; then four more for the projector's six
boards, among them a 17x17 one; a Swiss of four for the projector's tournament view) and
photographs the pages in chromium (the lobby as a logged-in player sees it; /tv at
1920x1080).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import httpx

from corridorquest.callers import SESSION_COOKIE
from corridorquest.engine import GameState, Seat
from tests.api.mode_helpers import Match, act, best_step, pick_wall, play_out, start
from tests.support.server import running_server
from tests.support.users import auth, insert_user
from tests.web.browser import browser_page
from tests.web.play_screenshots import play_screenshots

OUT = Path(__file__).resolve().parents[2] / "docs" / "images"


def moves(client: httpx.Client, match, count: int, walls: int = 0) -> None:  # type: ignore[no-untyped-def]
    for i in range(count):
        wall = pick_wall(match.mirror, frozenset()) if i < walls else None
        if wall is not None:
            act(client, match, "wall", wall)
        else:
            step = best_step(match.mirror)
            act(client, match, "jump" if step.jump else "move", str(step.to))


def swiss(client: httpx.Client, tokens: dict[str, str]) -> int:
    """A Swiss of four (quinn, rupert, sybil, trent) started, its first game played out
    and a few moves in the other: the tournament's id."""
    names = ("quinn", "rupert", "sybil", "trent")
    made = client.post("/tournaments", headers=auth(tokens["quinn"]),
                       json={"name": "Friday Swiss", "kind": "swiss", "rounds": 3, "size": 7})
    tid = int(made.json()["id"])
    for name in names:
        client.post(f"/tournaments/{tid}/join", headers=auth(tokens[name]))
    started = client.post(f"/tournaments/{tid}/start", headers=auth(tokens["quinn"])).json()
    ids = sorted(int(t["game_id"]) for t in started["pairings"][0]["games"])
    for n, game_id in enumerate(ids):
        game = client.get(f"/games/{game_id}", headers=auth(tokens["quinn"])).json()
        match = Match(game, {s["seat"]: tokens[s["username"]] for s in game["seats"]},
                      {s["seat"]: s["username"] for s in game["seats"]},
                      GameState.new(size=game["size"], players=game["players"],
                                    first=Seat(game["turn"])),
                      {s["seat"]: [] for s in game["seats"]})
        if n == 0:
            play_out(client, match, walls_each=1)
        else:
            moves(client, match, 6, walls=2)
    return tid


def main(only: list[str]) -> None:
    """Every screenshot, or those whose names start with one of `only` (`tv`: the
    projector's: web-tv.png, web-tv-6.png and web-tv-tournament.png)."""
    OUT.mkdir(parents=True, exist_ok=True)

    def wanted(name: str) -> bool:
        return not only or any(name.startswith(prefix) for prefix in only)

    with tempfile.TemporaryDirectory() as tmp, running_server(Path(tmp)) as server:
        with httpx.Client(base_url=server.api, timeout=10) as client:
            names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
            names += ["ivan", "judy", "ken", "lena", "mallory", "niaj", "olivia", "peggy"]
            names += ["quinn", "rupert", "sybil", "trent"]
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
                        time.sleep(0.5)  # pacing: the page settles for its picture
                        page.screenshot(path=str(OUT / f"web-{name}.png"))
                # the lobby of a logged-in player (alice's session cookie): the forms that
                # play, her games with whose turn it is, the games to join and to watch
                if wanted("lobby"):
                    alice = browser.new_context(viewport={"width": 1200, "height": 800})
                    alice.add_cookies([{"name": SESSION_COOKIE, "value": tokens["alice"],
                                        "url": server.base_url}])
                    page = alice.new_page()
                    page.goto(server.base_url + "/")
                    time.sleep(0.5)  # pacing: the page settles for its picture
                    page.screenshot(path=str(OUT / "web-lobby.png"), full_page=True)
                tv = browser.new_page(viewport={"width": 1920, "height": 1080})  # a projector
                if wanted("tv"):
                    tv.goto(server.base_url + "/tv")
                    time.sleep(0.5)  # pacing: the page settles for its picture
                    tv.screenshot(path=str(OUT / "web-tv.png"))
                page = browser.new_page(viewport={"width": 390, "height": 844})
                if wanted("game-phone"):
                    page.goto(server.base_url + f"/games/{two.id}")
                    time.sleep(0.5)  # pacing: the page settles for its picture
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
                    time.sleep(0.5)  # pacing: the page settles for its picture
                    tv.screenshot(path=str(OUT / "web-tv-6.png"))
                if wanted("tv-tournament"):  # a Swiss of four, its first game over
                    tv.goto(server.base_url + f"/tv?tournament={swiss(client, tokens)}")
                    time.sleep(0.5)  # pacing: the page settles for its picture
                    tv.screenshot(path=str(OUT / "web-tv-tournament.png"))
        if wanted("game-play"):  # a player's game page: web-game-play, web-wall-preview-phone
            play_screenshots(server)
    print("wrote", ", ".join(sorted(p.name for p in OUT.glob("web-*.png"))))


if __name__ == "__main__":
    main(sys.argv[1:])
