"""Helpers for game tests: create, join and read games through the real API."""

from __future__ import annotations

from typing import Any

import httpx

from tests.support.users import auth


def new_game(client: httpx.Client, token: str, **options: Any) -> dict[str, Any]:
    response = client.post("/games", json=options, headers=auth(token))
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def join(client: httpx.Client, token: str, game_id: int, **body: Any) -> httpx.Response:
    return client.post(f"/games/{game_id}/players", json=body, headers=auth(token))


def get_game(client: httpx.Client, token: str, game_id: int) -> dict[str, Any]:
    response = client.get(f"/games/{game_id}", headers=auth(token))
    assert response.status_code == 200, response.text
    game: dict[str, Any] = response.json()
    return game


def history(client: httpx.Client, token: str, game_id: int) -> list[dict[str, Any]]:
    response = client.get(f"/games/{game_id}/actions", headers=auth(token))
    assert response.status_code == 200, response.text
    actions: list[dict[str, Any]] = response.json()["actions"]
    return actions


def started_game(client: httpx.Client, tokens: dict[str, str], **options: Any) -> dict[str, Any]:
    """A started game of the users in `tokens` (first one creates, the others join)."""
    names = list(tokens)
    options.setdefault("players", len(names))
    game = new_game(client, tokens[names[0]], **options)
    for name in names[1:]:
        response = join(client, tokens[name], game["id"], invitation_code=game["invitation_code"])
        assert response.status_code == 201, response.text
        game = response.json()
    assert game["status"] == "started"
    return game


def play(
    client: httpx.Client,
    token: str,
    game_id: int,
    kind: str,
    to: str,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> httpx.Response:
    return client.post(
        f"/games/{game_id}/actions",
        json={"type": kind, "to": to, **extra},
        headers={**auth(token), **(headers or {})},
    )


def play_scripts(
    client: httpx.Client,
    by_seat: dict[str, str],
    game: dict[str, Any],
    scripts: dict[str, list[tuple[str, str]]],
) -> dict[str, Any]:
    """Play the seat to move's next (kind, to) from `scripts` (consumed) with its token from
    `by_seat`, each accepted with 201, until the game is no longer started; the last state."""
    state = game
    while state["status"] == "started":
        seat = state["turn"]
        kind, to = scripts[seat].pop(0)
        response = play(client, by_seat[seat], game["id"], kind, to)
        assert response.status_code == 201, response.text
        state = response.json()
    return state
