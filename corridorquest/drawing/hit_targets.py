"""A board a player plays on (`targets=True`, the game page of a seated player) also gets
invisible hit targets over everything, which the page's script (web/static/play.js) finds
by their data attributes: each square `data-to` (class `hit-square`), each place a wall
may stand `data-slot` ("c3h", class `hit-wall`: the groove it lies on and a band of the
squares beside it, so that a thumb finds it), each edge a marker may note `data-edge`
("e4v", class `hit-edge`, invisible games only). A wall's and a marker's target carries
the bar it would draw (`data-bar`: x y width height), for the script's preview. They
draw nothing (transparent): which of them answer the pointer is the style sheet's
choice, and which actions are legal the server's (GET /games/{id}/legal-actions).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from corridorquest.drawing.board_geometry import CELL, GROOVE, REACH, Layout, element, num


def _rects(*boxes: tuple[float, float, float, float]) -> str:
    """A path's `d` of the rectangles `boxes` (x, y, width, height)."""
    return " ".join(f"M{num(x)} {num(y)}h{num(w)}v{num(h)}h{num(-w)}z" for x, y, w, h in boxes)


def _target(kind: str, name: str, boxes: Sequence[tuple[float, float, float, float]],
            bar: tuple[float, float, float, float] | None = None) -> str:
    attributes: dict[str, object] = {
        "class": f"hit hit-{kind}",
        {"square": "data-to", "wall": "data-slot", "edge": "data-edge"}[kind]: name,
        "d": _rects(*boxes),
        "fill": "transparent",
    }
    if bar is not None:
        attributes["data-bar"] = " ".join(num(v) for v in bar)
    return element("path", attributes)


def _square_name(col: int, row: int) -> str:
    return f"{chr(ord('a') + col)}{row + 1}"


def targets(layout: Layout, edges: bool) -> Iterable[str]:
    """The hit targets of a board a player plays on (see the module's text): the walls'
    and the edges' first, the squares' over them (a legal square takes the whole square)."""
    size, last = layout.size, layout.size - 1
    yield '<g class="targets">'
    for row in range(size - 1):
        for col in range(size - 1):
            name = _square_name(col, row)
            # h: the groove north of (col, row) and (col + 1, row), from the middle of the
            # one square to the middle of the other (to the board's side at its ends),
            # reaching into the squares beside it but not across the crossing groove
            # (there the v wall's place is as near)
            west = layout.x(col) if col == 0 else layout.x(col) + CELL / 2
            east = layout.x(col + 1) + (CELL if col + 1 == last else CELL / 2)
            top = layout.y(row) - GROOVE
            cross = layout.x(col) + CELL  # the west side of the crossing groove
            band = (top - REACH, GROOVE + 2 * REACH)
            yield _target("wall", name + "h", (
                (west, band[0], cross - west, band[1]),
                (cross, top, GROOVE, GROOVE),
                (cross + GROOVE, band[0], east - cross - GROOVE, band[1]),
            ), (layout.x(col), top, 2 * CELL + GROOVE, GROOVE))
            # v: the groove east of (col, row) and (col, row + 1), likewise
            north = layout.y(row + 1) + (0 if row + 1 == last else CELL / 2)
            south = layout.y(row) + (CELL if row == 0 else CELL / 2)
            left = layout.x(col) + CELL
            cross = layout.y(row) - GROOVE  # the north side of the crossing groove
            yield _target("wall", name + "v", (
                (left - REACH, north, GROOVE + 2 * REACH, cross - north),
                (left, cross, GROOVE, GROOVE),
                (left - REACH, cross + GROOVE, GROOVE + 2 * REACH, south - cross - GROOVE),
            ), (left, layout.y(row + 1), GROOVE, 2 * CELL + GROOVE))
    if edges:
        for row in range(size):
            for col in range(size):
                name = _square_name(col, row)
                x, y = layout.x(col), layout.y(row)
                if col < last:  # the edge east of the square
                    yield _target("edge", name + "v", ((x + CELL - REACH, y, GROOVE + 2 * REACH,
                                                         CELL),), (x + CELL, y, GROOVE, CELL))
                if row < last:  # the edge north of it
                    yield _target("edge", name + "h", ((x, y - GROOVE - REACH, CELL,
                                                         GROOVE + 2 * REACH),),
                                  (x, y - GROOVE, CELL, GROOVE))
    for row in range(size):
        for col in range(size):
            yield _target("square", _square_name(col, row),
                          ((layout.x(col), layout.y(row), CELL, CELL),))
    yield "</g>"
