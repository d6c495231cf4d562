"""The board of a game as an SVG picture, drawn from its view (the JSON of docs/api.md).

`board_svg(view)` draws exactly what the view holds: the view is the game as
`GET /games/{id}` (or `?at=N`) shows it to one viewer, so what that viewer may not see
(services/visibility.py) is already out of it, and nothing else is looked up here.

The pieces are those of `cq game show` (client/render/board.py) in the colours of its
light theme: north is at the top, files a.. run west to east and ranks 1.. south to
north; pawns are triangles pointing to their goal side, each with its seat's initial
(N, E, S, W) so that pawns tell apart without colour; walls are bars on the grooves in
their owner's colour with the owner's initial (neutral and without a letter when the
owner is hidden); markers are dashed outlines of one edge with their owner's initial; the
frame takes the colour of the player to move (grey when nobody is); the last action is
highlighted (a move's or jump's square, a wall's outline when its notation is known).

For tests and pages, the pieces carry data attributes: pawns `data-seat` and
`data-square`, walls `data-wall` and (when known) `data-owner`, markers `data-marker` and
`data-owner`, the highlight `data-last`. No ids, no style sheet and no script: several
boards may sit in one page, and the picture is safe to open on its own.

A board a player plays on (`targets=True`) also gets invisible hit targets over everything:
see hit_targets.py. The geometry the pieces share is in board_geometry.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from corridorquest.drawing.board_geometry import (
    CAPTION,
    CELL,
    FRAME,
    GROOVE,
    MARGIN,
    PAWN_INSET,
    Layout,
    element,
    escape,
    num,
    parse,
)
from corridorquest.drawing.board_words import SEAT_ORDER, describe, details, last_action
from corridorquest.drawing.hit_targets import targets as hit_targets

# cq's light theme (client/render/themes.py: 160, 130, 25, 28, 236, 246, 242).
SEAT_COLOURS = {"north": "#d70000", "east": "#af5f00", "south": "#005faf", "west": "#008700"}
NEUTRAL = "#303030"  # walls whose owner is hidden (masked games)
IDLE_FRAME = "#949494"  # nobody to move: waiting, finished, cancelled
COORDS = "#6c6c6c"
BOARD = "#d8d0c0"  # the grooves
SQUARE = "#f6f2e8"
LAST_FILL = "#fde9a0"  # the square of the last move
OUTLINE = "#000000"  # the highlight of the last action
TEXT = "#1c1c1c"

SEAT_LETTERS = {"north": "N", "east": "E", "south": "S", "west": "W"}



def _triangle(seat: str, x: int, y: int) -> tuple[str, float, float]:
    """The points of a pawn pointing to its goal, and where its letter goes (centroid)."""
    p, c = PAWN_INSET, CELL
    points: list[tuple[float, float]]
    if seat == "north":  # walks south
        points = [(x + p, y + p), (x + c - p, y + p), (x + c / 2, y + c - p)]
    elif seat == "south":
        points = [(x + p, y + c - p), (x + c - p, y + c - p), (x + c / 2, y + p)]
    elif seat == "east":  # walks west
        points = [(x + c - p, y + p), (x + c - p, y + c - p), (x + p, y + c / 2)]
    else:
        points = [(x + p, y + p), (x + p, y + c - p), (x + c - p, y + c / 2)]
    cx = sum(px for px, _ in points) / 3
    cy = sum(py for _, py in points) / 3
    return " ".join(f"{num(px)},{num(py)}" for px, py in points), cx, cy


def _letter(x: float, y: float, letter: str, size: int, fill: str, **extra: object) -> str:
    return element(
        "text",
        {
            "x": num(x),
            "y": num(y),
            "font-size": size,
            "font-weight": "bold",
            "text-anchor": "middle",
            "dominant-baseline": "central",
            "fill": fill,
            **extra,
        },
        letter,
    )


def _squares(layout: Layout, last_square: tuple[int, int, str] | None) -> Iterable[str]:
    for row in range(layout.size):
        for col in range(layout.size):
            highlighted = last_square is not None and last_square[:2] == (col, row)
            yield element(
                "rect",
                {
                    "x": layout.x(col),
                    "y": layout.y(row),
                    "width": CELL,
                    "height": CELL,
                    "fill": LAST_FILL if highlighted else SQUARE,
                },
            )


def _coordinates(layout: Layout) -> Iterable[str]:
    font = {"font-size": 13, "fill": COORDS, "text-anchor": "middle",
            "dominant-baseline": "central"}
    far = layout.board_height - MARGIN / 2
    for col in range(layout.size):
        letter = chr(ord("a") + col)
        x = layout.x(col) + CELL / 2
        for y in (MARGIN / 2, far):
            yield element("text", {"x": num(x), "y": num(y), **font}, letter)
    for row in range(layout.size):
        y = layout.y(row) + CELL / 2
        for x in (MARGIN / 2, layout.width - MARGIN / 2):
            yield element("text", {"x": num(x), "y": num(y), **font}, str(row + 1))


def _wall(layout: Layout, item: dict[str, Any], last: bool) -> str | None:
    place = parse(item.get("wall"), layout.size, "wall")
    if place is None:
        return None
    col, row, orientation = place
    owner = item.get("owner")
    owner = owner if owner in SEAT_COLOURS else None
    if orientation == "h":  # on the groove north of (col, row) and (col + 1, row)
        x, y, width, height = layout.x(col), layout.y(row) - GROOVE, 2 * CELL + GROOVE, GROOVE
    else:  # on the groove east of (col, row) and (col, row + 1)
        x, y, width, height = layout.x(col) + CELL, layout.y(row + 1), GROOVE, 2 * CELL + GROOVE
    colour = SEAT_COLOURS[owner] if owner else NEUTRAL
    parts = [
        f'<g class="wall{" last" if last else ""}" data-wall="{escape(item["wall"])}"'
        + (f' data-owner="{owner}"' if owner else "")
        + (f' data-last="{escape(item["wall"])}"' if last else "")
        + ">",
        element(
            "rect",
            {
                "x": x,
                "y": y,
                "width": width,
                "height": height,
                "rx": 2,
                "fill": colour,
                "stroke": OUTLINE if last else None,
                "stroke-width": 3 if last else None,
            },
        ),
    ]
    if owner:  # the owner's initial where the wall crosses the grooves
        parts.append(_letter(x + width / 2, y + height / 2, SEAT_LETTERS[owner], 10, "#ffffff"))
    parts.append("</g>")
    return "".join(parts)


def _marker(layout: Layout, item: dict[str, Any]) -> str | None:
    place = parse(item.get("marker"), layout.size, "marker")
    owner = item.get("owner")
    if place is None or owner not in SEAT_COLOURS:
        return None
    col, row, orientation = place
    if orientation == "v":  # the edge east of (col, row)
        x, y, width, height = layout.x(col) + CELL, layout.y(row), GROOVE, CELL
    else:  # the edge north of (col, row)
        x, y, width, height = layout.x(col), layout.y(row) - GROOVE, CELL, GROOVE
    colour = SEAT_COLOURS[owner]
    edge = {"x": x + 1, "y": y + 1, "width": width - 2, "height": height - 2, "fill": "none"}
    # white under the dashes: they show on the grooves and over a wall of any colour
    under = element("rect", {**edge, "stroke": "#ffffff", "stroke-width": 2})
    outline = element(
        "rect", {**edge, "stroke": colour, "stroke-width": 2, "stroke-dasharray": "4 3"}
    )
    letter = _letter(
        x + width / 2, y + height / 2, SEAT_LETTERS[owner], 9, colour,
        stroke="#ffffff", **{"stroke-width": 2.5, "paint-order": "stroke"},
    )
    return (
        f'<g class="marker" data-marker="{escape(item["marker"])}" data-owner="{owner}">'
        f"{under}{outline}{letter}</g>"
    )


def _pawn(layout: Layout, seat: str, square: str, last: bool) -> str | None:
    place = parse(square, layout.size, "square")
    if place is None or seat not in SEAT_COLOURS:
        return None
    col, row, _ = place
    x, y = layout.x(col), layout.y(row)
    points, cx, cy = _triangle(seat, x, y)
    parts = [f'<g class="pawn" data-seat="{seat}" data-square="{escape(square)}">']
    if last:
        parts.append(
            element(
                "rect",
                {
                    "class": "last",
                    "data-last": square,
                    "x": num(x + 1.5),
                    "y": num(y + 1.5),
                    "width": CELL - 3,
                    "height": CELL - 3,
                    "fill": "none",
                    "stroke": OUTLINE,
                    "stroke-width": 3,
                },
            )
        )
    parts.append(
        element(
            "polygon",
            {"points": points, "fill": SEAT_COLOURS[seat], "stroke": TEXT, "stroke-width": 1},
        )
    )
    parts.append(_letter(cx, cy, SEAT_LETTERS[seat], 14, "#ffffff"))
    parts.append("</g>")
    return "".join(parts)


def _last_highlight(view: dict[str, Any], size: int) -> tuple[tuple[int, int, str] | None, str]:
    """(the square of the last move or jump, or None; the notation of the last wall or "")."""
    last = last_action(view)
    if last is None:
        return None, ""
    notation = last.get("notation")
    if last.get("type") in ("move", "jump"):
        return parse(notation, size, "square"), ""
    if last.get("type") == "wall":
        # a masked game's history names no square: the view's `last_wall` does
        shown = notation if isinstance(notation, str) else view.get("last_wall")
        return None, shown if isinstance(shown, str) else ""
    return None, ""


def _caption(layout: Layout, text: str) -> str:
    attributes: dict[str, object] = {
        "class": "caption",
        "x": num(layout.width / 2),
        "y": num(layout.board_height + CAPTION / 2),
        "font-size": 14,
        "fill": TEXT,
        "text-anchor": "middle",
        "dominant-baseline": "central",
    }
    room = layout.width - 2 * MARGIN
    if len(text) * 14 * 0.55 > room:  # a long line is squeezed rather than cut
        attributes["textLength"] = room
        attributes["lengthAdjust"] = "spacingAndGlyphs"
    return element("text", attributes, text)


def board_svg(view: dict[str, Any], *, caption: bool = True, standalone: bool = True,
              overlay: Sequence[str] = (), targets: bool = False) -> str:
    """The SVG picture of the game `view` (one document, ending with a newline).

    `caption`: a line under the board saying whose turn it is (as the title does).
    `standalone`: a document of its own, which scales itself (a style attribute); False:
    inline in a web page, whose style sheet scales it (the pages' Content-Security-Policy
    allows no style attribute).
    `overlay`: our own SVG elements drawn over the pieces (a replay's best action,
    drawing/best_outline.py).
    `targets`: the hit targets of a player's board (squares, walls' places, and the edges
    for markers in an invisible game), drawn last: see the module's text.
    """
    size = int(view.get("size") or 0)
    if size < 2:
        raise ValueError(f"a game view of board size {size!r}")
    layout = Layout(size, caption)
    title = describe(view)
    turn = view.get("turn")
    frame_colour = SEAT_COLOURS.get(turn, IDLE_FRAME) if isinstance(turn, str) else IDLE_FRAME
    last_square, last_wall = _last_highlight(view, size)

    walls = [item for item in view.get("walls") or [] if isinstance(item, dict)]
    drawn_walls = []
    highlighted = None
    for item in walls:
        is_last = bool(last_wall) and item.get("wall") == last_wall and highlighted is None
        drawn = _wall(layout, item, is_last)
        if drawn is None:
            continue
        if is_last:
            highlighted = drawn  # drawn after the others: its outline stays on top
        else:
            drawn_walls.append(drawn)
    if highlighted is not None:
        drawn_walls.append(highlighted)
    markers = [
        drawn
        for item in view.get("markers") or []
        if isinstance(item, dict) and (drawn := _marker(layout, item)) is not None
    ]
    pawns = view.get("pawns") or {}
    drawn_pawns = [
        drawn
        for seat in SEAT_ORDER
        if isinstance(pawns.get(seat), str)
        and (
            drawn := _pawn(
                layout,
                seat,
                pawns[seat],
                last_square is not None
                and parse(pawns[seat], size, "square") == last_square,
            )
        )
        is not None
    ]

    root = {
        "xmlns": "http://www.w3.org/2000/svg",
        "viewBox": f"0 0 {layout.width} {layout.height}",
        "width": layout.width,
        "height": layout.height,
        "style": "max-width:100%;height:auto" if standalone else None,
        "role": "img",
        "aria-label": title,
        "font-family": "sans-serif",
        "class": "cq-board",
        "data-game": view.get("id"),
        "data-size": size,
        "data-turn": turn if turn in SEAT_COLOURS else None,
        "data-at": view.get("at"),
    }
    opening = element("svg", root)[:-2] + ">"
    frame_offset = MARGIN + FRAME / 2
    body = [
        opening,
        element("title", {}, title),
        element("desc", {}, details(view, len(drawn_walls))),
        element(
            "rect",
            {
                "class": "frame",
                "data-turn": turn if turn in SEAT_COLOURS else None,
                "x": num(frame_offset),
                "y": num(frame_offset),
                "width": layout.inner + FRAME,
                "height": layout.inner + FRAME,
                "fill": BOARD,
                "stroke": frame_colour,
                "stroke-width": FRAME,
            },
        ),
        *_squares(layout, last_square),
        *_coordinates(layout),
        *drawn_walls,
        *markers,
        *drawn_pawns,
        *overlay,
        *(hit_targets(layout, bool(view.get("invisible"))) if targets else ()),
    ]
    if caption:
        body.append(_caption(layout, title))
    body.append("</svg>")
    return "\n".join(body) + "\n"
