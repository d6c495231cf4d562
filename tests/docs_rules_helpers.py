"""Reading docs/rules.md back (its tables and ASCII boards), and asking the engine the same.

Used by tests/test_docs_rules.py. The engine side uses only the public API of
``corridorquest.engine``. Lines between squares are named as on the rules page: ``c3/c4`` is
the line between two squares above each other, ``c3|d3`` between two squares side by side.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from corridorquest.engine import GameState, Square, Step, format_square, parse_square

RULES = Path(__file__).resolve().parents[1] / "docs" / "rules.md"

STANDING = set("=#X")  # marks of a wall on the board (X: where two walls collide)
PLACED = set("~:X")  # marks of the wall being placed


def rules_text() -> str:
    return RULES.read_text(encoding="utf-8")


def section_after(text: str, marker: str) -> str:
    """The page from the first occurrence of ``marker`` on (fails clearly when it is gone)."""
    start = text.find(marker)
    assert start >= 0, f"docs/rules.md no longer contains {marker!r}"
    return text[start:]


def table_after(text: str, marker: str) -> list[list[str]]:
    """The rows (header first, separator dropped) of the first Markdown table after ``marker``."""
    rows: list[list[str]] = []
    for line in section_after(text, marker).splitlines():
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not all(set(cell) <= set("-: ") for cell in cells):
                rows.append(cells)
        elif rows:
            break
    assert rows, f"no table after {marker!r} in docs/rules.md"
    return rows


def code_spans(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def number(text: str) -> float:
    """The first number in a table cell: ``**79** = max(...)`` -> 79, ``−37.5`` -> -37.5."""
    match = re.search(r"[-+−]?\d+(?:\.\d+)?", text)
    assert match, f"no number in {text!r}"
    return float(match[0].replace("−", "-"))


# -- the ASCII boards ---------------------------------------------------------------------


@dataclass
class Board:
    """One drawn board: its marks on squares and the lines drawn as walls."""

    size: int
    cells: dict[str, str] = field(default_factory=dict)  # square -> mark: N E S W * x
    standing: set[str] = field(default_factory=set)  # lines a standing wall covers
    placed: set[str] = field(default_factory=set)  # lines the wall being placed covers
    notes: list[str] = field(default_factory=list)  # "<- c3h blocks c3/c4 and d3/d4"


def board_blocks(text: str) -> list[str]:
    """Every ```text block of the page that draws boards (its first line is the a b c header)."""
    blocks = re.findall(r"```text\n(.*?)```", text, re.S)
    return [block for block in blocks if block.lstrip().startswith("a ")]


def boards_after(text: str, marker: str) -> list[Board]:
    """The board(s) of the first drawing after ``marker``, left to right."""
    return parse_boards(board_blocks(section_after(text, marker))[0])


def _classify(mark: str, line: str, board: Board) -> None:
    if mark in ("---", "|"):
        return
    assert set(mark) <= STANDING | PLACED, f"unknown wall mark {mark!r} drawn on {line}"
    if set(mark) & STANDING:
        board.standing.add(line)
    if set(mark) & PLACED:
        board.placed.add(line)


def parse_boards(block: str) -> list[Board]:
    lines = block.rstrip("\n").split("\n")
    width = max(map(len, lines))
    lines = [line.ljust(width) for line in lines]
    boards = []
    for grid in re.finditer(r"\+(?:---\+)+", lines[1]):  # the top edge of each board
        x0, size = grid.start(), (grid.end() - grid.start() - 1) // 4
        board = Board(size)
        for row in range(1, size + 1):
            cells = lines[2 + 2 * (size - row)]
            above = lines[1 + 2 * (size - row)]  # the grid line north of this row
            for col in range(size):
                here = format_square(Square(col, row - 1))
                if cells[x0 + 4 * col + 2] != " ":
                    board.cells[here] = cells[x0 + 4 * col + 2]
                if col < size - 1:
                    east = format_square(Square(col + 1, row - 1))
                    _classify(cells[x0 + 4 * col + 4], f"{here}|{east}", board)
                if row < size:
                    north = format_square(Square(col, row))
                    _classify(above[x0 + 4 * col + 1 : x0 + 4 * col + 4], f"{here}/{north}", board)
        boards.append(board)
    notes = [note for line in lines for note in re.findall(r"<- .*", line)]
    boards[-1].notes = notes
    return boards


# -- the engine's view --------------------------------------------------------------------


def position(
    size: int,
    pawns: dict[str, str],
    walls: list[str] | tuple[str, ...] = (),
    turn: str = "south",
    walls_left: dict[str, int] | None = None,
) -> GameState:
    """A position with these pawns and walls (placed by North), built from plain data."""
    players = len(pawns)
    return GameState.from_dict(
        {
            "size": size,
            "players": players,
            "first": turn,
            "turn": turn,
            "winner": None,
            "ply": 0,
            "pawns": pawns,
            "walls": [[wall, "north"] for wall in walls],
            "walls_left": walls_left or {seat: 3 for seat in pawns},
            "passes": [],
        }
    )


def neighbours(square: Square, size: int) -> list[Square]:
    candidates = [(0, 1), (1, 0), (0, -1), (-1, 0)]
    around = [Square(square.col + dc, square.row + dr) for dc, dr in candidates]
    return [s for s in around if 0 <= s.col < size and 0 <= s.row < size]


def line_name(a: Square, b: Square) -> str:
    low, high = sorted((a, b))
    sep = "/" if low.col == high.col else "|"
    return f"{format_square(low)}{sep}{format_square(high)}"


def blocked_lines(size: int, walls: list[str] | tuple[str, ...]) -> set[str]:
    """The lines a pawn cannot step across with these walls on the board, asked square by square.

    The mover has no walls left, so its legal actions are its moves; the other pawn waits in
    the corner farthest away, out of the way.
    """
    blocked = set()
    corners = [Square(c, r) for c in (0, size - 1) for r in (0, size - 1)]
    for col in range(size):
        for row in range(size):
            here = Square(col, row)
            far = max(corners, key=lambda c: abs(c.col - col) + abs(c.row - row))
            state = position(
                size,
                {"north": format_square(here), "south": format_square(far)},
                walls,
                turn="north",
                walls_left={"north": 0, "south": 0},
            )
            moves = {a.to for a in state.legal_actions() if isinstance(a, Step) and not a.jump}
            blocked |= {line_name(here, n) for n in neighbours(here, size) if n not in moves}
    return blocked


SEAT_MARKS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def drawn_position(board: Board, walls: list[str]) -> GameState:
    """The drawn pawns with South to move; in a drawing with E or W it is a 4-player game,
    and seats not drawn wait in the free corners farthest from South."""
    pawns = {SEAT_MARKS[m]: sq for sq, m in board.cells.items() if m in SEAT_MARKS}
    seats = ["north", "east", "south", "west"] if {"east", "west"} & set(pawns) else ["north"]
    south = parse_square(pawns["south"], board.size)
    last = board.size - 1
    corners = sorted(
        (Square(c, r) for c in (0, last) for r in (0, last)),
        key=lambda c: -(abs(c.col - south.col) + abs(c.row - south.row)),
    )
    free = [format_square(c) for c in corners if format_square(c) not in board.cells]
    for seat in seats:
        pawns.setdefault(seat, free.pop(0))
    return position(board.size, pawns, walls)
