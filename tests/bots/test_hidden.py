"""A bot's input in a hidden-walls game is its seat's view (SPEC §4 and §13)."""

from __future__ import annotations

import pytest

from corridorquest.bots import choose, knowledge, seat_view
from corridorquest.bots.view import bumped_edge, crossed_edges
from corridorquest.engine import GameState, IllegalActionError, Seat, Square, parse_square


def _walled_in_front_of_south() -> GameState:
    """South on e1 without walls, to move; North's wall d1h stands right in front of it."""
    return GameState.from_dict(
        {
            "size": 9,
            "players": 2,
            "first": "north",
            "turn": "south",
            "winner": None,
            "ply": 1,
            "pawns": {"north": "e9", "south": "e1"},
            "walls": [["d1h", "north"]],
            "walls_left": {"north": 9, "south": 0},
            "passes": [],
        }
    )


def test_an_invisible_wall_is_not_in_the_bots_input() -> None:
    state = _walled_in_front_of_south()
    view = seat_view(state, Seat.SOUTH, invisible=True)
    assert view.walls == ()
    assert "d1h" not in str(view.to_dict())
    assert knowledge(view).walls == []
    # the view of a game with the wall and of one without it are the same to the bot
    bare = state.to_dict() | {"walls": []}
    assert seat_view(GameState.from_dict(bare), Seat.SOUTH, invisible=True) == view


@pytest.mark.parametrize("level", [1, 3, 6])
def test_a_bot_cannot_avoid_an_invisible_wall_it_has_not_bumped_into(level: int) -> None:
    state = _walled_in_front_of_south()
    seen_all = choose(state, level, 1)
    assert seen_all != "e2"  # knowing the wall, it goes round it
    state.copy().play_notation(seen_all)

    view = seat_view(state, Seat.SOUTH, invisible=True)
    blind = choose(view, level, 1)
    assert blind == "e2"  # its shortest path, through the wall it cannot see
    with pytest.raises(IllegalActionError, match="wall between e1 and e2"):
        state.copy().play_notation(blind)

    # once it has bumped into the edge it knows it, as a player does, and goes round
    bumped = seat_view(state, Seat.SOUTH, invisible=True, blocked=["e1h"], refused=["e2"])
    after = choose(bumped, level, 1)
    assert after != "e2"
    state.copy().play_notation(after)
    # and it still knows the edge on its next turns (no refused list any more)
    later = seat_view(state, Seat.SOUTH, invisible=True, blocked=["e1h"])
    assert choose(later, level, 1) != "e2"


def test_in_a_masked_game_the_bot_sees_positions_not_owners_or_counts() -> None:
    state = GameState.new(9, 2, Seat.NORTH)
    for text in ("e8", "c3h", "e7", "f6v"):
        state.play_notation(text)
    view = seat_view(state, Seat.NORTH, masked=True)
    assert view.walls_left is None
    assert set(view.walls) == {"c3h", "f6v"}
    assert "south" not in str(view.to_dict()["walls"])
    # what it can work out: the walls it did not place are the opponent's
    known = knowledge(view)
    assert known.walls_left == {Seat.NORTH: 10, Seat.SOUTH: 8}
    assert choose(view, 3, 2) in {str(a) for a in known.legal_actions()}


def _walled_behind_north() -> GameState:
    """South on e4 to move, North on e5 just ahead; North's wall d5h stands behind North:
    the jump e6, South's shortest way, runs into it."""
    return GameState.from_dict(
        {
            "size": 9,
            "players": 2,
            "first": "north",
            "turn": "south",
            "winner": None,
            "ply": 9,
            "pawns": {"north": "e5", "south": "e4"},
            "walls": [["d5h", "north"]],
            "walls_left": {"north": 9, "south": 10},
            "passes": [],
        }
    )


@pytest.mark.parametrize("level", [1, 3, 6])
def test_a_bot_that_bumped_into_an_invisible_wall_by_a_jump_never_tries_that_edge_again(
    level: int,
) -> None:
    state = _walled_behind_north()
    blind = choose(seat_view(state, Seat.SOUTH, invisible=True), level, 1)
    assert blind == "e6"  # the jump over North, into the wall it cannot see
    with pytest.raises(IllegalActionError) as refused:
        state.copy().play_notation(blind)
    # what the refusal tells the seat: the edge behind North, not the squares it stood on
    edge = bumped_edge(str(refused.value), 9)
    assert edge == "e5h"
    # on this turn and on every later one, it never runs into that edge again
    for tried in (["e6"], []):
        view = seat_view(state, Seat.SOUTH, invisible=True, blocked=[edge], refused=tried)
        again = choose(view, level, 1)
        assert again != "e6"
        if not again.endswith(("h", "v")):
            pawn = state.pawns[Seat.SOUTH]
            assert edge not in crossed_edges(state.pawns, pawn, parse(again))
        state.copy().play_notation(again)


def parse(text: str) -> Square:
    return parse_square(text, 9)
