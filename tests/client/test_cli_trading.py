"""cq game offer / trade against the real server: trades, withdrawals and every refusal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from click.testing import Result

from corridorquest.engine import initial_walls, wall_cost
from tests.client.play_helpers import created_id, game_json

pytestmark = pytest.mark.backend_neutral  # cq's output; the server: tests/api on both backends

Cq = Callable[..., Result]
PLAYERS = ["ann", "ben", "cat", "dan", "eve"]
INSERT_PLAYERS = True
COST = wall_cost(5, 4)
START = initial_walls(5, 4)


@pytest.fixture
def cq(players_cq: Cq) -> Cq:
    return players_cq


def four_player_game(cq: Cq) -> int:
    result = cq("game", "new", "-n", "4", "-b", "5", profile="ann")
    assert result.exit_code == 0, result.output
    game_id = created_id(result)
    for name in ("ben", "cat", "dan"):
        joined = cq("game", "join", "-g", str(game_id), profile=name)
        assert joined.exit_code == 0, joined.output
    return game_id


def ok(cq: Cq, *args: str, profile: str) -> str:
    result = cq(*args, profile=profile)
    assert result.exit_code == 0, result.output
    return result.output


def refused(cq: Cq, *args: str, profile: str, says: str, code: int = 4) -> None:
    result = cq(*args, profile=profile)
    assert result.exit_code == code, result.output
    assert says in result.output, result.output


def state(cq: Cq, game_id: int) -> dict[str, Any]:
    """What a refusal must not change, as each player sees it."""
    seen = {}
    for name in ("ann", "ben", "cat", "dan"):
        game = game_json(cq, game_id, name)
        seen[name] = (game["revision"], game["seats"], game["trade_balance"], game["offers"])
    return seen


def test_offer_show_trade_and_withdraw_through_cq(cq: Cq) -> None:
    game_id = four_player_game(cq)
    g = str(game_id)
    said = ok(cq, "game", "offer", "-g", g, "selling", profile="ann")
    assert f"You offer to sell a wall in game {game_id} (wall cost {COST})" in said
    shown = ok(cq, "game", "show", "-g", g, profile="ben")
    assert f"Wall cost: {COST}" in shown
    assert "Open offers:\n  ann offers to sell a wall" in shown

    bought = ok(cq, "game", "trade", "-g", g, "buying", "ann", profile="ben")
    assert f"You bought a wall from ann in game {game_id}" in bought
    assert f"Your trade balance: {-COST:+d}" in bought
    walls = {s["username"]: s["walls_left"] for s in game_json(cq, game_id, "cat")["seats"]}
    assert walls == {"ann": START - 1, "ben": START + 1, "cat": START, "dan": START}
    assert game_json(cq, game_id, "ann")["trade_balance"] == COST

    private = ok(cq, "game", "offer", "-g", g, "buying", "dan", profile="cat")
    assert f"You offer to buy a wall from dan (private) in game {game_id}" in private
    assert "cat offers to buy a wall (private, to dan)" in ok(
        cq, "game", "show", "-g", g, profile="dan"
    )
    assert "cat offers" not in ok(cq, "game", "show", "-g", g, profile="ben")
    withdrawn = ok(cq, "game", "offer", "-g", g, "--withdraw", profile="cat")
    assert f"You withdrew your offer in game {game_id}" in withdrawn
    assert "Open offers" not in ok(cq, "game", "show", "-g", g, profile="dan")


def test_refused_offers_and_trades_leave_the_game_unchanged(cq: Cq) -> None:
    game_id = four_player_game(cq)
    g = str(game_id)
    for _ in range(START):  # ann sells every wall she has to ben
        ok(cq, "game", "offer", "-g", g, "selling", profile="ann")
        ok(cq, "game", "trade", "-g", g, "buying", "ann", profile="ben")
    ok(cq, "game", "offer", "-g", g, "buying", profile="cat")
    sold = ok(cq, "game", "offer", "-g", g, "selling", "ben", profile="dan")
    assert f"You offer to sell a wall to ben (private) in game {game_id}" in sold
    ok(cq, "game", "offer", "-g", g, "selling", profile="ben")
    ok(cq, "game", "offer", "-g", g, "--withdraw", profile="ben")
    before = state(cq, game_id)

    refused(cq, "game", "offer", "-g", g, "selling", profile="ann", says="no wall left to sell")
    refused(
        cq, "game", "trade", "-g", g, "selling", "cat", profile="ann", says="no wall left to sell"
    )
    refused(
        cq, "game", "offer", "-g", g, "buying", profile="cat", says="already have an open offer"
    )
    refused(cq, "game", "trade", "-g", g, "selling", "cat", profile="cat", says="your own offer")
    refused(cq, "game", "trade", "-g", g, "buying", "ben", profile="cat", says="withdrew")
    refused(
        cq,
        "game",
        "trade",
        "-g",
        g,
        "buying",
        "dan",
        profile="cat",
        says="dan has no offer for you",
    )
    refused(
        cq, "game", "trade", "-g", g, "buying", "cat", profile="dan", says="trade with 'selling'"
    )
    refused(cq, "game", "trade", "-g", g, "buying", "ann", profile="eve", says="not a player")
    refused(cq, "game", "offer", "-g", g, "--withdraw", profile="ann", says="no open offer")
    refused(cq, "game", "offer", "-g", g, "lending", profile="ann", says="lending", code=2)
    refused(cq, "game", "offer", "-g", g, profile="ann", says="TRADING_MODE", code=2)
    refused(
        cq,
        "game",
        "offer",
        "-g",
        g,
        "--withdraw",
        "buying",
        profile="ann",
        says="--withdraw takes no",
        code=2,
    )
    refused(cq, "game", "trade", "-g", g, "buying", profile="ann", says="TRADING_PARTNER", code=2)
    assert state(cq, game_id) == before
