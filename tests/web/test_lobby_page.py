"""The lobby of a logged-in user: the new-game and join-by-code forms, "Your games" with
whose turn it is (the user's own turn first and marked), a Join button on the waiting
public games of others; a visitor who is not logged in sees the games and the ways to
sign up or log in, no form. (The forms' requests are the browser tests':
test_lobby_browser.py for the refusals, test_play_page.py for creating and joining.)"""

from __future__ import annotations

import re
from contextlib import closing

import httpx

from tests.support.games import join, new_game, play
from tests.support.server import RunningServer
from tests.support.users import DEFAULT_PASSWORD, auth, insert_user, insert_users


def _logged_in(server: RunningServer, name: str) -> tuple[httpx.Client, str]:
    """A browser logged in as `name`, and its session token (for the API's calls)."""
    insert_users(server.database_url, [name])
    browser = httpx.Client(base_url=server.base_url, timeout=10)
    answer = browser.post("/login", data={"username": name, "password": DEFAULT_PASSWORD})
    assert answer.status_code == 303, answer.text
    return browser, browser.cookies["cq_session"]


def _entry(html: str, section: str, game_id: int) -> str | None:
    """The lobby's list item (its HTML) of `game_id` in the section titled `section`."""
    for part in html.split("<h2>"):
        if part.startswith(f"{section}</h2>"):
            for item in re.findall(r"<li[^>]*>.*?</li>", part, re.S):
                if f'<a href="/games/{game_id}">' in item:
                    return str(item)
    return None


def _marked(item: str | None) -> bool:
    """Whether the list item is marked as the user's turn."""
    assert item is not None
    return item.startswith('<li class="your-turn">')


def _text(item: str | None) -> str:
    assert item is not None
    return re.sub(r"<[^>]+>", "", item)


def test_the_lobby_of_a_logged_in_user_lists_its_games_and_whose_turn(
    server: RunningServer, client: httpx.Client
) -> None:
    browser, amy = _logged_in(server, "amy")
    bob = insert_user(server.database_url, "bob")
    cat = insert_user(server.database_url, "cat")
    with closing(browser):
        started = new_game(client, amy, size=5)
        answer = join(client, bob, started["id"])
        assert answer.status_code == 201, answer.text
        started = answer.json()
        hidden = new_game(client, amy, private=True)  # amy's own: hers to see
        others = new_game(client, cat)

        page = browser.get("/")
        assert page.status_code == 200
        assert 'id="new-game"' in page.text and 'id="join-code"' in page.text
        assert '<script src="/web/static/lobby.js" defer></script>' in page.text
        mine = _entry(page.text, "Your games", started["id"])
        amy_moves = started["turn_username"] == "amy"
        assert _marked(mine) == amy_moves
        assert ("your turn" in _text(mine)) == amy_moves
        assert _entry(page.text, "Your games", hidden["id"]) is not None
        assert _entry(page.text, "Waiting for players", hidden["id"]) is None  # private
        join_button = f'<button type="button" class="join" data-join="{others["id"]}">'
        assert join_button in str(_entry(page.text, "Waiting for players", others["id"]))
        assert "<button" not in str(_entry(page.text, "Waiting for players", started["id"]))

        mover = amy if amy_moves else bob  # a move: the turn goes over
        moves = client.get(f"/games/{started['id']}/legal-actions", headers=auth(mover))
        moved = play(client, mover, started["id"], "move", moves.json()["moves"][0])
        assert moved.status_code == 201, moved.text
        fragment = browser.get("/web/lobby")  # the refresh of the lobby's lists
        mine = _entry(fragment.text, "Your games", started["id"])
        assert _marked(mine) == (not amy_moves)
        if amy_moves:
            assert "bob to move" in _text(mine)
        # the first of the list: a game on amy's turn comes before all others
        first = re.search(r"<li[^>]*>.*?</li>", fragment.text, re.S)
        assert first is not None and _marked(first.group(0)) == (not amy_moves)


def test_a_visitor_sees_the_games_and_the_ways_to_play_but_no_form(
    server: RunningServer, client: httpx.Client
) -> None:
    dan = insert_user(server.database_url, "dan")
    waiting = new_game(client, dan)
    page = httpx.get(server.base_url + "/", timeout=10)
    assert page.status_code == 200
    assert 'id="new-game"' not in page.text and "lobby.js" not in page.text
    assert "Your games" not in page.text
    item = _entry(page.text, "Waiting for players", waiting["id"])
    assert item is not None and "<button" not in item
    assert '<p class="to-play"><a href="/signup">Sign up</a> or <a href="/login">log in</a>' in (
        page.text
    )
