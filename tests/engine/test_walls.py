"""Walls (SPEC §2): what they block, overlap and crossing, borders, the path rule, the stock."""

from __future__ import annotations

import pytest

from corridorquest.engine import (
    GameState,
    IllegalActionError,
    NotationError,
    PlaceWall,
    Seat,
    Wall,
    format_wall,
    parse_wall,
)
from corridorquest.engine import initial_walls as engine_initial_walls

from .engine_helpers import legal, move_targets, pawns, position, reference, setup
from .reference import SIZES, initial_walls

COLUMNS = "abcdefghijklmnopq"


def refuses(state: GameState, text: str, message: str) -> None:
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as caught:
        state.play(state.parse_action(text, "wall"), text)
    assert str(caught.value) == message
    assert state.to_dict() == before
    assert text not in legal(state)


def test_wall_notation_names_the_block_square_closest_to_a1() -> None:
    assert parse_wall("c3h", 9) == Wall(2, 2, "h")
    assert parse_wall("c3v", 9) == Wall(2, 2, "v")
    assert format_wall(Wall(15, 15, "v")) == "p16v"


def test_vertical_wall_c3v_blocks_c3_d3_and_c4_d4_only() -> None:
    for square, blocked in [("c3", "d3"), ("c4", "d4")]:
        state, _ = setup(9, 2, "south", {"south": square}, walls="c3v")
        assert blocked not in move_targets(state)
    for square, free in [("c2", "d2"), ("c5", "d5"), ("b3", "c3"), ("d3", "e3")]:
        state, _ = setup(9, 2, "south", {"south": square}, walls="c3v")
        assert free in move_targets(state)
    state, _ = setup(9, 2, "south", {"south": "d4"}, walls="c3v")
    assert move_targets(state) == ["d3", "d5", "e4"]
    state, _ = setup(9, 2, "south", {"south": "c3"}, walls="c3v")
    assert move_targets(state) == ["b3", "c2", "c4"]


def test_horizontal_wall_c3h_blocks_c3_c4_and_d3_d4_only() -> None:
    state, _ = setup(9, 2, "south", {"south": "c3"}, walls="c3h")
    assert move_targets(state) == ["b3", "c2", "d3"]
    state, _ = setup(9, 2, "south", {"south": "d4"}, walls="c3h")
    assert move_targets(state) == ["c4", "d5", "e4"]
    for square, free in [("b3", "b4"), ("e3", "e4"), ("c2", "c3"), ("c4", "c5")]:
        state, _ = setup(9, 2, "south", {"south": square}, walls="c3h")
        assert free in move_targets(state)


def test_overlapping_wall_error_names_the_wall_it_overlaps() -> None:
    state, _ = setup(9, 2, "south", walls="e3v")
    refuses(state, "e4v", "e4v: overlaps wall e3v")


@pytest.mark.parametrize(("placed", "refused"), [
    ("c3h", "c3h"), ("c3h", "b3h"), ("c3h", "d3h"),
    ("c3v", "c3v"), ("c3v", "c2v"), ("c3v", "c4v"),
])
def test_full_and_partial_overlaps_are_refused(placed: str, refused: str) -> None:
    state, ref = setup(9, 2, "south", walls=placed)
    refuses(state, refused, f"{refused}: overlaps wall {placed}")
    assert refused not in ref.legal_actions()


@pytest.mark.parametrize(("placed", "refused"), [("c3h", "c3v"), ("c3v", "c3h"),
                                                 ("a1h", "a1v"), ("h8v", "h8h")])
def test_crossing_walls_are_refused(placed: str, refused: str) -> None:
    state, _ = setup(9, 2, "south", walls=placed)
    refuses(state, refused, f"{refused}: crosses wall {placed}")


