"""Helpers for tests that play games through cq: users with profiles, engine-chosen moves."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import Result

from client.legal import state_from_game
from client.profiles import Profile, ProfileStore
from corridorquest.engine import Seat, Step, format_square
from tests.support.server import RunningServer
from tests.support.users import insert_user, make_user

Cq = Callable[..., Result]
COMPASS = {(0, 1): "north", (0, -1): "south", (1, 0): "east", (-1, 0): "west"}


def add_players(server: RunningServer, config_dir: Path, names: list[str]) -> None:
    """Real users (signup, mailed code, verify, login), each logged in in its own profile."""
    store = ProfileStore(config_dir)
    for name in names:
        token = make_user(server.base_url, server.mail_dir, name)
        store.save(Profile(name=name, server_url=server.base_url, username=name, token=token))


def add_inserted_players(server: RunningServer, config_dir: Path, names: list[str]) -> None:
    """Users inserted straight into the database (no mail), each logged in in its own profile."""
    store = ProfileStore(config_dir)
    for name in names:
        token = insert_user(server.database_url, name)
        store.save(Profile(name=name, server_url=server.base_url, username=name, token=token))


def created_id(result: Result) -> int:
    match = re.search(r"Created game (\d+)", result.output)
    assert match, result.output
    return int(match.group(1))


def game_json(cq: Cq, game_id: int, profile: str) -> dict[str, Any]:
    result = cq("game", "show", "-g", str(game_id), "--json", profile=profile)
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.output))


def best_step(game: dict[str, Any]) -> tuple[str, str]:
    """The move or jump that brings the player to move closest to its goal, in cq words."""
    state = state_from_game(game)
    assert state is not None and state.turn is not None
    seat = Seat(state.turn)
    here = state.pawns[seat]
    scored = []
    for step in state.legal_steps():
        assert isinstance(step, Step)
        after = state.copy()
        after.play(step)
        distance = 0 if after.winner == seat else after.distance(seat)
        scored.append((distance, step.jump, format_square(step.to), step))
    distance, jump, square, step = min(scored)
    delta = (step.to.col - here.col, step.to.row - here.row)
    if not jump and delta in COMPASS:
        return "move", COMPASS[delta]
    return ("jump" if jump else "move"), square


def first_legal_wall(game: dict[str, Any]) -> str | None:
    from client.legal import legal_targets

    walls = legal_targets(game, "wall")
    return walls[len(walls) // 2] if walls else None


def play_to_the_end(cq: Cq, game_id: int, players: list[str], walls_each: int = 1,
                    max_turns: int = 400) -> dict[str, Any]:
    """Play through cq until someone wins: each player first places walls, then runs."""
    placed: dict[str, int] = dict.fromkeys(players, 0)
    game = game_json(cq, game_id, players[0])
    for _ in range(max_turns):
        if game["status"] != "started":
            return game
        mover = game["turn_username"]
        if placed[mover] < walls_each and (wall := first_legal_wall(game)):
            result = cq("game", "place", "-g", str(game_id), wall, profile=mover)
            placed[mover] += 1
        else:
            kind, to = best_step(game)
            result = cq("game", kind, "-g", str(game_id), to, profile=mover)
        assert result.exit_code == 0, result.output
        game = game_json(cq, game_id, mover)
    raise AssertionError(f"game {game_id} did not finish in {max_turns} turns")
