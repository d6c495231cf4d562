"""Every notation the server accepts (SPEC §2), and the two distinct kinds of error."""

from __future__ import annotations

import itertools

import pytest

from corridorquest.engine import (
    EngineError,
    GameOverError,
    IllegalActionError,
    NotationError,
    PlaceWall,
    ReplayError,
    Square,
    Step,
    Wall,
    format_action,
    format_square,
    parse_square,
)

from .engine_helpers import pawns, position, setup

COMPASS = {"north": "up", "south": "down", "east": "right", "west": "left"}
SEPARATORS = ["-", ",", "_", " ", ""]


def spellings(vertical: str, horizontal: str) -> list[str]:
    """Every order and separator of a diagonal, in compass and directional words."""
    result = []
    for a, b in [(vertical, horizontal), (COMPASS[vertical], COMPASS[horizontal])]:
        for first, second in [(a, b), (b, a)]:
            result += [f"{first}{sep}{second}" for sep in SEPARATORS]
    return result


def test_squares_parse_and_format_in_chess_notation() -> None:
    assert parse_square("a1", 9) == Square(0, 0)
    assert parse_square("e4", 9) == Square(4, 3)
    assert parse_square("q17", 17) == Square(16, 16)
    assert parse_square("c10", 11) == Square(2, 9)
    assert format_square(Square(16, 16)) == "q17"
    assert format_action(Step(Square(4, 3), False)) == "e4"
    assert format_action(Step(Square(4, 5), True)) == "e6"
    assert format_action(PlaceWall(Wall(2, 2, "v"))) == "c3v"
    for size in (5, 7, 9, 11, 13, 15, 17):
        for col in range(size):
            for row in range(size):
                assert parse_square(format_square(Square(col, row)), size) == (col, row)


def test_absolute_compass_and_directional_moves_agree() -> None:
    for spellings_of_one in [("e8", "south", "down", "SOUTH", "Down"),
                             ("d9", "west", "left", "West"), ("f9", "east", "right")]:
        targets = set()
        for text in spellings_of_one:
            for kind in (None, "move"):
                state = position(9, 2, "north")
                action = state.parse_action(text, kind)
                assert action == Step(parse_square(spellings_of_one[0], 9), False)
                state.play(action)
                targets.add(pawns(state)["north"])
        assert targets == {spellings_of_one[0]}


@pytest.mark.parametrize("text", ["north", "up", "NORTH", "Up", "c4"])
def test_straight_jump_in_every_notation(text: str) -> None:
    for kind in (None, "jump"):
        state, _ = setup(5, 2, "south", {"north": "c3", "south": "c2"})
        action = state.parse_action(text, kind)
        assert action == Step(Square(2, 3), True)
        state.play(action)
        assert pawns(state)["south"] == "c4"


@pytest.mark.parametrize(("vertical", "horizontal", "lands"), [
    ("north", "west", "b3"), ("north", "east", "d3"),
    ("south", "west", "b3"), ("south", "east", "d3"),
])
def test_diagonal_jump_in_every_order_and_separator(vertical: str, horizontal: str,
                                                     lands: str) -> None:
    # South on c2 (or c4) faces North on c3 with a wall behind it: both diagonals are open.
    south, wall = ("c2", "c3h") if vertical == "north" else ("c4", "c2h")
    texts = spellings(vertical, horizontal)
    texts += [t.upper() for t in texts[:3]] + [t.title() for t in texts[5:8]]
    for text in texts:
        for kind in (None, "jump"):
            state, _ = setup(5, 2, "south", {"north": "c3", "south": south}, walls=wall)
            action = state.parse_action(text, kind)
            assert action == Step(parse_square(lands, 5), True), text
            state.play(action)
            assert pawns(state)["south"] == lands


def test_manual_spellings_of_diagonals_are_all_accepted() -> None:
    state, _ = setup(5, 2, "south", {"north": "c3", "south": "c2"}, walls="c3h")
    north_west = ["north-west", "northwest", "north,west", "west-north", "westnorth",
                  "north west", "up-left", "upleft", "up,left", "left-up", "leftup"]
    north_east = ["north-east", "northeast", "north,east", "east-north", "up-right", "upright",
                  "up,right", "right-up"]
    for text in north_west:
        assert state.parse_action(text, "jump") == Step(Square(1, 2), True), text
    for text in north_east:
        assert state.parse_action(text, "jump") == Step(Square(3, 2), True), text
    state2, _ = setup(5, 2, "south", {"north": "c3", "south": "c4"}, walls="c2h")
    for text in ["south-west", "southwest", "south,west", "west-south", "down-left",
                 "downleft", "down,left", "left-down"]:
        assert state2.parse_action(text, "jump") == Step(Square(1, 2), True), text
    for text in ["south-east", "southeast", "south,east", "east-south", "down-right",
                 "downright", "down,right", "right-down"]:
        assert state2.parse_action(text, "jump") == Step(Square(3, 2), True), text


def test_wall_notation_is_the_only_way_to_place_a_wall() -> None:
    state = position(9, 2)
    assert state.parse_action("e4v") == PlaceWall(Wall(4, 3, "v"))
    assert state.parse_action("E4H", "wall") == PlaceWall(Wall(4, 3, "h"))
    with pytest.raises(NotationError, match=r"^north: "):
        state.parse_action("north", "wall")
    with pytest.raises(NotationError, match=r"^e4: a wall needs an orientation, e\.g\. e4h "
                       r"or e4v$"):
        state.parse_action("e4", "wall")


