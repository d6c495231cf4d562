"""engine.trading: a wall moves from the seller's hand to the buyer's, or nothing moves."""

from __future__ import annotations

import pytest

from corridorquest.engine import GameOverError, GameState, IllegalActionError, Seat
from corridorquest.engine.trading import can_sell, transfer_wall


def test_a_wall_moves_from_seller_to_buyer_and_the_total_stays() -> None:
    state = GameState.new(size=9, players=4, first=Seat.NORTH)
    transfer_wall(state, Seat.EAST, Seat.WEST)
    assert state.walls_left == {Seat.NORTH: 5, Seat.EAST: 4, Seat.SOUTH: 5, Seat.WEST: 6}
    assert sum(state.walls_left.values()) == 20
    assert GameState.from_dict(state.to_dict()).walls_left == state.walls_left


def test_a_seller_without_walls_cannot_sell_and_nothing_changes() -> None:
    state = GameState.new(size=5, players=4, first=Seat.NORTH)
    transfer_wall(state, Seat.NORTH, Seat.SOUTH)
    transfer_wall(state, Seat.NORTH, Seat.SOUTH)
    assert not can_sell(state, Seat.NORTH)
    before = dict(state.walls_left)
    with pytest.raises(IllegalActionError, match="North has no wall left to sell"):
        transfer_wall(state, Seat.NORTH, Seat.EAST)
    assert state.walls_left == before


def test_nobody_trades_with_itself_or_an_absent_seat() -> None:
    state = GameState.new(size=9, players=2, first=Seat.NORTH)
    with pytest.raises(IllegalActionError, match="cannot trade with itself"):
        transfer_wall(state, Seat.NORTH, Seat.NORTH)
    with pytest.raises(IllegalActionError, match="seats of this game"):
        transfer_wall(state, Seat.NORTH, Seat.EAST)
    assert state.walls_left == {Seat.NORTH: 10, Seat.SOUTH: 10}


def test_no_trade_after_the_game_is_over() -> None:
    state = GameState.new(size=5, players=2, first=Seat.SOUTH)
    for text in ("north", "west", "north", "west", "north", "south", "north"):
        state.play_notation(text, "move")
    assert state.is_finished
    with pytest.raises(GameOverError):
        transfer_wall(state, Seat.NORTH, Seat.SOUTH)
