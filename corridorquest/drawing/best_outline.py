"""The analysis's best action drawn over a replay's board (issue 31 item 3): a dashed
outline of the wall, or a dashed ring on the square a move or jump goes to with a dashed
line from the mover's pawn; in a colour no piece has, under class "best" with
`data-best`. Our own SVG elements, given to `board_svg(view, overlay=...)`."""

from __future__ import annotations

from typing import Any

from corridorquest.drawing.board_geometry import CELL, GROOVE, Layout, element, num, parse

BEST = "#c2188c"  # magenta: no seat's colour, no wall's, not the last action's black
DASHES = "6 4"


def best_outline(view: dict[str, Any], best: str, seat: str | None = None) -> list[str]:
    """The element (a group) showing `best` (a wall "c3h", or a square "e4") on `view`'s board;
    `seat`: who plays it (its pawn starts the line). Nothing for a notation off the board."""
    size = int(view.get("size") or 0)
    layout = Layout(size, caption=False)
    stroke = {"fill": "none", "stroke": BEST, "stroke-width": 3, "stroke-dasharray": DASHES}
    wall = parse(best, size, "wall")
    if wall is not None:
        col, row, orientation = wall
        if orientation == "h":
            x, y, width, height = (layout.x(col), layout.y(row) - GROOVE, 2 * CELL + GROOVE,
                                   GROOVE)
        else:
            x, y, width, height = (layout.x(col) + CELL, layout.y(row + 1), GROOVE,
                                   2 * CELL + GROOVE)
        box = {"x": x - 1, "y": y - 1, "width": width + 2, "height": height + 2, "rx": 2}
        return [f'<g class="best" data-best="{best}" data-kind="wall">'
                + element("rect", {**box, **stroke}) + "</g>"]
    square = parse(best, size, "square")
    if square is None:
        return []
    cx, cy = layout.x(square[0]) + CELL / 2, layout.y(square[1]) + CELL / 2
    radius = CELL / 2 - 2
    parts = [f'<g class="best" data-best="{best}" data-kind="move">',
             element("circle", {"cx": num(cx), "cy": num(cy), "r": num(radius), **stroke})]
    start = parse((view.get("pawns") or {}).get(seat or ""), size, "square")
    if start is not None and start[:2] != square[:2]:
        sx, sy = layout.x(start[0]) + CELL / 2, layout.y(start[1]) + CELL / 2
        length = ((cx - sx) ** 2 + (cy - sy) ** 2) ** 0.5
        ex, ey = cx - (cx - sx) * radius / length, cy - (cy - sy) * radius / length
        ends = {"x1": num(sx), "y1": num(sy), "x2": num(round(ex, 1)),
                "y2": num(round(ey, 1))}
        parts.append(element("line", {**ends, **stroke}))
    parts.append("</g>")
    return ["".join(parts)]
