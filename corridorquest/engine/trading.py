"""Wall trading (SPEC §5): one wall moves from the seller's hand to the buyer's.

The scores side (the wall cost moving between trade balances) is `geometry.wall_cost`
plus `scoring.score_game`'s trade balances; this module only keeps the walls in hand
consistent: a seller needs a wall, nobody trades with itself, nothing after the game.
"""

from __future__ import annotations

from corridorquest.engine.errors import GameOverError, IllegalActionError
from corridorquest.engine.geometry import Seat
from corridorquest.engine.state import GameState


def can_sell(state: GameState, seller: Seat) -> bool:
    """Whether `seller` has a wall in hand to sell."""
    return state.walls_left.get(seller, 0) > 0


def transfer_wall(state: GameState, seller: Seat, buyer: Seat) -> None:
    """Move one wall from `seller` to `buyer`; raises (state unchanged) when not allowed."""
    if state.is_finished:
        raise GameOverError("the game is finished: no more trades")
    if seller not in state.seats or buyer not in state.seats:
        raise IllegalActionError("both traders must be seats of this game")
    if seller is buyer:
        raise IllegalActionError(f"{seller.title} cannot trade with itself")
    if not can_sell(state, seller):
        raise IllegalActionError(f"{seller.title} has no wall left to sell")
    state.walls_left[seller] -= 1
    state.walls_left[buyer] += 1
