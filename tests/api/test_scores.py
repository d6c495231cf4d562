"""Scores (SPEC §6) end to end with hand-computed expectations, highscores and leaderboards.

Seeds are fixed through the store so that seats and the first player are known:
2 players, seed 5: the creator is North, the joiner South, South moves first;
4 players, seed 9: seats in join order North, East, South, West; South moves first.
Trade balances are written through the store (as a trade would leave them).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from corridorquest.store import Store
from corridorquest.store.models import Game, GamePlayer, User
from tests.support.finishing_games import FOUR_PLAYER_SCRIPT, TWO_PLAYER_SCRIPT
from tests.support.games import get_game, join, new_game, play
from tests.support.server import RunningServer
from tests.support.users import auth, insert_user

NAMES = ("sca", "scb", "scc", "scd", "sce", "scf", "scn", "scs", "sce4", "scw", "scwatch")



@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in NAMES}


def in_store(server: RunningServer, fn: Any) -> None:
    store = Store.open(server.database_url, pool_size=1, migrate=False)
    try:
        store.run(fn)
    finally:
        store.close()


def seeded_game(
    client: httpx.Client, server: RunningServer, tokens: dict[str, str], names: list[str],
    seed: int, **options: Any,
) -> dict[str, Any]:
    game = new_game(client, tokens[names[0]], size=5, players=len(names), **options)
    game_id = game["id"]
    in_store(server, lambda: Game.update(seed=seed).where(Game.id == game_id).execute())
    for name in names[1:]:
        response = join(client, tokens[name], game_id, invitation_code=game["invitation_code"])
        assert response.status_code == 201, response.text
        game = response.json()
    assert game["status"] == "started"
    return game


def set_balances(server: RunningServer, game_id: int, balances: dict[str, int]) -> None:
    """What trades would have left, written by hand: like every write of a game's players,
    it moves the game's revision on (the server's last_commit relies on that)."""

    def write() -> None:
        for name, balance in balances.items():
            user = User.get(User.username == name)
            GamePlayer.update(trade_balance=balance).where(
                (GamePlayer.game == game_id) & (GamePlayer.user == user.id)
            ).execute()
        Game.update(revision=Game.revision + 1).where(Game.id == game_id).execute()

    in_store(server, write)


def run_script(
    client: httpx.Client, game: dict[str, Any], tokens: dict[str, str],
    script: list[tuple[str, str, str]], before_last: Any = None,
) -> dict[str, Any]:
    by_seat = {s["seat"]: tokens[s["username"]] for s in game["seats"]}
    for index, (seat, kind, to) in enumerate(script):
        if index == len(script) - 1 and before_last is not None:
            before_last()
        assert game["turn"] == seat, (index, game["turn"], seat)
        response = play(client, by_seat[seat], game["id"], kind, to)
        assert response.status_code == 201, response.text
        game = response.json()
    assert game["status"] == "finished"
    return game


def two_player(
    client: httpx.Client, server: RunningServer, tokens: dict[str, str], north: str,
    south: str, balances: dict[str, int] | None = None, **options: Any,
) -> dict[str, Any]:
    game = seeded_game(client, server, tokens, [north, south], 5, **options)
    assert {s["seat"]: s["username"] for s in game["seats"]} == {"north": north, "south": south}
    hook = (lambda: set_balances(server, game["id"], balances)) if balances else None
    return run_script(client, game, tokens, TWO_PLAYER_SCRIPT, hook)


@pytest.fixture(scope="module")
def games(
    client: httpx.Client, server: RunningServer, tokens: dict[str, str]
) -> dict[str, dict[str, Any]]:
    """Every scored game of this module, played once."""
    played = {
        "plain": two_player(client, server, tokens, "sca", "scb"),
        "traded": two_player(
            client, server, tokens, "sca", "scb", {"sca": 24, "scb": -24}, private=True
        ),
        "cd": two_player(client, server, tokens, "scc", "scd"),
        "ef": two_player(client, server, tokens, "sce", "scf"),
    }
    game = seeded_game(client, server, tokens, ["sca", "scb"], 5)
    offer = client.post(f"/games/{game['id']}/offers", json={"mode": "selling"},
                        headers=auth(tokens["sca"]))
    assert offer.status_code == 201, offer.text
    trade = client.post(f"/games/{game['id']}/trades", json={"mode": "buying",
                        "partner": "sca"}, headers=auth(tokens["scb"]))
    assert trade.status_code == 201, trade.text
    game = trade.json()
    assert {s["seat"]: s["walls_left"] for s in game["seats"]} == {"north": 4, "south": 6}
    played["api_traded"] = run_script(client, game, tokens, TWO_PLAYER_SCRIPT)
    four = seeded_game(client, server, tokens, ["scn", "sce4", "scs", "scw"], 9)
    assert [s["username"] for s in four["seats"]] == ["scn", "sce4", "scs", "scw"]
    played["four"] = run_script(
        client, four, tokens, FOUR_PLAYER_SCRIPT,
        lambda: set_balances(server, four["id"], {"scn": 50, "scw": -50}),
    )
    return played


def test_two_player_scores_by_hand(games: dict[str, Any]) -> None:
    # 5x5, 2 players: progress_weight 60, wall_weight 40, 5 walls, start distance 4.
    # South (winner): progress 1, walls 1 - 2/5 = 0.6: 60 * 1 + 40 * 0.6 = 60 + 24 = 84.
    # North: distance 2, progress 0.5; walls 1 - 1/5 = 0.8: 60 * 0.5 + 40 * 0.8 = 30 + 32 = 62.
    assert games["plain"]["scores"] == {"sca": 62, "scb": 84}
    assert games["plain"]["winner"] == "scb"


def test_two_player_scores_with_trades_by_hand_the_winner_stays_on_top(
    games: dict[str, Any],
) -> None:
    # North sold three walls to South (wall cost 8): North 62 + 24 = 86;
    # South 84 - 24 = 60, but the winner gets max(60, 86 + 1) = 87.
    assert games["traded"]["scores"] == {"sca": 86, "scb": 87}


def test_a_trade_through_the_api_counts_in_the_scores(games: dict[str, Any]) -> None:
    # The same game, North selling one wall to South through the API before the first
    # action: North 5 - 1 sold - 1 placed = 3 left, South 5 + 1 bought - 2 placed = 4.
    # Scores count the walls placed, not the walls in hand: North 62 + 8 = 70,
    # South 84 - 8 = 76.
    final = games["api_traded"]
    assert final["scores"] == {"sca": 70, "scb": 76}
    assert {s["seat"]: s["walls_left"] for s in final["seats"]} == {"north": 3, "south": 4}


def test_four_player_scores_with_trades_by_hand(games: dict[str, Any]) -> None:
    # 5x5, 4 players: progress_weight 50, wall_weight 50, 2 walls, start distance 4, wall
    # cost 25; North sold two walls to West.
    # North: distance 3 (0.25), no walls placed (1): 12.5 + 50 = 62.5, + 50 -> 112.5 -> 113.
    # East: distance 3, no walls placed: 62.5 -> 63 (halves round up).
    # West: distance 3, both walls placed (0): 12.5, - 50 -> -37.5 -> -37 (up, too).
    # South wins: 50 + 50 = 100, but max(100, 113 + 1) = 114.
    assert games["four"]["scores"] == {"scs": 114, "scn": 113, "sce4": 63, "scw": -37}
    assert games["four"]["winner"] == "scs"


def test_highscores_are_the_best_score_per_variant_with_the_game(
    client: httpx.Client, tokens: dict[str, str], games: dict[str, Any]
) -> None:
    response = client.get("/users/SCB/highscores")  # no login needed, any case
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["username"] == "scb"
    [best] = body["highscores"]
    assert (best["size"], best["players"], best["masked"], best["invisible"]) == (5, 2, False,
                                                                                 False)
    # the best (87) is from a private game: its id is hidden from outsiders...
    assert (best["score"], best["game_id"], best["private"]) == (87, None, True)
    # ...but shown to its players
    mine = client.get("/users/scb/highscores", headers=auth(tokens["scb"])).json()
    assert mine["highscores"][0]["game_id"] == games["traded"]["id"]
    four = client.get("/users/scs/highscores").json()["highscores"]
    assert [(h["players"], h["score"], h["game_id"]) for h in four] == [
        (4, 114, games["four"]["id"])
    ]
    assert client.get("/users/scwatch/highscores").json()["highscores"] == []
    missing = client.get("/users/nobody99/highscores")
    assert missing.status_code == 404 and missing.json()["reason"] == "user_not_found"


def test_the_leaderboard_lists_each_users_best_with_shared_ranks(
    client: httpx.Client, tokens: dict[str, str], games: dict[str, Any]
) -> None:
    response = client.get("/leaderboards", params={"size": 5}, headers=auth(tokens["sca"]))
    assert response.status_code == 200, response.text
    board = response.json()
    assert (board["size"], board["players"], board["masked"], board["invisible"]) == (
        5, 2, False, False
    )
    rows = [(e["rank"], e["username"], e["score"]) for e in board["entries"]]
    assert rows == [
        (1, "scb", 87), (2, "sca", 86), (3, "scd", 84), (3, "scf", 84), (5, "scc", 62),
        (5, "sce", 62),
    ]
    assert board["entries"][0]["game_id"] == games["traded"]["id"]  # sca played it
    assert board["entries"][2]["game_id"] == games["cd"]["id"]
    four = client.get("/leaderboards", params={"size": 5, "players": 4}).json()["entries"]
    assert [(e["username"], e["score"]) for e in four] == [
        ("scs", 114), ("scn", 113), ("sce4", 63), ("scw", -37)
    ]
    empty = client.get(
        "/leaderboards", params={"size": 5, "masked": "true", "invisible": "true"}
    ).json()
    assert empty["entries"] == [] and empty["masked"] is True


def test_the_leaderboard_defaults_to_9x9_two_players_and_refuses_invalid_variants(
    client: httpx.Client,
) -> None:
    default = client.get("/leaderboards").json()
    assert (default["size"], default["players"], default["entries"]) == (9, 2, [])
    for params, reason in (({"size": 6}, "invalid_size"), ({"players": 3}, "invalid_players")):
        response = client.get("/leaderboards", params=params)
        assert response.status_code == 422, response.text
        assert response.json()["reason"] == reason
    assert client.get("/leaderboards", params={"masked": "perhaps"}).status_code == 400
    assert client.get("/leaderboards", params={"colour": "red"}).status_code == 400


def test_a_finished_game_shows_its_scores_to_everyone(
    client: httpx.Client, tokens: dict[str, str], games: dict[str, Any]
) -> None:
    seen = get_game(client, tokens["scwatch"], games["four"]["id"])
    assert seen["scores"] == games["four"]["scores"]
