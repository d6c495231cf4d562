"""The geometry and the SVG text the board's pieces share (board_svg.py, hit_targets.py,
best_outline.py): the sizes of a square, a groove and the bands around them; where a
square lies (`Layout`); reading a square's, wall's or marker's notation (`parse`); and
writing an element with its text escaped for XML (`element`)."""

from __future__ import annotations

import re

CELL = 40  # a square's side
GROOVE = 12  # the gap between two squares, where walls and markers lie
STEP = CELL + GROOVE
FRAME = 8  # the border band around the squares
MARGIN = 22  # the band of coordinates outside the frame
CAPTION = 26  # the line under the board that says whose turn it is
PAWN_INSET = 5
REACH = 10  # how far a wall's or a marker's hit target reaches into the squares beside it

_NOTATION = re.compile(r"([a-z])(\d{1,2})([hv]?)")
# What XML 1.0 does not allow in a document, even escaped.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})


def escape(value: object) -> str:
    """`value` as text for an XML attribute or element (characters XML forbids dropped)."""
    return _NOT_XML.sub("", str(value)).translate(_ESCAPES)


def num(value: float) -> str:
    return f"{value:g}"


def element(tag: str, attributes: dict[str, object], text: str | None = None) -> str:
    attrs = "".join(
        f' {name}="{escape(value)}"' for name, value in attributes.items() if value is not None
    )
    if text is None:
        return f"<{tag}{attrs}/>"
    return f"<{tag}{attrs}>{escape(text)}</{tag}>"


def parse(text: object, size: int, kind: str) -> tuple[int, int, str] | None:
    """(col, row, orientation) of a square ("e4"), wall ("c3h") or marker ("e4v") that
    lies on a `size` board; None for anything else."""
    if not isinstance(text, str):
        return None
    match = _NOTATION.fullmatch(text)
    if match is None:
        return None
    col, row, orientation = ord(match[1]) - ord("a"), int(match[2]) - 1, match[3]
    if kind == "square":
        fits = not orientation and col < size and row < size
    elif kind == "wall":
        fits = bool(orientation) and col < size - 1 and row < size - 1
    else:  # a marker: one edge, east of (v) or north of (h) its square
        fits = (orientation == "v" and col < size - 1 and row < size) or (
            orientation == "h" and col < size and row < size - 1
        )
    return (col, row, orientation) if fits and row >= 0 else None


class Layout:
    def __init__(self, size: int, caption: bool) -> None:
        self.size = size
        self.inner = size * CELL + (size - 1) * GROOVE
        self.width = 2 * (MARGIN + FRAME) + self.inner
        self.board_height = self.width
        self.height = self.board_height + (CAPTION if caption else 0)

    def x(self, col: int) -> int:
        """The west side of the squares of column `col`."""
        return MARGIN + FRAME + col * STEP

    def y(self, row: int) -> int:
        """The north side of the squares of row `row` (row 0, rank 1, is at the bottom)."""
        return MARGIN + FRAME + (self.size - 1 - row) * STEP
