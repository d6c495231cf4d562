"""Finished games for the ratings tests: scripted games with a fixed seed (seats known),
played through the real API (2 players, seed 5: creator North, joiner South, South wins;
4 players, seed 9: seats in join order N, E, S, W; South wins)."""

from __future__ import annotations

from typing import Any

import httpx

from corridorquest.store import Store
from corridorquest.store.models import Game
from tests.support.finishing_games import FOUR_PLAYER_SCRIPT, TWO_PLAYER_SCRIPT
from tests.support.games import join, new_game, play


def in_store(database_url: str, fn: Any) -> Any:
    store = Store.open(database_url, pool_size=1, migrate=False)
    try:
        return store.run(fn)
    finally:
        store.close()


def seeded_game(
    client: httpx.Client, database_url: str, tokens: dict[str, str], names: list[str],
    seed: int, **options: Any,
) -> dict[str, Any]:
    game = new_game(client, tokens[names[0]], size=5, players=len(names), **options)
    game_id = game["id"]
    in_store(database_url, lambda: Game.update(seed=seed).where(Game.id == game_id).execute())
    for name in names[1:]:
        response = join(client, tokens[name], game_id, invitation_code=game["invitation_code"])
        assert response.status_code == 201, response.text
        game = response.json()
    assert game["status"] == "started"
    return game


def finish(
    client: httpx.Client, game: dict[str, Any], tokens: dict[str, str],
    script: list[tuple[str, str, str]], last_headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Play `script` to the end; `last_headers` go with the finishing move."""
    by_seat = {s["seat"]: tokens[s["username"]] for s in game["seats"]}
    for index, (seat, kind, to) in enumerate(script):
        assert game["turn"] == seat, (index, game["turn"], seat)
        headers = last_headers if index == len(script) - 1 else None
        response = play(client, by_seat[seat], game["id"], kind, to, headers=headers)
        assert response.status_code == 201, response.text
        game = response.json()
    assert game["status"] == "finished"
    return game


def duel(
    client: httpx.Client, database_url: str, tokens: dict[str, str], loser: str, winner: str,
    **options: Any,
) -> dict[str, Any]:
    """A finished 2-player game that `winner` (South) wins against `loser` (North)."""
    game = seeded_game(client, database_url, tokens, [loser, winner], 5, **options)
    return finish(client, game, tokens, TWO_PLAYER_SCRIPT)


def four_player(
    client: httpx.Client, database_url: str, tokens: dict[str, str], names: list[str]
) -> dict[str, Any]:
    """A finished 4-player game of `names` (N, E, S, W): the third one wins."""
    game = seeded_game(client, database_url, tokens, names, 9)
    return finish(client, game, tokens, FOUR_PLAYER_SCRIPT)
