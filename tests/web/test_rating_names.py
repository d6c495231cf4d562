"""Ratings next to the names on the lobby and /tv (SPEC §14): each player's rating of the
game's pool as `cq` shows it (`1623`, `1662?` while provisional), a bot's level, the
names linking to the profiles; /tv's live captions keep them; the real server, chromium
for what a watcher sees, under the pages' content security policy."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from corridorquest.store.models import User, UserRating, utcnow
from tests.api.mode_helpers import Match, act, best_step, start
from tests.support.rated_games import duel, in_store
from tests.support.server import RunningServer
from tests.support.users import auth
from tests.web.browser import browser_page, chromium_missing


def _established(database_url: str, username: str, rating: float) -> None:
    """`username` with a 2-player rating that is not provisional (deviation 60)."""

    def write() -> None:
        UserRating.create(
            user=User.find_by_name(username), pool="2p", rating=rating, deviation=60.0,
            volatility=0.06, games=30, last_played_at=utcnow(),
        )

    in_store(database_url, write)


@pytest.fixture(scope="module")
def games(
    server: RunningServer, client: httpx.Client,
    tokens: Callable[[tuple[str, ...]], dict[str, str]],
) -> dict[str, Any]:
    """A finished rated duel (rnb beat rna: 1662? and 1338?), a started game of rnb
    against rnc (established at 1623) and a started game of rna against the level-3 bot
    (established at 1710)."""
    names = tokens(("rna", "rnb", "rnc"))
    finished = duel(client, server.database_url, names, loser="rna", winner="rnb")
    _established(server.database_url, "rnc", 1623.4)
    live = start(client, {"rnb": names["rnb"], "rnc": names["rnc"]})
    answer = client.post("/games", json={"size": 5, "bots": [3]}, headers=auth(names["rna"]))
    assert answer.status_code == 201, answer.text
    bot_game = answer.json()
    assert bot_game["status"] == "started", bot_game
    [bot] = bot_game["bots"]
    _established(server.database_url, bot, 1710.2)
    return {"finished": finished["id"], "live": live, "bot_game": bot_game["id"], "bot": bot}


def _player(name: str, rating: str, level: int | None = None) -> str:
    bot = f' <span class="bot-level">(level {level})</span>' if level else ""
    return (
        f'<span class="player"><a href="/users/{name}">{name}</a>{bot}'
        f' <span class="rating">{rating}</span></span>'
    )


def test_the_lobby_shows_ratings_and_bot_levels_next_to_the_names(
    server: RunningServer, games: dict[str, Any]
) -> None:
    for path in ("/", "/web/lobby"):  # the page and the fragment that refreshes it
        text = httpx.get(f"{server.base_url}{path}", timeout=10).text
        assert _player("rnb", "1662?") in text  # the duel's winner, provisional
        assert _player("rna", "1338?") in text
        assert _player("rnc", "1623") in text  # established: no "?"
        assert _player(games["bot"], "1710", level=3) in text


def test_the_tv_captions_show_ratings_and_bot_levels(
    server: RunningServer, games: dict[str, Any]
) -> None:
    live: Match = games["live"]
    text = httpx.get(f"{server.base_url}/tv", timeout=10).text
    assert _player("rnb", "1662?") in text and _player("rnc", "1623") in text
    assert _player(games["bot"], "1710", level=3) in text
    figure = httpx.get(f"{server.base_url}/web/tv/games/{live.id}", timeout=10).text
    assert _player("rnb", "1662?") in figure  # the live caption's fragment too


RECORD = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


def _to_move(match: Match) -> str:
    assert match.mirror.turn is not None
    return match.names[match.mirror.turn.value]


def _both(caption: str) -> None:
    """The live duel's caption (seats in board order): both players with their ratings."""
    assert "rnb 1662?" in caption and "rnc 1623" in caption and "rnc 1623?" not in caption


@pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")
def test_a_watcher_sees_the_ratings_on_the_lobby_and_the_live_tv(
    server: RunningServer, client: httpx.Client, games: dict[str, Any]
) -> None:
    live: Match = games["live"]
    bot = games["bot"]
    with browser_page() as browser:
        page = browser.new_page()
        console: list[str] = []
        page.on("console", lambda message: console.append(message.text))
        page.add_init_script(RECORD)

        def clean(where: str) -> None:  # no violation of the pages' policy
            time.sleep(0.3)  # pacing: violations that must not come
            found = page.evaluate("window.cspViolations")
            blocked = [t for t in console if "Content Security Policy" in t]
            assert not found and not blocked, (where, found, blocked)

        page.goto(f"{server.base_url}/")
        finished = page.inner_text(f'li:has(a[href="/games/{games["finished"]}"])')
        assert "rna 1338?, rnb 1662?" in finished
        assert "rnb 1662?, rnc 1623:" in page.inner_text(f'li:has(a[href="/games/{live.id}"])')
        against_bot = page.inner_text(f'li:has(a[href="/games/{games["bot_game"]}"])')
        assert f"{bot} (level 3) 1710" in against_bot
        clean("lobby")
        page.click('header a[href="/leaderboard"]')
        page.wait_for_url(f"{server.base_url}/leaderboard")
        page.go_back()
        page.click(f'li:has(a[href="/games/{live.id}"]) a[href="/users/rnc"]')
        page.wait_for_url(f"{server.base_url}/users/rnc")

        page.goto(f"{server.base_url}/tv")
        caption = f'figure[data-game="{live.id}"] figcaption'
        page.wait_for_selector(f'{caption} strong:text-is("{_to_move(live)}")')
        _both(page.inner_text(caption))
        bot_caption = page.inner_text(f'figure[data-game="{games["bot_game"]}"] figcaption')
        assert f"{bot} (level 3) 1710" in bot_caption
        step = best_step(live.mirror)
        act(client, live, "jump" if step.jump else "move", str(step.to))
        # the caption is rebuilt after the move (the next player to move), ratings kept
        page.wait_for_selector(f'{caption} strong:text-is("{_to_move(live)}")', timeout=3000)
        _both(page.inner_text(caption))
        clean("tv")
        page.close()


def test_the_labels_of_a_page_are_read_in_one_query(
    server: RunningServer, games: dict[str, Any]
) -> None:
    """Every name of a page, whatever their pools, in one statement (not one a player)."""
    from corridorquest.services.rating_labels import _labels
    from corridorquest.store.models import database

    def read() -> tuple[dict[str, Any], int]:
        statements: list[str] = []
        real = database.obj.execute_sql

        def counted(sql: str, *args: Any, **kwargs: Any) -> Any:
            statements.append(sql)
            return real(sql, *args, **kwargs)

        database.obj.execute_sql = counted
        try:
            found = _labels(["rna", "rnb", "rnc", games["bot"], "nobody-such"])
        finally:
            del database.obj.execute_sql
        return found, len(statements)

    found, statements = in_store(server.database_url, read)
    assert statements == 1
    assert {name: label.rating("2p") for name, label in found.items()} == {
        "rna": "1338?", "rnb": "1662?", "rnc": "1623", games["bot"]: "1710",
    }
    assert found["rnb"].rating("4p") == "1500?"  # never rated in that pool
    assert found[games["bot"]].bot_level == 3 and found["rna"].bot_level is None
