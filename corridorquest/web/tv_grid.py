"""The grid of /tv's boards: how many columns and rows for the games on a screen.

A landscape projector (1920x1080) is the screen planned for: `grid(n)` gives the shape
whose cells hold the largest board with its caption, under the board or beside it
(static/tv.css puts it beside when the cell is wide). The style sheet sizes each board
to its cell, so the shape is all the server decides.
"""

from __future__ import annotations

# The screen grid() plans for (CSS pixels of a 1920x1080 projector less the header and
# the side column) and the room a caption takes under a board, or beside it.
SCREEN_WIDTH, SCREEN_HEIGHT = 1560, 1020
CAPTION_UNDER, CAPTION_BESIDE = 90, 300


def board_side(cols: int, rows: int) -> float:
    """The side of a board in a grid of `cols` x `rows` cells (its caption under it or
    beside it, whichever leaves the larger board)."""
    width, height = SCREEN_WIDTH / cols, SCREEN_HEIGHT / rows
    return max(min(width - CAPTION_BESIDE, height), min(width, height - CAPTION_UNDER))


def grid(count: int) -> tuple[int, int]:
    """(columns, rows) for `count` boards: the largest board, then the fewest empty
    cells (1: one board; 2: side by side; 4: 2x2; 5 and 6: 3x2)."""
    count = max(count, 1)
    shapes = [
        (cols, -(-count // cols)) for cols in range(1, count + 1)
    ]  # each number of columns with the fewest rows that hold every board
    return max(shapes, key=lambda shape: (board_side(*shape), -shape[0] * shape[1]))
