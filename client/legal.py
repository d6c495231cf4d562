"""Legal actions of the player to move, computed locally with the rules engine.

The position is rebuilt from the game JSON the server sent, so it holds only what the
caller may see: in an invisible-walls game the opponents' walls are unknown here, and
completion may offer a square that the server then refuses (the wall is there).
"""

from __future__ import annotations

from typing import Any

from corridorquest.engine import (
    EngineError,
    GameState,
    PlaceWall,
    Seat,
    Step,
    format_square,
    format_wall,
    initial_walls,
)

KINDS = ("move", "jump", "wall")


def state_from_game(game: dict[str, Any]) -> GameState | None:
    """A GameState for a started game's visible position; None when there is none."""
    if game.get("status") != "started" or not game.get("turn"):
        return None
    turn = str(game["turn"])
    size, players = int(game["size"]), int(game["players"])
    walls_left = {}
    for seat in game.get("seats") or []:
        left = seat.get("walls_left")
        walls_left[seat["seat"]] = initial_walls(size, players) if left is None else int(left)
    data = {
        "size": size,
        "players": players,
        "first": turn,
        "turn": turn,
        "winner": None,
        "ply": 0,
        "pawns": dict(game.get("pawns") or {}),
        "walls": [[w["wall"], w.get("owner") or turn] for w in game.get("walls") or []],
        "walls_left": walls_left,
        "passes": [],
    }
    try:
        return GameState.from_dict(data)
    except (EngineError, KeyError, ValueError):
        return None


def direction_word(dcol: int, drow: int) -> str:
    vertical = "north" if drow > 0 else "south" if drow < 0 else ""
    horizontal = "east" if dcol > 0 else "west" if dcol < 0 else ""
    return "-".join(part for part in (vertical, horizontal) if part)


def legal_targets(game: dict[str, Any], kind: str) -> list[str]:
    """What ``move``/``jump``/``wall`` may name now: squares (and compass words) or walls."""
    state = state_from_game(game)
    if state is None or state.turn is None:
        return []
    if kind == "wall":
        return sorted(format_wall(a.wall) for a in state.legal_walls() if isinstance(a, PlaceWall))
    here = state.pawns[Seat(state.turn)]
    squares: list[str] = []
    words: list[str] = []
    for step in state.legal_steps():
        if not isinstance(step, Step) or step.jump != (kind == "jump"):
            continue
        squares.append(format_square(step.to))
        dcol, drow = step.to.col - here.col, step.to.row - here.row
        words.append(direction_word(dcol, drow))
    return sorted(words) + sorted(squares)
