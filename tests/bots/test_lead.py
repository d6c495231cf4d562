"""A bot that leads a race walks on (issue 51): it never waits in place while the opponent
walks round, and never steps back onto a square it stood on since the last wall."""

from __future__ import annotations

from collections import Counter

import pytest

from corridorquest.bots import Level, seat_view
from corridorquest.bots.race import play_with_trails, trail_from_history
from corridorquest.engine import GameRecord, GameState, Seat
from tests.bots.referee import play_bot_game
from tests.bots.test_play import _PACED

# A small budget of level 6's kind (wide root, no noise): the search that paced
SMALL = Level(nodes=300, walls=8, wide=True, noise=0.0)


def _far_ahead() -> GameState:
    """South to move on c6, 5 steps from its goal, 3 walls; North 12 steps, 6 walls. Level
    6 stepped c6-c5-c6-c5 here for sixteen plies while North walked round."""
    state = GameState.new(9, 2, Seat.NORTH)
    for text in _PACED:
        state.play_notation(text)
    data = state.to_dict() | {"walls_left": {"south": 3, "north": 6}}
    return GameState.from_dict(data)


@pytest.mark.parametrize("level", [SMALL, 4])
def test_a_bot_far_ahead_with_fewer_walls_walks_on(level: Level | int) -> None:
    state = _far_ahead()
    assert state.distance(Seat.NORTH) - state.distance(Seat.SOUTH) == 7
    start = state.distance(Seat.SOUTH)
    # four moves of South (knowing its trail, as from the game's history); North walks
    # meanwhile (level 1 without a wall to place now and then)
    levels: dict[Seat, Level | int] = {Seat.SOUTH: level, Seat.NORTH: 1}
    played = play_bot_game(state, levels, 7, history=True, max_plies=state.ply + 8)  # type: ignore[arg-type]
    south = played.actions[0::2]
    steps = [text for text in south if not text.endswith(("h", "v"))]
    assert len(set(steps)) == len(steps) and "c6" not in steps, south  # never back
    assert start - state.distance(Seat.SOUTH) >= 2, south  # it went on towards its goal
    assert state.distance(Seat.NORTH) - state.distance(Seat.SOUTH) >= 5, south


@pytest.mark.parametrize(("levels", "seed"), [((SMALL, 3), 1), ((4, SMALL), 2), ((2, 4), 3)])
def test_no_bot_comes_back_to_a_square_while_no_wall_is_placed(
    levels: tuple[Level | int, Level | int], seed: int
) -> None:
    # Walls are never removed, so a position can only come back between two walls: there a
    # bot that stands on a square a second time is pacing (level 6 did so for sixteen plies
    # in a race it led). Across walls a pawn may pass a square again: the maze changed
    # (a whole game's count can be 4 without any pacing, each visit after a new wall).
    state = GameState.new(9, 2, Seat.NORTH)
    budgets = dict(zip(state.seats, levels, strict=True))
    played = play_bot_game(state, budgets, seed, history=True)  # type: ignore[arg-type]
    assert state.winner is not None
    replay = GameState.new(9, 2, Seat.NORTH)
    visits: Counter[tuple[Seat, str]] = Counter()
    most = 0
    for text in played.actions:
        seat = replay.turn
        assert seat is not None
        replay.play_notation(text)
        if text.endswith(("h", "v")):
            visits.clear()
        else:
            visits[(seat, str(replay.pawns[seat]))] += 1
            most = max(most, visits[(seat, str(replay.pawns[seat]))])
    assert most <= 2, visits.most_common(3)  # twice: only when walked into a dead end


def test_the_trail_is_what_the_seat_sees_in_the_history() -> None:
    record = GameRecord(9, 2, 4, [])
    first = record.replay().turn
    assert first is not None
    other = Seat.SOUTH if first is Seat.NORTH else Seat.NORTH
    start = GameState.new(9, 2, first)
    mine, theirs = str(start.pawns[first]), str(start.pawns[other])
    f, o = mine[0], theirs[0]
    up = 1 if first is Seat.SOUTH else -1
    r1, r2 = int(mine[1:]), int(theirs[1:])
    # the first mover steps, the other steps, a wall, the other steps back, a step, a wall
    record.actions = [f"{f}{r1 + up}", f"{o}{r2 - up}", "d5h", f"{o}{r2}", f"{f}{r1 + 2 * up}"]
    state, trails = play_with_trails(GameState.new(9, 2, first), record.actions)
    # since the wall d5h: the first mover stood on its square and stepped on
    assert trails[first] == (f"{f}{r1 + up}", f"{f}{r1 + 2 * up}")
    assert trails[other] == (f"{o}{r2 - up}", f"{o}{r2}")
    # as the API shows it to the other seat: the opponent's invisible walls without notation
    history = [
        {"seat": (first if i % 2 == 0 else other).value,
         "type": "wall" if text.endswith(("h", "v")) else "move",
         "notation": None if text.endswith(("h", "v")) else text}
        for i, text in enumerate(record.actions)
    ]
    assert trail_from_history(history, first, mine) == trails[first]
    assert trail_from_history(history, other, theirs) == trails[other]
    assert seat_view(record, first).trail == trails[first]  # a record's view has it too
    record.actions.append("c3v")  # a wall: every trail starts again
    assert seat_view(record, other).trail == (f"{o}{r2}",)
