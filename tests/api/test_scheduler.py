"""The scheduler (SPEC §10) in the real server: stalled players removed, a restart that
catches up, cancelled games and expired signups purged without any request.

Short settings (STALL_TIMEOUT=2s, SCHEDULER_INTERVAL=1s) and polling up to a bound; on
PostgreSQL too when CQ_TEST_DATABASE_URL is set. Two processes on one PostgreSQL database:
tests/api/test_scheduler_leader.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx

from corridorquest.engine import GameState, Seat
from corridorquest.store import Store
from corridorquest.store.models import GameMessage, GamePlayer, User
from tests.support.games import get_game, play, started_game
from tests.support.server import (
    free_port,
    fresh_database,
    running_server,
    server_env,
    start_process,
    stop,
    wait_until_up,
)
from tests.support.users import auth, insert_user

T = TypeVar("T")
BOUND = 20.0  # seconds: how long a test waits for what the scheduler should have done


def wait_for(check: Callable[[], T | None], bound: float = BOUND) -> T:
    """Poll `check` until it answers something truthy (fail after `bound` seconds)."""
    deadline = time.monotonic() + bound
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, "the scheduler did not act in time"
        time.sleep(0.05)


def cancelled(client: httpx.Client, token: str, game_id: int) -> dict[str, Any] | None:
    game = get_game(client, token, game_id)
    return game if game["status"] == "cancelled" else None


def message_texts(client: httpx.Client, token: str, game_id: int) -> list[str]:
    response = client.get(f"/games/{game_id}/messages", headers=auth(token))
    assert response.status_code == 200, response.text
    return [m["text"] for m in response.json()["messages"]]


def next_move(state: GameState) -> str:
    """A pawn move of the seat to move that keeps the game going (back and forth)."""
    steps = [a for a in state.legal_steps() if not a.jump]
    return str(sorted(steps, key=lambda step: str(step.to))[0].to)


def test_a_player_who_does_not_move_is_removed_and_the_game_cancelled(tmp_path: Path) -> None:
    with (
        running_server(tmp_path, STALL_TIMEOUT="2s") as server,
        httpx.Client(base_url=server.api, timeout=10.0) as client,
    ):
        tokens = {name: insert_user(server.database_url, name) for name in ("ada", "bo")}
        game = started_game(client, tokens)
        staller = next(s["username"] for s in game["seats"] if s["seat"] == game["turn"])
        other = "bo" if staller == "ada" else "ada"
        over = wait_for(lambda: cancelled(client, tokens[other], game["id"]))
        reason = f"{staller} did not move for 2 seconds and was removed"
        assert over["cancel_reason"] == reason
        assert over["revision"] == game["revision"] + 1
        texts = message_texts(client, tokens[other], game["id"])
        assert texts.count(f"The game was cancelled: {reason}") == 1
        moved = play(
            client,
            tokens[staller],
            game["id"],
            "move",
            next_move(GameState.new(9, 2, Seat(game["turn"]))),
        )
        assert moved.status_code == 409, moved.text
        assert moved.json()["reason"] == "game_cancelled"


def test_players_who_keep_moving_are_never_removed(tmp_path: Path) -> None:
    with (
        running_server(tmp_path, STALL_TIMEOUT="3s") as server,
        httpx.Client(base_url=server.api, timeout=10.0) as client,
    ):
        tokens = {name: insert_user(server.database_url, name) for name in ("cy", "di")}
        game = started_game(client, tokens)
        by_seat = {seat["seat"]: tokens[seat["username"]] for seat in game["seats"]}
        state = GameState.new(9, 2, Seat(game["turn"]))
        started = time.monotonic()
        while time.monotonic() - started < 8:  # well past the timeout, each turn short
            to = next_move(state)
            answer = play(client, by_seat[state.turn.value], game["id"], "move", to)  # type: ignore[union-attr]
            assert answer.status_code == 201, answer.text
            state.play_notation(to, "move")
            time.sleep(0.5)  # pacing: the players' pace, each turn well inside the timeout
        assert get_game(client, tokens["cy"], game["id"])["status"] == "started"


def test_a_restart_after_the_deadline_catches_up(tmp_path: Path) -> None:
    """The deadline passed while the server was down: the next start removes the player."""
    with fresh_database(tmp_path) as database_url:

        def start(name: str) -> tuple[Any, str]:
            where = tmp_path / name
            where.mkdir()
            port = free_port()
            env = server_env(where, database_url, port, STALL_TIMEOUT="3s")
            process, log_path = start_process(where, env)
            base_url = f"http://127.0.0.1:{port}"
            wait_until_up(base_url, process, log_path)
            return process, base_url + "/api/v1"

        process, api = start("first")
        try:
            tokens = {name: insert_user(database_url, name) for name in ("ed", "flo")}
            with httpx.Client(base_url=api, timeout=10.0) as client:
                game = started_game(client, tokens)
        finally:
            stop(process)
        time.sleep(4)  # pacing: the turn passes STALL_TIMEOUT while no server runs
        process, api = start("second")
        try:
            with httpx.Client(base_url=api, timeout=10.0) as client:
                over = wait_for(lambda: cancelled(client, tokens["ed"], game["id"]), bound=5)
                assert "did not move for 3 seconds" in over["cancel_reason"]
        finally:
            stop(process)


def test_cancelled_games_past_retention_and_expired_signups_are_purged(tmp_path: Path) -> None:
    with (
        running_server(
            tmp_path,
            CANCELLED_RETENTION="1s",
            SCHEDULER_INTERVAL="1s",
            SIGNUP_RETENTION="1s",
            VERIFICATION_CODE_TTL="1s",
        ) as server,
        httpx.Client(base_url=server.api, timeout=10.0) as client,
    ):
        tokens = {name: insert_user(server.database_url, name) for name in ("gus", "hal")}
        game = started_game(client, tokens)
        gone = client.delete(f"/games/{game['id']}", headers=auth(tokens["gus"]))
        assert gone.status_code == 200, gone.text
        signup = client.post(
            "/users",
            json={"username": "late", "email": "late@example.test", "password": "a long secret 1"},
        )
        assert signup.status_code == 201, signup.text

        def purged() -> bool:
            response = client.get(f"/games/{game['id']}", headers=auth(tokens["hal"]))
            assert response.status_code in (200, 404), response.text
            return response.status_code == 404

        wait_for(purged)
        store = Store.open(server.database_url, pool_size=1, migrate=False)
        try:
            # with its rows: players and messages (the system messages of its life)
            for model in (GamePlayer, GameMessage):
                assert not store.run(
                    lambda m=model: m.select().where(m.game == game["id"]).exists()
                )
            wait_for(
                lambda: not store.run(lambda: User.select().where(User.username == "late").exists())
            )
        finally:
            store.close()