@pytest.mark.parametrize(("placed", "touching"), [
    ("c3h", "d3v"),  # T: the end of c3h touches the middle of d3v
    ("c3h", "c4v"),  # upside-down T
    ("c3h", "c2v"),  # T pointing down
    ("c3h", "b3v"),  # T at the west end
    ("c3h", "d4v"),  # L
    ("c3h", "b2v"),  # L below the west end
    ("c3h", "a3h"),  # end to end in a line
    ("c3h", "e3h"),
    ("c3v", "c5v"),  # end to end vertically
    ("c3v", "c1v"),
    ("c3v", "b3h"),  # T the other way round
    ("c3v", "d3h"),
    ("c3v", "c2h"),
    ("c3v", "c4h"),
    ("c3h", "c4h"),  # parallel, one row apart
    ("c3v", "d3v"),  # parallel, one column apart
])
def test_touching_walls_t_l_and_lines_are_legal(placed: str, touching: str) -> None:
    state, ref = setup(9, 2, "south", walls=placed)
    assert touching in legal(state)
    assert legal(state) == ref.legal_actions()
    state.play(state.parse_action(touching, "wall"))
    assert [format_wall(w) for w, _ in state.walls] == [placed, touching]


@pytest.mark.parametrize("size", SIZES)
def test_walls_along_every_border_are_legal(size: int) -> None:
    last = size - 1  # the last wall column/row is size - 2, named by 1-based size - 1
    corners = [f"a1{o}" for o in "hv"] + [f"{COLUMNS[last - 1]}{last}{o}" for o in "hv"]
    edges = [f"{COLUMNS[c]}1h" for c in range(0, last, 2)]  # along the south edge
    edges += [f"{COLUMNS[c]}{last}h" for c in range(1, last, 2)]  # along the north edge
    edges += [f"a{r}v" for r in range(2, last + 1, 2)]  # along the west edge
    edges += [f"{COLUMNS[last - 1]}{r}v" for r in range(1, last, 2)]  # along the east edge
    state = position(size, 2, "north")
    for text in corners + edges:
        assert text in legal(state), text
    for text in ["a1h", f"{COLUMNS[last - 1]}{last}v", f"{COLUMNS[last - 1]}1h", f"a{last}v"]:
        state = position(size, 2, "north")
        state.play(state.parse_action(text, "wall"))
        assert [format_wall(w) for w, _ in state.walls] == [text]


@pytest.mark.parametrize("size", SIZES)
def test_walls_off_the_board_are_refused_as_notation(size: int) -> None:
    state = position(size, 4, "north")
    last_col, last_row = COLUMNS[size - 1], size
    outside = [f"{last_col}1h", f"{last_col}1v", f"a{last_row}h", f"a{last_row}v",
               f"{last_col}{last_row}h", f"a{size + 1}v", "a0h"]
    for text in outside:
        with pytest.raises(NotationError) as caught:
            state.parse_action(text, "wall")
        assert str(caught.value).startswith(f"{text}: does not fit on a {size}x{size} board")
    assert all(text not in legal(state) for text in outside)


def test_nine_by_nine_wall_that_does_not_fit_names_the_range() -> None:
    state = position(9, 2)
    with pytest.raises(NotationError, match=r"^i9h: does not fit on a 9x9 board \(walls run "
                       r"from a1 to h8\)$"):
        state.parse_action("i9h", "wall")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [2, 4])
def test_every_player_starts_with_the_walls_of_the_table(size: int, players: int) -> None:
    state = GameState.new(size=size, players=players, first=Seat.NORTH)
    expected = initial_walls(size, players)
    assert engine_initial_walls(size, players) == expected
    assert set(state.walls_left.values()) == {expected}
    assert len(state.walls_left) == players
    walls = [a for a in state.legal_actions() if isinstance(a, PlaceWall)]
    assert len(walls) == 2 * (size - 1) ** 2


def test_the_rules_page_corridor_c2h_leaves_south_without_a_path() -> None:
    state, ref = setup(5, 2, "north", walls="b1v c1v")
    refuses(state, "c2h", "c2h: would leave South without a path")
    refuses(state, "b2h", "b2h: would leave South without a path")
    assert "d2h" in legal(state)
    assert legal(state) == ref.legal_actions()


