"""The board of a game, drawn from the game JSON of docs/api.md.

Each square takes 3 columns and each gap between squares 1 column, so a 17x17 board
with its coordinates is 75 columns wide. Pawns are triangles pointing to their goal
(North walks south: ``▼``), walls are drawn in the gaps in their owner's colour (neutral
when the owner is hidden), the border takes the colour of the player to move. Markers
(invisible-walls games) are dashed lines in their owner's colour, heavy dashed where they
lie over a wall. Without colour pawns are the letters N/E/S/W, walls are ``|`` and ``-``,
markers ``:`` and ``~~~``, and a marker over a wall ``#``.
"""

from __future__ import annotations

from typing import Any

from client.render.themes import Theme

PAWN_ICONS = {"north": "▼", "east": "◀", "south": "▲", "west": "▶"}
PAWN_LETTERS = {"north": "N", "east": "E", "south": "S", "west": "W"}
# MARKER_GLYPHS[colour][on a wall] = (vertical, horizontal): a marker alone is dashed,
# a marker over a wall (the finished reveal) heavy dashed; without colour ":"/"~" and "#".
MARKER_GLYPHS = {
    True: {False: ("┆", "┄"), True: ("╏", "╍")},
    False: {False: (":", "~"), True: ("#", "#")},
}


def parse_square(text: str) -> tuple[int, int]:
    """``"e4"`` -> ``(4, 3)`` (0-based column, row)."""
    return ord(text[0].lower()) - ord("a"), int(text[1:]) - 1


def parse_wall(text: str) -> tuple[int, int, str]:
    """``"c3h"`` -> ``(2, 2, "h")``."""
    col, row = parse_square(text[:-1])
    return col, row, text[-1].lower()


def column_letter(col: int) -> str:
    return chr(ord("a") + col)


def pawn_text(seat: str, theme: Theme | None) -> str:
    if theme is None:
        return PAWN_LETTERS[seat]
    return theme.seat(PAWN_ICONS[seat], seat, bold=True)


class _Grid:
    """Which owner (seat or None) blocks each edge; ``False`` means no wall.

    Markers (one edge each: ``e4v`` east of e4, ``e4h`` north of e4) are kept apart and
    drawn over the walls.
    """

    def __init__(
        self, size: int, walls: list[dict[str, Any]], markers: list[dict[str, Any]] | None = None
    ):
        self.size = size
        self.walls: dict[tuple[int, int, str], str | None] = {}
        for item in walls:
            self.walls[parse_wall(item["wall"])] = item.get("owner")
        self.markers: dict[tuple[int, int, str], str | None] = {}
        for item in markers or []:
            self.markers[parse_wall(item["marker"])] = item.get("owner")

    def marker_at(self, col: int, row: int, orientation: str) -> str | None | bool:
        key = (col, row, orientation)
        return self.markers[key] if key in self.markers else False

    def wall_at(self, col: int, row: int, orientation: str) -> str | None | bool:
        key = (col, row, orientation)
        return self.walls[key] if key in self.walls else False

    def east_edge(self, col: int, row: int) -> str | None | bool:
        """The wall between (col, row) and (col + 1, row), if any."""
        found = self.wall_at(col, row, "v")
        return found if found is not False else self.wall_at(col, row - 1, "v")

    def north_edge(self, col: int, row: int) -> str | None | bool:
        """The wall between (col, row) and (col, row + 1), if any."""
        found = self.wall_at(col, row, "h")
        return found if found is not False else self.wall_at(col - 1, row, "h")


def render_board(game: dict[str, Any], theme: Theme | None) -> list[str]:
    """The board as lines of text; ``theme=None`` draws it without colour."""
    size = int(game["size"])
    grid = _Grid(size, game.get("walls") or [], game.get("markers") or [])
    pawns = {parse_square(sq): seat for seat, sq in (game.get("pawns") or {}).items()}
    turn = game.get("turn") if game.get("status") == "started" else None

    def paint(text: str, colour_of: str | None | bool, kind: str = "seat") -> str:
        if theme is None:
            return text
        if kind == "grid":
            return theme.paint(text, theme.grid)
        if kind == "coords":
            return theme.paint(text, theme.coords)
        if kind == "border":
            colour = theme.seats.get(str(colour_of)) if colour_of else theme.idle_border
            return theme.paint(text, colour, bold=bool(colour_of))
        return theme.seat(text, colour_of if isinstance(colour_of, str) else None, bold=True)

    vbar, hbar = ("┃", "━") if theme is not None else ("|", "-")
    corners = ("┏", "┓", "┗", "┛") if theme is not None else ("+", "+", "+", "+")
    inner = size * 3 + (size - 1)
    header = ("    " + " ".join(f" {column_letter(c)} " for c in range(size))).rstrip()
    lines = [paint(header, None, "coords")]
    lines.append("   " + paint(corners[0] + hbar * inner + corners[1], turn, "border"))
    for row in range(size - 1, -1, -1):
        cells = []
        for col in range(size):
            seat = pawns.get((col, row))
            if seat is not None:
                cells.append(" " + pawn_text(seat, theme) + " ")
            else:
                cells.append(paint(" · " if theme is not None else " . ", None, "grid"))
            if col < size - 1:
                owner = grid.east_edge(col, row)
                marker = grid.marker_at(col, row, "v")
                if marker is not False:
                    glyph = MARKER_GLYPHS[theme is not None][owner is not False][0]
                    cells.append(paint(glyph, marker))
                else:
                    cells.append(" " if owner is False else paint(vbar, owner))
        label = paint(f"{row + 1:>2} ", None, "coords")
        right = paint(f" {row + 1}", None, "coords")
        side = paint(vbar, turn, "border")
        lines.append(label + side + "".join(cells) + side + right)
        if row > 0:
            lines.append("   " + side + _gap_line(grid, row - 1, paint, vbar, hbar) + side)
    lines.append("   " + paint(corners[2] + hbar * inner + corners[3], turn, "border"))
    lines.append(paint(header, None, "coords"))
    return lines


def _gap_line(grid: _Grid, row: int, paint: Any, vbar: str, hbar: str) -> str:
    """The line between ``row`` and ``row + 1``: horizontal walls and wall crossings."""
    parts = []
    coloured = vbar != "|"
    for col in range(grid.size):
        owner = grid.north_edge(col, row)
        marker = grid.marker_at(col, row, "h")
        if marker is not False:
            parts.append(paint(MARKER_GLYPHS[coloured][owner is not False][1] * 3, marker))
        else:
            parts.append("   " if owner is False else paint(hbar * 3, owner))
        if col < grid.size - 1:
            vertical = grid.wall_at(col, row, "v")
            horizontal = grid.wall_at(col, row, "h")
            if vertical is not False:
                parts.append(paint(vbar, vertical))
            elif horizontal is not False:
                parts.append(paint(hbar, horizontal))
            else:
                parts.append(" ")
    return "".join(parts)
