"""The "Rematch" button of a finished game's page: its players see it, a spectator does
not; a click makes the same game again (the opponent invited) and opens its page; the
opponent's open page turns its button into "Accept the rematch" within seconds, and a
click seats both in the one game."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import httpx
from playwright.sync_api import Browser, expect

from tests.support.rated_games import duel
from tests.support.server import RunningServer
from tests.support.users import auth


def logged_in(browser: Browser, server: RunningServer, token: str) -> Any:
    context = browser.new_context()
    context.add_cookies([{"name": "cq_session", "value": token, "url": server.base_url}])
    return context


def test_a_player_clicks_rematch_and_lands_on_the_new_game(
    server: RunningServer, client: httpx.Client, tokens: Any, browser: Browser
) -> None:
    people = tokens(("rem_ann", "rem_bob", "rem_cy"))
    done = duel(client, server.database_url, people, "rem_ann", "rem_bob")
    spectator = logged_in(browser, server, people["rem_cy"])
    seen = spectator.new_page()
    seen.goto(f"{server.base_url}/games/{done['id']}")
    seen.wait_for_selector("#replay")
    assert seen.locator("#rematch-button").count() == 0  # not a player of it
    spectator.close()

    player = logged_in(browser, server, people["rem_ann"])
    page = player.new_page()
    page.goto(f"{server.base_url}/games/{done['id']}")
    page.click("#rematch-button")
    page.wait_for_url(lambda url: "/games/" in url and not url.endswith(f"/games/{done['id']}"),
                      timeout=5000)
    page.wait_for_selector(".status")
    new_id = int(page.url.rsplit("/", 1)[1].split("?")[0])
    assert new_id != done["id"]
    assert "waiting for players (1 of 2)" in page.inner_text(".status")
    game = client.get(f"/games/{new_id}", headers=auth(people["rem_ann"])).json()
    assert (game["admin"], game["size"], game["waiting_players"]) == ("rem_ann", 5, ["rem_ann"])
    player.close()


def test_the_opponent_accepts_the_rematch_and_both_are_in_one_game(
    server: RunningServer, client: httpx.Client, tokens: Any, browser: Browser
) -> None:
    people = tokens(("acc_ann", "acc_bob"))
    done = duel(client, server.database_url, people, "acc_ann", "acc_bob")
    opponent = logged_in(browser, server, people["acc_bob"])
    page = opponent.new_page()
    page.goto(f"{server.base_url}/games/{done['id']}")
    assert page.inner_text("#rematch-button") == "Rematch"
    # ann asks while bob's page is open: his button and its status follow within seconds
    asked = client.post(f"/games/{done['id']}/rematch", headers=auth(people["acc_ann"]))
    assert asked.status_code == 201, asked.text
    rematch = asked.json()["id"]
    expect(page.locator("#rematch-button")).to_have_text("Accept the rematch", timeout=10000)
    expect(page.locator("#rematch-status")).to_have_text("acc_ann asks for a rematch.")
    page.reload()
    assert page.inner_text("#rematch-button") == "Accept the rematch"  # as the server says
    page.click("#rematch-button")
    page.wait_for_url(f"{server.base_url}/games/{rematch}", timeout=5000)
    game = client.get(f"/games/{rematch}", headers=auth(people["acc_bob"])).json()
    assert game["status"] == "started"
    assert sorted(seat["username"] for seat in game["seats"]) == ["acc_ann", "acc_bob"]
    opponent.close()

    asker = logged_in(browser, server, people["acc_ann"])
    page = asker.new_page()
    page.goto(f"{server.base_url}/games/{done['id']}")
    assert page.inner_text("#rematch-button") == "Go to the rematch"
    asker.close()


def test_the_admin_of_a_game_of_bots_only_goes_to_the_rematch_it_asked_for() -> None:
    from corridorquest.services.auth import CurrentUser
    from corridorquest.web.game_data import rematch_words

    def user(name: str) -> CurrentUser:
        return CurrentUser(1, name, f"{name}@example.test", False, 1, datetime.max)

    waiting = {"rematch": {"id": 9, "status": "started", "admin": "host",
                           "players": ["bot-1", "bot-2"]}}
    assert rematch_words(user("host"), waiting) == "Go to the rematch"  # it watches it
    assert rematch_words(user("host"), {"rematch": None}) == "Rematch"
    offered = {"rematch": {"id": 9, "status": "waiting", "admin": "ann", "players": ["ann"]}}
    assert rematch_words(user("bob"), offered) == "Accept the rematch"
    assert rematch_words(user("ann"), offered) == "Go to the rematch"
