"""The bot driver against the real server (SPEC §13): bots' moves on the game's stream, a
bot in an invisible-walls game plays from its seat's view (it bumps into walls it cannot
see), and a bot whose turn it is when the server restarts moves. 5x5 boards, levels 1-2."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from client.legal import state_from_game
from corridorquest.engine import Seat, format_action
from tests.support.games import get_game, new_game, play
from tests.support.server import (
    RunningServer,
    free_port,
    running_server,
    server_env,
    start_process,
    stop,
    wait_until_up,
)
from tests.support.sse import EventReader
from tests.support.users import auth, insert_user

PACE = 3.0  # BOTS_ONLY_PACE here: seconds between two moves of a game of bots only


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("server"), bot_workers=1,
                        stream_keepalive=1, bots_only_pace=PACE) as running:
        yield running


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        yield http


def wait_for(client: httpx.Client, token: str, game_id: int, done: Any,
             timeout: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        game = get_game(client, token, game_id)
        if done(game):
            return game
        assert time.monotonic() < deadline, f"waited in vain: {game}"
        time.sleep(0.05)


def person_turn_or_end(name: str) -> Any:
    return lambda game: game["status"] != "started" or game["turn_username"] == name


def ranked_steps(game: dict[str, Any]) -> list[tuple[str, str]]:
    """(kind, square) of the player to move's steps, the one nearest its goal first."""
    state = state_from_game(game)
    assert state is not None and state.turn is not None
    seat = state.turn
    scored = []
    for step in state.legal_steps():
        after = state.copy()
        after.play(step)
        scored.append((0 if after.winner == seat else after.distance(seat), format_action(step),
                       "jump" if step.jump else "move"))
    return [(kind, notation) for _, notation, kind in sorted(scored)]


def best_step(game: dict[str, Any]) -> tuple[str, str]:
    return ranked_steps(game)[0]


def test_a_bots_moves_appear_on_the_games_stream(
    server: RunningServer, client: httpx.Client
) -> None:
    ann = insert_user(server.database_url, "ann")
    watcher = insert_user(server.database_url, "watcher")
    game = new_game(client, ann, size=5)
    with EventReader(f"{server.api}/games/{game['id']}/events", watcher) as events:
        assert events.next("game")["data"]["status"] == "waiting"
        seated = client.post(f"/games/{game['id']}/bots", json={"level": 1}, headers=auth(ann))
        assert seated.status_code == 201, seated.text
        if seated.json()["turn_username"] == "ann":
            kind, to = best_step(seated.json())
            assert play(client, ann, game["id"], kind, to).status_code == 201
        bots_action = None
        while bots_action is None:
            action = events.next("action", timeout=10)["data"]
            if action["username"] == "bot-1":
                bots_action = action
        shown = events.next("game", timeout=10)["data"]
        assert shown["last_actions"][-1]["username"] == "bot-1"
        assert shown["turn_username"] == "ann"


def test_a_game_of_bots_only_is_played_at_its_spectators_pace(
    server: RunningServer, client: httpx.Client
) -> None:
    """BOTS_ONLY_PACE: the moves of a game of bots only reach its watchers at least the
    pace apart; a bot answers a person without waiting for it."""
    kim = insert_user(server.database_url, "kim")
    made = client.post("/games", json={"players": 2, "size": 5, "bots": [1, 2], "join": False},
                       headers=auth(kim))
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    arrived = []
    with EventReader(f"{server.api}/games/{gid}/events", kim) as events:
        for _ in range(3):  # a 5x5 game lasts at least 7 plies
            events.next("action", timeout=15)
            arrived.append(time.monotonic())
    gaps = [later - earlier for earlier, later in zip(arrived[:-1], arrived[1:], strict=True)]
    assert min(gaps) > PACE / 2, gaps  # (unpaced: a few milliseconds)
    assert client.delete(f"/games/{gid}", headers=auth(kim)).status_code == 200

    game = new_game(client, kim, size=5, bots=[1])
    game = wait_for(client, kim, game["id"], person_turn_or_end("kim"))
    kind, to = best_step(game)
    asked = time.monotonic()
    assert play(client, kim, game["id"], kind, to).status_code == 201
    answered = wait_for(client, kim, game["id"], person_turn_or_end("kim"))
    assert answered["revision"] > game["revision"] + 1  # the bot moved
    assert time.monotonic() - asked < PACE, "a bot facing a person waited for the pace"


