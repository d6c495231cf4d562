"""Four players: who stops a pawn that is about to win.

Between the bot's move and a pawn's next move, the seats in between move too. The seat just
before a pawn is the last one who can wall it; the bot walls the seat after it (nobody else
can), and leaves a leader further round the table to the seat just before that leader,
keeping its own wall and tempo (the search of ``corridorquest.bots.search.ModelSearch``).
"""

from __future__ import annotations

import pytest

from corridorquest.bots import choose
from corridorquest.engine import GameState, Seat


def _position(pawns: dict[str, str]) -> GameState:
    """North (the bot) to move, everybody holding five walls, no wall on the board."""
    return GameState.from_dict(
        {
            "size": 9,
            "players": 4,
            "first": "north",
            "turn": "north",
            "winner": None,
            "ply": 24,
            "pawns": pawns,
            "walls": [],
            "walls_left": dict.fromkeys(pawns, 5),
            "passes": [],
        }
    )


def _is_wall(action: str) -> bool:
    return action.endswith(("h", "v"))


@pytest.mark.parametrize("level", [2, 4, 6])
def test_the_bot_walls_the_next_seat_when_it_is_about_to_win(level: int) -> None:
    # East moves right after North and reaches column a with one step: only North can stop it
    state = _position({"north": "e6", "east": "b4", "south": "e2", "west": "b7"})
    assert state.distance(Seat.EAST) == 1 and state.distance(Seat.NORTH) == 5
    action = choose(state, level, 1)
    assert _is_wall(action), action
    after = state.copy()
    after.play_notation(action)
    assert after.distance(Seat.EAST) >= 2  # East cannot win on its move any more


@pytest.mark.parametrize("level", [2, 4, 6])
def test_the_bot_leaves_a_leader_to_the_seat_just_before_it(level: int) -> None:
    # South is one step from row 9, but East moves between North and South and holds five
    # walls: East stops South (or loses itself); North keeps its walls and its tempo for
    # the race after that
    state = _position({"north": "e6", "east": "h3", "south": "c8", "west": "b2"})
    assert state.distance(Seat.SOUTH) == 1 and state.distance(Seat.NORTH) == 5
    action = choose(state, level, 1)
    assert not _is_wall(action), action