def test_a_wall_may_not_shut_in_the_player_who_places_it() -> None:
    state, _ = setup(5, 2, "south", walls="b1v c1v")
    refuses(state, "c2h", "c2h: would leave South without a path")


def corridor(size: int, players: int) -> tuple[str, list[str]]:
    """A corridor down the centre column, both sides walled from row 2 to the top.

    South steps into it on its first turn; everyone else places the corridor walls. North
    (at the top) can only reach row 1 through the square South stands on.
    """
    mid = size // 2
    walls = []
    for row in range(size - 2, 0, -2):
        walls += [f"{COLUMNS[mid - 1]}{row + 1}v", f"{COLUMNS[mid]}{row + 1}v"]
    order = ["north", "south"] if players == 2 else ["north", "east", "south", "west"]
    moves: list[str] = []
    turn = 0
    south_moved = False
    while walls:
        if order[turn % players] == "south" and not south_moved:
            moves.append(f"{COLUMNS[mid]}2")
            south_moved = True
        else:
            moves.append(walls.pop(0))
        turn += 1
    return order[turn % players], moves


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [2, 4])
def test_path_rule_on_every_size_with_pawns_standing_in_the_way(size: int, players: int) -> None:
    """Pawns never block a path: North's only way passes through South's square."""
    _to_move, moves = corridor(size, players)
    state = position(size, players, "north", " ".join(moves))
    ref = reference(size, players, "north", " ".join(moves))
    mid = COLUMNS[size // 2]
    assert pawns(state)["south"] == f"{mid}2"
    assert len(state.walls) == size - 1
    assert state.distance(Seat.NORTH) == size - 1
    assert legal(state) == ref.legal_actions()
    closing = f"{mid}3h"
    assert state.turn is not None and state.walls_left[state.turn] > 0
    refuses(state, closing, f"{closing}: would leave North without a path")


def test_last_wall_can_be_placed_and_then_none() -> None:
    state, _ = setup(9, 2, "north", walls_left={"north": 1})
    assert any(isinstance(a, PlaceWall) for a in state.legal_actions())
    state.play(state.parse_action("a1h"))
    assert state.walls_left[Seat.NORTH] == 0
    state.play(state.parse_action("e2"))
    assert not any(isinstance(a, PlaceWall) for a in state.legal_actions())
    refuses(state, "c3h", "c3h: North has no walls left")


def test_placing_a_wall_spends_one_wall_and_records_the_owner() -> None:
    state = position(9, 4, "east", "c3h d5v")
    assert [(format_wall(w), seat.value) for w, seat in state.walls] == [
        ("c3h", "east"), ("d5v", "south")]
    assert {s.value: n for s, n in state.walls_left.items()} == {
        "north": 5, "east": 4, "south": 4, "west": 5}


def test_stale_jump_edge_does_not_open_a_sealed_pocket_after_the_jumper_left() -> None:
    """Regression: South could jump c2->c4 over North, stepped back to c1, and the pocket
    {c1, c2} is then closed by c2h: that must be refused (no jump edge left behind)."""
    state = position(5, 2, "north", "b1v c2 c4 c1v c3")
    assert pawns(state) == {"north": "c3", "south": "c2"}
    assert "c4" in legal(state)  # the jump that a buggy engine would remember
    state.play(state.parse_action("c1"))
    assert "c2h" not in legal(state)
    refuses(state, "c2h", "c2h: would leave South without a path")


def test_stale_jump_edge_does_not_survive_the_jumped_pawn_moving_away() -> None:
    state = position(5, 2, "north", "b1v c2 c4 c1v c3")
    assert "c4" in legal(state)
    state.play(state.parse_action("a4h"))
    state.play(state.parse_action("d3"))
    assert pawns(state) == {"north": "d3", "south": "c2"}
    assert "c2h" not in legal(state)
    refuses(state, "c2h", "c2h: would leave South without a path")
    assert legal(state) == reference(5, 2, "north", "b1v c2 c4 c1v c3 a4h d3").legal_actions()