def test_a_bot_in_an_invisible_walls_game_plays_from_its_seats_view(
    server: RunningServer, client: httpx.Client
) -> None:
    """Ann walls the bot's path with walls it cannot see; the bot walks into them (a bot
    given the whole position never would) and notes the edges it bumped into as markers,
    which everybody sees once the game is over."""
    ann = insert_user(server.database_url, "ivy")
    game = new_game(client, ann, size=5, invisible=True, bots=[1])
    gid = game["id"]
    bot_seat = next(s["seat"] for s in game["seats"] if s["username"] == "bot-1")
    for _ in range(200):
        game = wait_for(client, ann, gid, person_turn_or_end("ivy"))
        if game["status"] != "started":
            break
        state = state_from_game(game)
        assert state is not None
        placed = False
        if state.walls_left[state.turn] > 0:  # the wall that lengthens the bot's path most
            scored = []
            for wall in state.legal_walls():
                after = state.copy()
                after.play(wall)
                scored.append((-after.distance(Seat(bot_seat)), format_action(wall)))
            for _, wall_text in sorted(scored)[:10]:
                answer = play(client, ann, gid, "wall", wall_text)
                if answer.status_code == 201:
                    placed = True
                    break
        if not placed:  # the best step the bot's invisible walls allow
            for kind, to in ranked_steps(game):
                answer = play(client, ann, gid, kind, to)
                if answer.status_code == 201:
                    break
                assert answer.status_code == 422, answer.text
    final = wait_for(client, ann, gid, lambda g: g["status"] == "finished")
    bumped = [m["marker"] for m in final["markers"] if m["owner"] == bot_seat]
    assert bumped, f"the bot never bumped into a wall it could not see: {final}"
    assert final["winner"] in ("ivy", "bot-1")


@pytest.mark.slow  # kill -9 and a restart
def test_a_bot_whose_turn_it_is_moves_after_a_restart(tmp_path: Path) -> None:
    """The server is killed while it is the bot's turn (BOT_WORKERS=0: nobody played it);
    started again with a worker, the bot moves."""
    database_url = f"sqlite:///{tmp_path / 'cq.db'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process, log_path = start_process(tmp_path, server_env(tmp_path, database_url, port,
                                                           bot_workers=0))
    try:
        wait_until_up(base, process, log_path)
        ann = insert_user(database_url, "ann")
        with httpx.Client(base_url=base + "/api/v1", timeout=10.0) as http:
            game = new_game(http, ann, size=5, bots=[2])
            if game["turn_username"] == "ann":
                kind, to = best_step(game)
                moved = play(http, ann, game["id"], kind, to)
                assert moved.status_code == 201, moved.text
                game = moved.json()
            assert game["turn_username"] == "bot-2"
            time.sleep(0.5)  # pacing: no bot move must come
            assert get_game(http, ann, game["id"])["revision"] == game["revision"]
        process.kill()  # no goodbye
        process.wait(10)
        process, log_path = start_process(tmp_path, server_env(tmp_path, database_url, port,
                                                               bot_workers=1))
        wait_until_up(base, process, log_path)
        with httpx.Client(base_url=base + "/api/v1", timeout=10.0) as http:
            after = wait_for(http, ann, game["id"], person_turn_or_end("ann"))
            assert after["revision"] == game["revision"] + 1
            assert after["last_actions"][-1]["username"] == "bot-2"
    finally:
        stop(process)


def test_a_bot_takes_a_wall_offer_that_pays_and_leaves_one_that_does_not(
    server: RunningServer, client: httpx.Client
) -> None:
    """Buying a wall does not worsen the bot's evaluation (a wall in hand is worth
    something): it buys. Selling one would: it leaves the offer open."""
    uma = insert_user(server.database_url, "uma")
    game = new_game(client, uma, size=5, bots=[2])
    gid = game["id"]
    selling = client.post(f"/games/{gid}/offers", json={"mode": "selling"}, headers=auth(uma))
    assert selling.status_code == 201, selling.text
    traded = wait_for(client, uma, gid, lambda g: g["trade_balance"] != 0)
    assert traded["trade_balance"] == traded["wall_cost"]  # uma sold a wall to the bot
    buying = client.post(f"/games/{gid}/offers", json={"mode": "buying"}, headers=auth(uma))
    assert buying.status_code == 201, buying.text
    time.sleep(1.5)  # pacing: no purchase must come
    after = get_game(client, uma, gid)
    assert after["trade_balance"] == traded["wall_cost"]  # nothing bought from the bot
    assert [o["mode"] for o in after["offers"] if o["username"] == "uma"] == ["buying"]
