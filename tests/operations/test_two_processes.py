"""Two server processes on one PostgreSQL database (the scale-out story, SPEC §11).

What one process writes, the other shows at once: in particular the last actions and open
offers of a move's answer, which a process builds from what it remembered of its own
previous move of that game (services/last_commit/views.py) when nothing happened in between.

PostgreSQL only (CQ_TEST_DATABASE_URL, as in CI): a second server on an SQLite file
refuses to start (tests/operations/test_server_cli.py). The SQLite-only game cache, which
the rename test met through the second process, is checked against renames and other
writers in tests/services/last_commit/test_games.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from corridorquest.engine import GameState, Seat
from tests.support.games import get_game, play, started_game
from tests.support.scale_out import ON_POSTGRESQL, second_api
from tests.support.server import (
    RunningServer,
)
from tests.support.users import auth, insert_user

pytestmark = ON_POSTGRESQL


@pytest.fixture(scope="module")
def second(server: RunningServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The /api/v1 URL of a second server process on the first one's database."""
    with second_api(server.database_url, tmp_path_factory.mktemp("second")) as api:
        yield api


@pytest.fixture(scope="module")
def other(second: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=second, timeout=10.0) as http:
        yield http


def _shown(game: dict[str, Any]) -> tuple[Any, ...]:
    return game["revision"], game["last_actions"], game["offers"], game["pawns"], game["walls"]


def _next_move(state: GameState) -> str:
    """A pawn move of the seat to move that keeps the game going for a while."""
    steps = [a for a in state.legal_steps() if not a.jump]
    return str(sorted(steps, key=lambda step: str(step.to))[0].to)


def test_moves_and_offers_through_either_process_show_the_same_game(
    server: RunningServer, client: httpx.Client, other: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("pia", "quy")}
    game = started_game(client, tokens)
    gid = game["id"]
    by_seat = {seat["seat"]: tokens[seat["username"]] for seat in game["seats"]}
    state = GameState.new(9, 2, Seat(game["turn"]))
    # Which process takes each move: runs of the same process (it remembers its last
    # answer) and switches (the other one wrote in between).
    route = [client, client, other, client, client, other, other, client, other, client]
    offered = False
    for n, via in enumerate(route, start=1):
        if n == 5:  # an offer through the other process between two moves of this one
            made = other.post(
                f"/games/{gid}/offers", json={"mode": "selling"}, headers=auth(tokens["pia"])
            )
            assert made.status_code == 201, made.text
            offered = True
        mover = by_seat[state.turn.value]  # type: ignore[union-attr]
        to = _next_move(state)
        answer = play(via, mover, gid, "move", to)
        assert answer.status_code == 201, answer.text
        state.play_notation(to, "move")
        moved = answer.json()
        assert moved["last_actions"][-1]["n"] == n and moved["last_actions"][-1]["notation"] == to
        assert [a["n"] for a in moved["last_actions"]] == list(range(max(1, n - 4), n + 1))
        assert [o["username"] for o in moved["offers"]] == (["pia"] if offered else [])
        # each process, read afresh, shows what the answer showed
        for reader in (client, other):
            response = reader.get(f"/games/{gid}", headers=auth(mover))
            assert response.status_code == 200, response.text
            assert _shown(response.json()) == _shown(moved)
    assert get_game(client, tokens["quy"], gid)["revision"] == game["revision"] + len(route) + 1


def test_a_player_renamed_through_the_other_process_shows_in_the_next_move(
    server: RunningServer, client: httpx.Client, other: httpx.Client
) -> None:
    """A process remembers the game its last move left (services/last_commit/games.py); a rename
    does not move the game's revision on, and must show all the same."""
    tokens = {name: insert_user(server.database_url, name) for name in ("rui", "sol")}
    game = started_game(client, tokens)
    gid = game["id"]
    by_seat = {seat["seat"]: tokens[seat["username"]] for seat in game["seats"]}
    state = GameState.new(9, 2, Seat(game["turn"]))
    for _ in range(2):  # two moves through this process: it remembers the game
        to = _next_move(state)
        assert play(client, by_seat[state.turn.value], gid, "move", to).status_code == 201  # type: ignore[union-attr]
        state.play_notation(to, "move")
    renamed = other.patch("/users/me", headers=auth(tokens["rui"]), json={"username": "rui_2"})
    assert renamed.status_code == 200, renamed.text
    to = _next_move(state)
    answer = play(client, by_seat[state.turn.value], gid, "move", to)  # type: ignore[union-attr]
    assert answer.status_code == 201, answer.text
    shown = answer.json()
    assert sorted(seat["username"] for seat in shown["seats"]) == ["rui_2", "sol"]
    assert {a["username"] for a in shown["last_actions"]} == {"rui_2", "sol"}
    assert shown["admin"] in ("rui_2", "sol")
