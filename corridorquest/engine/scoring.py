"""Final scores (SPEC §6) as pure functions, computed exactly with fractions.

The weights are points: progress and wall thrift together give 0 to 100 points, and the
trade balance (wall costs, also points, SPEC §5) comes on top. The manual's formula
divides the first two by 100, which left at most one point before rounding; SPEC §6
reads the weights as points instead.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

from corridorquest.engine.geometry import Seat, initial_walls, progress_weight
from corridorquest.engine.state import GameState


def round_half_up(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))


def base_score(
    size: int, players: int, distance: int, walls_placed: int, trade_balance: int = 0
) -> Fraction:
    """progress_weight x progress + wall_weight x walls + trade balance, in points.

    Progress never goes below 0: walls can make the path to the goal longer than the board
    (SPEC §6), which would otherwise take points from the wall thrift and the trades."""
    weight = progress_weight(size, players)
    progress = max(Fraction(0), 1 - Fraction(distance, size - 1))
    walls = max(Fraction(0), 1 - Fraction(walls_placed, initial_walls(size, players)))
    return weight * progress + (100 - weight) * walls + trade_balance


def score_game(
    size: int,
    players: int,
    winner: Seat | None,
    distances: Mapping[Seat, int],
    walls_placed: Mapping[Seat, int],
    trade_balance: Mapping[Seat, int] | None = None,
) -> dict[Seat, int]:
    """Final score of every seat; the winner gets at least the best other score + 1."""
    balance = trade_balance or {}
    finals = {
        seat: round_half_up(
            base_score(
                size,
                players,
                0 if seat is winner else distances[seat],
                walls_placed.get(seat, 0),
                balance.get(seat, 0),
            )
        )
        for seat in distances
    }
    if winner is not None:
        others = [score for seat, score in finals.items() if seat is not winner]
        if others:
            finals[winner] = max(finals[winner], max(others) + 1)
    return finals


def final_scores(
    state: GameState, trade_balance: Mapping[Seat, int] | None = None
) -> dict[Seat, int]:
    """The scores of a finished position: distances on its board, and walls placed counted
    on the board by owner (trades move walls in and out of hands, not onto the board)."""
    return score_game(
        state.size,
        state.players,
        state.winner,
        {seat: state.distance(seat) for seat in state.seats},
        {seat: sum(1 for _, owner in state.walls if owner is seat) for seat in state.seats},
        trade_balance,
    )
