"""Moves and jumps (SPEC §2), each rule with the rules page's example and error text."""

from __future__ import annotations

import pytest

from corridorquest.engine import (
    GameState,
    IllegalActionError,
    Seat,
    Step,
    format_square,
    parse_square,
    start_square,
)

from .engine_helpers import (
    jump_targets,
    legal,
    move_targets,
    pawns,
    position,
    setup,
    step_targets,
    turn,
)
from .reference import SIZES, RefGame


def refuses(state: GameState, text: str, kind: str | None, message: str) -> None:
    """The action is refused with exactly ``message`` and the position is unchanged."""
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as caught:
        state.play(state.parse_action(text, kind), text)
    assert str(caught.value) == message
    assert state.to_dict() == before


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [2, 4])
def test_every_pawn_starts_at_the_centre_of_its_edge(size: int, players: int) -> None:
    state = GameState.new(size=size, players=players, first=Seat.NORTH)
    ref = RefGame.new(size, players)
    mid, last, centre = "abcdefghijklmnopq"[size // 2], "abcdefghijklmnopq"[size - 1], size // 2 + 1
    expected = {"north": f"{mid}{size}", "south": f"{mid}1", "east": f"{last}{centre}",
                "west": f"a{centre}"}
    assert pawns(state) == {seat: expected[seat] for seat in ref.seats}
    assert {seat: format_square(start_square(Seat(seat), size)) for seat in expected} == expected


def test_two_player_games_have_only_north_and_south() -> None:
    state = GameState.new(size=9, players=2, first=Seat.SOUTH)
    assert set(state.pawns) == {Seat.NORTH, Seat.SOUTH}
    assert pawns(state) == {"north": "e9", "south": "e1"}
    four = GameState.new(size=9, players=4, first=Seat.SOUTH)
    assert pawns(four) == {"north": "e9", "east": "i5", "south": "e1", "west": "a5"}


def test_pawn_moves_one_square_in_each_free_direction() -> None:
    state, ref = setup(9, 2, "south", {"south": "e4"})
    assert move_targets(state) == ["d4", "e3", "e5", "f4"]
    state.play(state.parse_action("north"))
    assert pawns(state)["south"] == "e5"
    ref.play("e5")
    assert legal(state) == ref.legal_actions()


def test_move_refused_by_a_wall_on_the_way() -> None:
    state, _ = setup(9, 2, "south", {"south": "e5"}, walls="e5h")
    assert move_targets(state) == ["d5", "e4", "f5"]
    refuses(state, "north", "move", "north: wall between e5 and e6")
    refuses(state, "e6", None, "e6: wall between e5 and e6")


def test_move_refused_off_the_edge_of_the_board() -> None:
    state = position(9, 2, "north")
    refuses(state, "north", "move", "north: e9 is at the edge of the board")


def test_move_onto_a_pawn_is_refused_and_names_the_pawn() -> None:
    state, _ = setup(5, 2, "south", {"north": "c3", "south": "c2"})
    refuses(state, "north", "move", "north: c3 is occupied by North")


def test_move_must_be_one_square_away() -> None:
    state = position(9, 2, "north")
    refuses(state, "e4", "move", "e4: not next to e9: a move goes one square north, east, "
            "south or west")


def test_diagonal_move_is_refused() -> None:
    state, _ = setup(5, 2, "south", {"south": "c2"})
    refuses(state, "north-west", "move", "north-west: a move goes one square north, east, "
            "south or west; a diagonal is only possible as a jump")


def test_jump_with_nobody_to_jump_over_is_refused() -> None:
    state = position(9, 2, "north")
    refuses(state, "e7", "jump", "e7: no pawn on e8 to jump over")


def test_straight_jump_over_an_adjacent_pawn() -> None:
    state, ref = setup(5, 2, "south", {"north": "c3", "south": "c2"})
    assert jump_targets(state) == ["c4"]
    assert step_targets(state) == ["b2", "c1", "c4", "d2"]
    action = state.parse_action("north", "jump")
    assert action == Step(parse_square("c4", 5), True)
    state.play(action)
    ref.play("c4")
    assert pawns(state)["south"] == "c4"
    assert legal(state) == ref.legal_actions()


def test_straight_jump_blocked_by_wall_allows_diagonals() -> None:
    state, ref = setup(5, 2, "south", {"north": "c3", "south": "c2"}, walls="c3h")
    assert jump_targets(state) == ["b3", "d3"]
    assert legal(state) == ref.legal_actions()
    refuses(state, "north", "jump", "north: wall between c3 and c4")


def test_diagonal_jump_blocked_by_a_wall_beside_the_jumped_pawn() -> None:
    state, ref = setup(5, 2, "south", {"north": "c3", "south": "c2"}, walls="c3h b3v")
    assert jump_targets(state) == ["d3"]
    assert legal(state) == ref.legal_actions()
    refuses(state, "b3", "jump", "b3: wall between c3 and b3")
    refuses(state, "north-west", "jump", "north-west: wall between c3 and b3")


def test_both_diagonals_walled_leave_no_jump() -> None:
    state, ref = setup(5, 2, "south", {"north": "c3", "south": "c2"}, walls="c3h b2v c2v")
    assert jump_targets(state) == []
    assert legal(state) == ref.legal_actions()


def test_straight_jump_blocked_by_pawn_allows_diagonals() -> None:
    state, ref = setup(5, 4, "south", {"north": "c3", "south": "c2", "east": "c4"})
    assert jump_targets(state) == ["b3", "d3"]
    assert legal(state) == ref.legal_actions()
    refuses(state, "north", "jump", "north: c4 is occupied by East")


def test_straight_jump_blocked_by_board_edge_allows_diagonals() -> None:
    state, ref = setup(5, 4, "south", {"south": "b3", "west": "a3"})
    assert jump_targets(state) == ["a2", "a4"]
    assert legal(state) == ref.legal_actions()
    refuses(state, "west", "jump", "west: a3 is at the edge of the board; jump diagonally instead")


def test_diagonal_jump_refused_while_the_straight_jump_is_open() -> None:
    state, _ = setup(5, 2, "south", {"north": "c3", "south": "c2"})
    refuses(state, "north-west", "jump", "north-west: a diagonal jump is allowed only when the "
            "straight jump over c3 is blocked")
    refuses(state, "b3", None, "b3: a diagonal jump is allowed only when the "
            "straight jump over c3 is blocked")


def test_no_jump_over_a_wall_between_the_pawns() -> None:
    state, ref = setup(5, 2, "south", {"north": "c3", "south": "c2"}, walls="c2h")
    assert step_targets(state) == ["b2", "c1", "d2"]
    assert legal(state) == ref.legal_actions()


def test_never_jump_two_pawns_in_a_row() -> None:
    state, ref = setup(7, 4, "south", {"south": "d2", "north": "d3", "east": "d4"})
    assert "d5" not in step_targets(state)
    assert jump_targets(state) == ["c3", "e3"]
    assert legal(state) == ref.legal_actions()


def test_diagonal_landing_square_occupied_by_a_pawn_is_refused() -> None:
    state, ref = setup(5, 4, "south", {"north": "c3", "south": "c2", "east": "c4", "west": "b3"})
    assert jump_targets(state) == ["d3"]
    assert legal(state) == ref.legal_actions()
    refuses(state, "b3", "jump", "b3: b3 is occupied by West")


def test_crowded_pawn_with_no_free_neighbour_has_only_walls() -> None:
    state, ref = setup(5, 4, "south", {"south": "a1", "north": "a2", "east": "b1", "west": "c1"},
                       walls="a1h")
    assert step_targets(state) == []
    assert legal(state) == ref.legal_actions()
    assert legal(state)


def test_four_player_crowd_in_the_centre() -> None:
    state = position(5, 4, "north", "c4 d3 c2 b3 c3")
    assert pawns(state) == {"north": "c3", "east": "d3", "south": "c2", "west": "b3"}
    assert turn(state) == "east"
    assert step_targets(state) == ["c4", "d2", "d4", "e3"]
    assert jump_targets(state) == ["c4"]
    state.play(state.parse_action("up-left", "jump"))
    assert pawns(state)["east"] == "c4"
    assert turn(state) == "south"
    assert jump_targets(state) == ["d3"]


def test_jump_onto_the_goal_edge_wins() -> None:
    state, _ = setup(5, 2, "south", {"north": "c4", "south": "c3"})
    state.play(state.parse_action("north", "jump"))
    assert pawns(state)["south"] == "c5"
    assert state.winner is Seat.SOUTH
    assert state.is_finished and state.turn is None
    assert state.legal_actions() == []


def test_diagonal_jump_onto_the_goal_edge_wins() -> None:
    state, _ = setup(5, 2, "south", {"north": "c5", "south": "c4"})
    assert jump_targets(state) == ["b5", "d5"]
    state.play(state.parse_action("up-right"))
    assert state.winner is Seat.SOUTH and pawns(state)["south"] == "d5"


def test_moving_onto_the_goal_edge_wins_for_every_seat() -> None:
    for seat, square, goal in [("north", "b2", "south"), ("south", "b4", "north"),
                               ("east", "b2", "west"), ("west", "d2", "east")]:
        state, _ = setup(5, 4, seat, {seat: square})
        state.play(state.parse_action(goal, "move"))
        assert state.winner is Seat(seat)
        assert state.legal_actions() == []


def test_diagonal_jump_ignores_walls_that_do_not_separate_landing_and_jumped_pawn() -> None:
    # a2h blocks b2/b3 (beside South, not beside North): the landing b3 stays reachable.
    state, ref = setup(5, 2, "south", {"north": "c3", "south": "c2"}, walls="c3h a2h")
    assert jump_targets(state) == ["b3", "d3"]
    assert legal(state) == ref.legal_actions()


def test_jump_against_a_corner_offers_only_the_diagonal_on_the_board() -> None:
    state, ref = setup(5, 4, "west", {"west": "a2", "south": "a1"})
    assert jump_targets(state) == ["b1"]
    assert legal(state) == ref.legal_actions()


def test_one_diagonal_occupied_and_the_other_walled_leaves_no_jump() -> None:
    state, ref = setup(5, 4, "south", {"south": "c2", "north": "c3", "east": "c4", "west": "b3"},
                       walls="c3v")
    assert jump_targets(state) == []
    assert move_targets(state) == ["b2", "c1", "d2"]
    assert legal(state) == ref.legal_actions()


def test_each_of_several_neighbours_can_be_jumped() -> None:
    state, ref = setup(7, 4, "south", {"south": "d4", "north": "d5", "east": "e4", "west": "c4"})
    assert jump_targets(state) == ["b4", "d6", "f4"]
    assert move_targets(state) == ["d3"]
    assert legal(state) == ref.legal_actions()