@pytest.mark.parametrize(("size", "text", "kind", "message"), [
    (9, "e99", "move", "e99: not a square on a 9x9 board"),
    (9, "e10", None, "e10: not a square on a 9x9 board"),
    (5, "f1", None, "f1: not a square on a 5x5 board"),
    (9, "zz", "move", "zz: not a square"),
    (9, "e4v", "move", "e4v: that is a wall; a move needs a square or a direction"),
    (9, "north-south", "jump", "north-south: a diagonal combines one of north/south (up/down) "
     "with one of east/west (left/right)"),
    (9, "up-up", "jump", "up-up: a diagonal combines one of north/south (up/down) "
     "with one of east/west (left/right)"),
    (9, "east-west", None, "east-west: a diagonal combines one of north/south (up/down) "
     "with one of east/west (left/right)"),
    (9, "north-west-up", "jump", "north-west-up: a direction has at most two parts"),
])
def test_invalid_notation_raises_notation_error_naming_the_text(size: int, text: str,
                                                                kind: str | None,
                                                                message: str) -> None:
    state = position(size, 2, "north")
    before = state.to_dict()
    with pytest.raises(NotationError) as caught:
        state.parse_action(text, kind)
    assert str(caught.value).startswith(message)
    assert not isinstance(caught.value, IllegalActionError)
    assert state.to_dict() == before


@pytest.mark.parametrize("text", ["", "   ", "x", "4e", "e-4", "e4.5", "northwards", "e4hv",
                                  "a1d", "upp", "ne", "🙂"])
def test_garbage_is_a_notation_error(text: str) -> None:
    state = position(9, 2)
    with pytest.raises(NotationError):
        state.parse_action(text)


@pytest.mark.parametrize("text", ["north-", "north,", "-north", "up_", "left--"])
def test_a_direction_with_a_dangling_separator_is_refused_not_taken_as_straight(text: str) -> None:
    """"north-" is an unfinished diagonal: playing it as "north" would surprise the player."""
    state = position(9, 2)
    with pytest.raises(NotationError):
        state.parse_action(text)


def test_unknown_action_kind_is_a_notation_error() -> None:
    state = position(9, 2)
    with pytest.raises(NotationError):
        state.parse_action("e8", "teleport")


def test_notation_errors_and_illegal_actions_are_distinct_error_types() -> None:
    assert issubclass(NotationError, EngineError) and issubclass(IllegalActionError, EngineError)
    assert issubclass(EngineError, ValueError)
    assert not issubclass(NotationError, IllegalActionError)
    assert not issubclass(IllegalActionError, NotationError)
    assert issubclass(GameOverError, IllegalActionError)
    assert issubclass(ReplayError, EngineError)
    state = position(9, 2)
    with pytest.raises(IllegalActionError):
        state.play(state.parse_action("e7", "move"), "e7")
    with pytest.raises(NotationError):
        state.parse_action("e7x")


def test_move_kind_onto_an_occupied_square_is_refused_but_jump_kind_is_not() -> None:
    state, _ = setup(5, 2, "south", {"north": "c3", "south": "c2"})
    with pytest.raises(IllegalActionError, match=r"^north: c3 is occupied by North$"):
        state.play(state.parse_action("north", "move"), "north")
    with pytest.raises(IllegalActionError):
        state.play(state.parse_action("c4", "move"), "c4")
    state.play(state.parse_action("north", "jump"))
    assert pawns(state)["south"] == "c4"


def test_jump_kind_with_no_pawn_to_jump_over_is_refused() -> None:
    state = position(9, 2, "north")
    for text in ["e7", "south"]:
        with pytest.raises(IllegalActionError):
            state.play(state.parse_action(text, "jump"), text)
    with pytest.raises(IllegalActionError, match=r"^e8: "):
        state.play(state.parse_action("e8", "jump"), "e8")
    assert pawns(state)["north"] == "e9"


def test_inferred_kind_takes_a_step_by_distance() -> None:
    state, _ = setup(5, 2, "south", {"north": "c3", "south": "c2"})
    assert state.parse_action("b2") == Step(Square(1, 1), False)
    assert state.parse_action("c4") == Step(Square(2, 3), True)
    assert state.parse_action("c2h") == PlaceWall(Wall(2, 1, "h"))


def test_every_combination_of_two_directions_is_either_a_diagonal_or_refused() -> None:
    state, _ = setup(9, 2, "south", {"north": "e5", "south": "e4"}, walls="e5h")
    words = ["north", "south", "east", "west", "up", "down", "left", "right"]
    vertical = {"north", "south", "up", "down"}
    for a, b in itertools.product(words, repeat=2):
        text = f"{a}-{b}"
        if (a in vertical) != (b in vertical):
            assert isinstance(state.parse_action(text, "jump"), Step)
        else:
            with pytest.raises(NotationError):
                state.parse_action(text, "jump")


def test_finished_game_refuses_every_action_with_game_over() -> None:
    state, _ = setup(5, 2, "south", {"north": "a5", "south": "c4"})
    state.play(state.parse_action("north"))
    assert state.is_finished
    for text in ["c4", "a1h", "south"]:
        with pytest.raises(GameOverError):
            state.play(state.parse_action(text) if text != "south" else Step(Square(2, 3), False),
                       text)
    with pytest.raises(GameOverError, match=r"^e5: the game is finished$"):
        state.play(Step(Square(4, 4), False), "e5")
