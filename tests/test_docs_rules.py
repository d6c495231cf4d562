"""docs/rules.md, the players' rules page, agrees with the rules engine.

The page is read back as a player reads it: its ASCII boards (which lines the walls cover,
where `*` marks a legal jump), its tables, its quoted error messages and its worked scoring
example. Each claim is replayed through the public engine API; a failure means the page
and the engine disagree (fix whichever is wrong).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from fractions import Fraction

import pytest

from corridorquest.engine import (
    GameState,
    IllegalActionError,
    NotationError,
    PlaceWall,
    Seat,
    Square,
    Step,
    base_score,
    format_square,
    initial_walls,
    parse_square,
    parse_wall,
    progress_weight,
    score_game,
    start_square,
    wall_cost,
)
from tests.docs_rules_helpers import (
    Board,
    blocked_lines,
    board_blocks,
    boards_after,
    code_spans,
    drawn_position,
    number,
    parse_boards,
    position,
    rules_text,
    section_after,
    table_after,
)

PAGE = rules_text()
SIZES = (5, 7, 9, 11, 13, 15, 17)

# Every drawing of the page: the caption it follows, the walls its prose says stand on each
# of its boards (left to right), and the wall being placed on each (drawn with ~ or :).
DRAWINGS: list[tuple[str, list[list[str]], list[str | None]]] = [
    ("with the four pawns on their start squares", [[]], [None]),
    ("South (`S`, on c2) jumps north", [[]], [None]),
    ("A wall behind the pawn:", [["c3h"], ["c3h", "b3v"]], [None, None]),
    ("A pawn behind the pawn", [[]], [None]),
    ("The board edge behind the pawn", [[]], [None]),
    ("On a 5x5 board, `c3h`", [["c3h"]], [None]),
    ("and `c3v` (drawn `#`):", [["c3v"]], [None]),
    ("The path rule:", [["b1v", "c1v"]], ["c2h"]),
    ("Legal: `c3h` with `d3v`", [["c3h", "d3v"], ["c3h", "c4v"]], [None, None]),
    ("Legal: `c3h` with `d4v`", [["c3h", "d4v"], ["c3h", "a3h"]], [None, None]),
    ("Illegal: in these pictures", [["c3h"], ["c3h"]], ["d3h", "c3v"]),
    ("Illegal: `c4v` after `c3v`", [["c3v"]], ["c4v"]),
]
BOARDS: list[tuple[str, Board, list[str], str | None]] = [
    (f"{caption} #{i + 1}", board, walls, placed)
    for caption, wall_lists, placing in DRAWINGS
    for i, (board, walls, placed) in enumerate(
        zip(boards_after(PAGE, caption), wall_lists, placing, strict=True)
    )
]
JUMP_BOARDS = [
    (name, board, walls) for name, board, walls, _ in BOARDS if "*" in board.cells.values()
]


def ids(cases: Sequence[tuple[object, ...]]) -> list[str]:
    return [str(case[0]) for case in cases]


def test_every_drawing_on_the_page_is_checked() -> None:
    drawn = sum(len(parse_boards(block)) for block in board_blocks(PAGE))
    assert drawn == len(BOARDS)


@pytest.mark.parametrize(("name", "board", "walls", "placed"), BOARDS, ids=ids(BOARDS))
def test_every_diagram_draws_exactly_the_lines_its_walls_block(
    name: str, board: Board, walls: list[str], placed: str | None
) -> None:
    assert board.standing == blocked_lines(board.size, walls)
    assert board.placed == (blocked_lines(board.size, [placed]) if placed else set())


def test_diagram_notes_name_the_lines_the_wall_blocks() -> None:
    notes = [note for _, board, _, _ in BOARDS for note in board.notes]
    assert notes, "the c3h/c3v diagrams lost their '<- c3h blocks ...' notes"
    for note in notes:
        wall, lines = re.fullmatch(r"<- (\w+) blocks (.*)", note.strip()).groups()  # type: ignore[union-attr]
        named = set(re.findall(r"\w+[/|]\w+", lines))
        assert named <= blocked_lines(5, [wall]), note


@pytest.mark.parametrize(("name", "board", "walls"), JUMP_BOARDS, ids=ids(JUMP_BOARDS))
def test_every_jump_diagram_marks_exactly_the_legal_jumps(
    name: str, board: Board, walls: list[str]
) -> None:
    state = drawn_position(board, walls)
    jumps = {format_square(a.to) for a in state.legal_actions() if isinstance(a, Step) and a.jump}
    stars = {square for square, mark in board.cells.items() if mark == "*"}
    assert jumps == stars


def test_start_diagram_shows_each_pawn_on_its_start_square() -> None:
    (board,) = boards_after(PAGE, "with the four pawns on their start squares")
    drawn = {mark: square for square, mark in board.cells.items()}
    assert drawn == {seat.value[0].upper(): format_square(start_square(seat, 5)) for seat in Seat}


# -- tables -------------------------------------------------------------------------------


def test_board_table_lists_the_squares_of_each_board() -> None:
    rows = table_after(PAGE, "| board | columns |")[1:]
    assert [row[0] for row in rows] == [f"{n}x{n}" for n in SIZES]
    for label, columns, rows_range, corners in rows:
        size = int(label.split("x")[0])
        last = f"{columns[-1]}{rows_range.split('–')[1]}"
        corner_squares = {format_square(Square(c, r)) for c in (0, size - 1) for r in (0, size - 1)}
        assert set(corners.split(", ")) == corner_squares
        assert parse_square(last, size) == Square(size - 1, size - 1)
        for outside in (f"{chr(ord(columns[-1]) + 1)}1", f"a{size + 1}"):
            with pytest.raises(NotationError):
                parse_square(outside, size)


def test_start_square_table_matches_the_engine() -> None:
    header, *rows = table_after(PAGE, "| board | North | East | South | West |")
    seats = [Seat(name.lower()) for name in header[1:]]
    assert len(rows) == len(SIZES)
    for label, *squares in rows:
        size = int(label.split("x")[0])
        assert squares == [format_square(start_square(seat, size)) for seat in seats], label


@pytest.mark.parametrize(
    ("marker", "engine_table"),
    [
        ("**Walls per player.**", initial_walls),
        ("**Wall cost.**", wall_cost),
        ("| progress_weight |", progress_weight),
    ],
    ids=["initial_walls", "wall_cost", "progress_weight"],
)
def test_variant_tables_match_the_engine(
    marker: str, engine_table: Callable[[int, int], int]
) -> None:
    header, *rows = table_after(PAGE, marker)
    sizes = [int(size) for size in header[1:]]
    assert sizes == list(SIZES)
    for label, *values in rows:
        players = int(label.split()[0])
        expected = [engine_table(size, players) for size in sizes]
        assert [int(v) for v in values] == expected, label


def test_wall_names_run_from_a1_to_the_stated_last_square() -> None:
    ranges = re.findall(r"a1–([a-q]\d+) on (\d+)x\2", PAGE)
    assert len(ranges) == 3
    for last, size_text in ranges:
        size = int(size_text)
        assert parse_wall(f"{last}h", size) == parse_wall(f"{last}v", size)._replace(
            orientation="h"
        )
        col, row = ord(last[0]) - ord("a"), int(last[1:])
        for outside in (f"{chr(ord('a') + col + 1)}{row}h", f"{last[0]}{row + 1}v"):
            with pytest.raises(NotationError):
                parse_wall(outside, size)
    with pytest.raises(NotationError):
        parse_wall("e9h", 9)


# -- walls: where a wall may go ----------------------------------------------------------

# (walls on the board, wall placed next, legal?) as the "Walls" section states them.
WALL_CLAIMS = [
    (["c3h"], "c3h", False),
    (["c3h"], "b3h", False),
    (["c3h"], "d3h", False),
    (["c3v"], "c3v", False),
    (["c3v"], "c2v", False),
    (["c3v"], "c4v", False),
    (["c3h"], "c3v", False),
    (["b1v", "c1v"], "c2h", False),
    (["b1v", "c1v"], "b2h", False),
    (["b1v", "c1v"], "d2h", True),
    (["c3h"], "d3v", True),
    (["c3h"], "c4v", True),
    (["c3h"], "d4v", True),
    (["c3h"], "a3h", True),
]


@pytest.mark.parametrize(
    ("walls", "wall", "legal"), WALL_CLAIMS, ids=[f"{'+'.join(w)}-{x}" for w, x, _ in WALL_CLAIMS]
)
def test_wall_placement_claims(walls: list[str], wall: str, legal: bool) -> None:
    walls_section = section_after(PAGE, "## Walls").split("## Winning")[0]
    assert f"`{wall}`" in walls_section
    state = position(5, {"north": "c5", "south": "c1"}, walls)
    assert (PlaceWall(parse_wall(wall, 5)) in state.legal_actions()) is legal


# -- error messages -----------------------------------------------------------------------

NINE = {"north": "e9", "south": "e1"}
SOUTH_BELOW_NORTH = {"north": "c3", "south": "c2"}
# situation (first column of the table) -> (position, action type typed)
FORBIDDEN = {
    "a wall on the way": (position(9, {"north": "e5", "south": "e1"}, ["e5h"], "north"), "move"),
    "stepping off the board from e9": (position(9, NINE, turn="north"), "move"),
    "moving onto a pawn (jump it instead)": (position(5, SOUTH_BELOW_NORTH), "move"),
    "a move that is not one square": (position(9, NINE, turn="north"), "move"),
    "a diagonal move": (position(9, NINE, turn="north"), "move"),
    "a jump with nobody to jump over": (position(9, NINE, turn="north"), "jump"),
    "a straight jump off the board": (
        position(5, {"north": "e5", "east": "e1", "south": "b3", "west": "a3"}),
        "jump",
    ),
    "a straight jump onto a pawn": (
        position(5, {"north": "c3", "east": "c4", "south": "c2", "west": "a1"}),
        "jump",
    ),
    "a diagonal jump while the straight one is open": (position(5, SOUTH_BELOW_NORTH), "jump"),
    "a diagonal jump through a wall": (position(5, SOUTH_BELOW_NORTH, ["c3h", "b3v"]), "jump"),
    "an overlapping wall": (position(9, NINE, ["e3v"], "north"), "wall"),
    "a crossing wall": (position(5, {"north": "c5", "south": "c1"}, ["c3h"]), "wall"),
    "a wall that shuts a pawn in": (
        position(5, {"north": "c5", "south": "c1"}, ["b1v", "c1v"], "north"),
        "wall",
    ),
    "no walls left": (
        position(9, NINE, turn="north", walls_left={"north": 0, "south": 3}),
        "wall",
    ),
}


def refusal(state: GameState, text: str, kind: str) -> Exception:
    """Play ``text`` as the server does; return the refusal, checking nothing changed."""
    before = state.to_dict()
    with pytest.raises((NotationError, IllegalActionError)) as refused:
        state.play_notation(text, kind)
    assert state.to_dict() == before
    return refused.value


def test_every_notation_error_message_is_the_engines() -> None:
    rows = table_after(PAGE, "Notation the server cannot read")[1:]
    assert len(rows) >= 5
    for tried, quoted in rows:
        message = code_spans(quoted)[0]
        kind = {"move": "move", "jump": "jump", "place": "wall"}[tried.split()[0]]
        error = refusal(GameState.new(9, 2), message.split(": ")[0], kind)
        assert (type(error), str(error)) == (NotationError, message), tried


def test_every_illegal_action_message_is_the_engines() -> None:
    rows = table_after(PAGE, "Actions the rules forbid")[1:]
    assert {situation for situation, _ in rows} == set(FORBIDDEN)
    for situation, quoted in rows:
        message = code_spans(quoted)[0]
        state, kind = FORBIDDEN[situation]
        error = refusal(state.copy(), message.split(": ")[0], kind)
        assert (type(error), str(error)) == (IllegalActionError, message), situation


def test_path_rule_quote_is_the_engines_message() -> None:
    quoted = re.search(r"\(`(c2h: [^`]+)`\)", PAGE)
    assert quoted is not None
    state, _ = FORBIDDEN["a wall that shuts a pawn in"]
    assert str(refusal(state.copy(), "c2h", "wall")) == quoted[1]


# -- writing an action --------------------------------------------------------------------

DELTAS = {"north": (0, 1), "south": (0, -1), "east": (1, 0), "west": (-1, 0)}


def landing(text: str, kind: str | None, pawns: dict[str, str] | None = None) -> str:
    state = position(9, pawns or {"north": "a9", "south": "e5"})
    return format_square(state.parse_action(text, kind).to)  # type: ignore[union-attr]


def test_every_diagonal_spelling_lands_where_the_table_says() -> None:
    rows = table_after(PAGE, "| lands | compass | directional |")[1:]
    assert len(rows) == 4
    for lands, compass, directional in rows:
        vertical, horizontal = re.findall(r"north|south|east|west", lands)
        target = format_square(Square(4 + DELTAS[horizontal][0], 4 + DELTAS[vertical][1]))
        spellings = code_spans(compass) + code_spans(directional)
        assert len(spellings) >= 8
        for spelling in spellings:
            assert landing(spelling, "jump") == target, spelling
            assert landing(spelling.upper(), "jump") == target, spelling.upper()


def test_compass_and_directional_words_name_the_same_steps() -> None:
    rows = {row[0]: code_spans(row[1]) for row in table_after(PAGE, "| notation | examples |")}
    assert len(rows["compass"]) == len(rows["directional"]) == 4
    for compass, directional in zip(rows["compass"], rows["directional"], strict=True):
        assert landing(compass, "move") == landing(directional, "move") == landing(compass, None)


def test_relative_direction_example_moves_one_square_and_jumps_two() -> None:
    assert "with your\npawn on e4 in game 7" in PAGE and "takes it to e5" in PAGE
    assert landing("north", "move", {"north": "a9", "south": "e4"}) == "e5"
    assert "takes you over it to e6" in PAGE
    assert landing("north", "jump", {"north": "e5", "south": "e4"}) == "e6"


@pytest.mark.parametrize("text", ["north-south", "up-up", "north-west-up"])
def test_directions_that_do_not_combine_are_refused(text: str) -> None:
    assert f"`{text}`" in PAGE
    with pytest.raises(NotationError):
        position(9, NINE, turn="north").parse_action(text, "jump")


def test_case_does_not_matter() -> None:
    assert "(`North-West`, `E4`)" in PAGE
    assert landing("North-West", "jump") == landing("north-west", "jump")
    assert landing("E4", "move") == "e4"


def test_diagonal_jumps_named_for_the_wall_behind_the_pawn() -> None:
    sentence = section_after(PAGE, "South's two diagonal jumps are").split(".")[0]
    spellings = code_spans(sentence)
    assert spellings == ["north-west", "b3", "up-left", "north-east", "d3", "up-right"]
    for text, lands in zip(spellings, ["b3"] * 3 + ["d3"] * 3, strict=True):
        state = position(5, SOUTH_BELOW_NORTH, ["c3h"])
        state.play_notation(text, "jump")
        assert state.pawns[Seat.SOUTH] == parse_square(lands, 5), text


# -- scoring ------------------------------------------------------------------------------


def test_scoring_formula_reads_the_weights_as_points() -> None:
    formula = code_blocks_after("These are combined with a weight")[0]
    assert "base  = progress_weight × progress + wall_weight × walls + trade balance" in formula
    assert "/ 100" not in formula
    # the extremes the page names: all the way without a wall, and nothing at all
    assert base_score(9, 2, 0, 0) == 100 and base_score(9, 2, 8, 10) == 0
    # 5x5, 4 players: 3 squares away, both walls placed, two walls bought at 25:
    # 50 * 0.25 + 0 - 50 = -37.5
    assert "(−37.5 becomes −37)" in PAGE
    assert base_score(5, 4, 3, 2, -50) == Fraction(-75, 2)
    west = score_game(5, 4, None, {Seat.WEST: 3}, {Seat.WEST: 2}, {Seat.WEST: -50})
    assert west[Seat.WEST] == -37


def code_blocks_after(marker: str) -> list[str]:
    return re.findall(r"```text\n(.*?)```", section_after(PAGE, marker), re.S)


def test_worked_scoring_example_gives_the_engines_scores() -> None:
    example = section_after(PAGE, "**Worked example.**")
    assert "progress_weight 60, wall_weight 40, 5 walls\neach, wall cost 8" in example
    assert (progress_weight(9, 4), initial_walls(9, 4), wall_cost(9, 4)) == (60, 5, 8)
    header, *rows = table_after(example, "| | West (winner) |")
    seats = [Seat(cell.split()[0].lower()) for cell in header[1:]]
    table = {row[0]: dict(zip(seats, map(number, row[1:]), strict=True)) for row in rows}

    def ints(label: str) -> dict[Seat, int]:
        return {seat: int(value) for seat, value in table[label].items()}

    distances = ints("distance to goal")
    placed = ints("walls placed (5 each at the start)")
    balance = ints("trade balance")
    # every row in between is the engine's arithmetic, in points
    for seat in seats:
        played = base_score(9, 4, distances[seat], placed[seat])
        progress = 1 - Fraction(distances[seat], 8)
        walls = max(Fraction(0), 1 - Fraction(placed[seat], 5))
        assert table["progress = 1 − distance / 8"][seat] == float(progress)
        assert table["walls = max(0, 1 − placed / 5)"][seat] == float(walls)
        assert played == 60 * progress + 40 * walls
        assert table["60 × progress + 40 × walls"][seat] == played
        assert table["base"][seat] == played + balance[seat]
        assert table["round(base)"][seat] == math.floor(played + balance[seat] + Fraction(1, 2))
    scores = score_game(9, 4, Seat.WEST, distances, placed, balance)
    assert scores == ints("**final**")
    best_other = max(score for seat, score in scores.items() if seat is not Seat.WEST)
    assert scores[Seat.WEST] == best_other + 1  # the example shows the winner's bonus

    untraded = re.search(
        r"North (\d+) \(69\.5 rounded up\), East (\d+), South (\d+) and West "
        r"max\(68, (\d+) \+ 1\) = (\d+)",
        example,
    )
    assert untraded is not None
    north, east, south, best, west = map(int, untraded.groups())
    no_trade = score_game(9, 4, Seat.WEST, distances, {**placed, Seat.EAST: 5})
    assert no_trade == {Seat.NORTH: north, Seat.EAST: east, Seat.SOUTH: south, Seat.WEST: west}
    assert best == max(north, east, south)
    assert base_score(9, 4, distances[Seat.NORTH], placed[Seat.NORTH]) == 69.5
