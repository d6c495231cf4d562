"""Shared helpers of the engine tests: build positions through the public API only."""

from __future__ import annotations

from corridorquest.engine import (
    GameState,
    Seat,
    Step,
    format_action,
    format_square,
    format_wall,
    perft,
)

from .reference import RefGame
from .reference import format_square as ref_square
from .reference import format_wall as ref_wall
from .reference import parse_square as parse_ref_square
from .reference import parse_wall as parse_ref_wall


def play_all(state: GameState, moves: str) -> GameState:
    """Play space-separated actions (any notation the engine accepts) on ``state``."""
    for text in moves.split():
        state.play(state.parse_action(text))
    return state


def position(size: int = 9, players: int = 2, first: str = "north", moves: str = "") -> GameState:
    """A new engine game with ``moves`` played from the start."""
    return play_all(GameState.new(size=size, players=players, first=Seat(first)), moves)


def reference(size: int = 9, players: int = 2, first: str = "north", moves: str = "") -> RefGame:
    return RefGame.from_moves(size, players, first, moves.split())


def legal(state: GameState) -> list[str]:
    """The engine's legal actions as sorted canonical strings."""
    return sorted(format_action(action) for action in state.legal_actions())


def step_targets(state: GameState) -> list[str]:
    """Destination squares of the engine's legal moves and jumps, sorted."""
    return sorted(format_square(a.to) for a in state.legal_actions() if isinstance(a, Step))


def jump_targets(state: GameState) -> list[str]:
    return sorted(format_square(a.to) for a in state.legal_actions()
                  if isinstance(a, Step) and a.jump)


def move_targets(state: GameState) -> list[str]:
    return sorted(format_square(a.to) for a in state.legal_actions()
                  if isinstance(a, Step) and not a.jump)


def pawns(state: GameState) -> dict[str, str]:
    return {seat.value: format_square(square) for seat, square in state.pawns.items()}


def snapshot(state: GameState) -> dict[str, object]:
    """Everything a user can observe of a position, as plain comparable data."""
    return {
        "size": state.size,
        "players": state.players,
        "pawns": pawns(state),
        "walls": [(format_wall(wall), seat.value) for wall, seat in state.walls],
        "walls_left": {seat.value: n for seat, n in state.walls_left.items()},
        "turn": None if state.turn is None else state.turn.value,
        "winner": None if state.winner is None else state.winner.value,
        "ply": state.ply,
        "passes": [(ply, seat.value) for ply, seat in state.passes],
        "legal": legal(state),
    }


def ref_snapshot(game: RefGame) -> dict[str, object]:
    return {
        "size": game.size,
        "players": game.players,
        "pawns": {seat: ref_square(square) for seat, square in game.pawns.items()},
        "walls": [(ref_wall(wall), seat) for wall, seat in game.walls],
        "walls_left": dict(game.walls_left),
        "turn": game.turn,
        "winner": game.winner,
        "ply": game.ply,
        "passes": list(game.passes),
        "legal": game.legal_actions(),
    }


engine_perft = perft  # the engine's own count, to set against the reference's


def setup(size: int = 5, players: int = 2, turn: str = "south",
          pawns: dict[str, str] | None = None, walls: str = "",
          walls_left: dict[str, int] | None = None) -> tuple[GameState, RefGame]:
    """The same arbitrary position in the engine (through from_dict) and in the reference.

    ``pawns`` overrides start squares; ``walls`` are space-separated, owned by North.
    """
    ref = RefGame.new(size, players, turn)
    for seat, text in (pawns or {}).items():
        ref.pawns[seat] = parse_ref_square(text, size)
    for text in walls.split():
        ref.walls.append((parse_ref_wall(text, size), "north"))
        ref.walls_left["north"] -= 1
    for seat, left in (walls_left or {}).items():
        ref.walls_left[seat] = left
    data = {
        "size": size, "players": players, "first": turn, "turn": turn, "winner": None,
        "ply": 0, "pawns": {seat: ref_square(sq) for seat, sq in ref.pawns.items()},
        "walls": [[ref_wall(wall), seat] for wall, seat in ref.walls],
        "walls_left": dict(ref.walls_left), "passes": [],
    }
    return GameState.from_dict(data), ref


def turn(state: GameState) -> str | None:
    """The seat to move, as a string (None when finished)."""
    return None if state.turn is None else state.turn.value
