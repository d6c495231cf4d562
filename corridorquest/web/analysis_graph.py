"""A finished game's analysis as an SVG graph under its board: one line per seat, each
point the evaluation the seat's action left (in steps; a decided game at the edge), a
mistake as a red ring; each point links to the replay's step where that ply is played
(`?at=N-1`: the position before ply N, where the replay outlines the best action and
names the one played; no script).
Our own markup (numbers, seat names and canonical actions; a player's name is escaped),
passed on as `Markup`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup, escape

WIDTH, HEIGHT = 640, 180
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 10, 20
CLIP = 10.0  # steps: a larger lead (a decided race, a won game) is drawn at the edge
COLOURS = {"south": "#4a90d9", "north": "#d98c4a", "east": "#59a65a", "west": "#9b6ad0"}


def _clipped(value: float) -> float:
    return max(-CLIP, min(CLIP, value))


def analysis_graph(plies: Sequence[dict[str, Any]], game_id: int, at: int | None = None
                   ) -> Markup:
    """`plies`: the rows of services.analyses (one per ply, in order)."""
    if not plies:
        return Markup("")
    count = len(plies)
    span_x = WIDTH - LEFT - RIGHT
    span_y = HEIGHT - TOP - BOTTOM

    def x(ply: int) -> float:
        return round(LEFT + (span_x * (ply - 1) / (count - 1) if count > 1 else span_x / 2), 1)

    def y(value: float) -> float:
        return round(TOP + span_y * (CLIP - _clipped(value)) / (2 * CLIP), 1)

    mistakes = sum(1 for row in plies if row["mistake"])
    parts = [
        f'<svg class="analysis-graph" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" data-plies="{count}" '
        f'data-mistakes="{mistakes}" aria-label="the evaluation after each of {count} plies, '
        f'{mistakes} mistake{"s" if mistakes != 1 else ""}">',
        f'<line class="zero" x1="{LEFT}" y1="{y(0)}" x2="{WIDTH - RIGHT}" y2="{y(0)}" '
        'stroke="currentColor" stroke-opacity="0.3" stroke-dasharray="4 4" pointer-events="none"/>',
        f'<text x="{LEFT - 6}" y="{TOP + 10}" text-anchor="end" font-size="11" '
        f'fill="currentColor">+{int(CLIP)}</text>',
        f'<text x="{LEFT - 6}" y="{y(0) + 4}" text-anchor="end" font-size="11" '
        'fill="currentColor">0</text>',
        f'<text x="{LEFT - 6}" y="{HEIGHT - BOTTOM}" text-anchor="end" font-size="11" '
        f'fill="currentColor">-{int(CLIP)}</text>',
    ]
    if at is not None and 0 < at <= count:
        parts.append(
            f'<line class="at" x1="{x(at)}" y1="{TOP}" x2="{x(at)}" y2="{HEIGHT - BOTTOM}" '
            'stroke="currentColor" stroke-opacity="0.5" pointer-events="none"/>'
        )
    seats = list(dict.fromkeys(row["seat"] for row in plies))
    for seat in seats:
        colour = COLOURS.get(seat, "#888888")
        rows = [row for row in plies if row["seat"] == seat]
        parts.append(
            f'<polyline class="seat" data-seat="{escape(seat)}" fill="none" pointer-events="none" '
            f'stroke="{colour}" stroke-width="2" points="'
            + " ".join(f"{x(row['ply'])},{y(row['after'])}" for row in rows) + '"/>'
        )
    for index, seat in enumerate(seats):  # the legend: which line is whose
        player = next((row.get("player") for row in plies if row["seat"] == seat), None)
        parts.append(
            f'<text class="legend" x="{LEFT + 8}" y="{TOP + 10 + 14 * index}" '
            f'pointer-events="none" font-size="11" fill="{COLOURS.get(seat, "#888888")}">'
            f"{escape(player or seat)} ({escape(seat)})</text>"
        )
    for row in plies:
        colour = COLOURS.get(row["seat"], "#888888")
        best = "" if row["best"] == row["action"] else f", best {row['best']}"
        after = row["after"]
        shown = "won" if after >= 1000 else "lost" if after <= -1000 else f"{after:+.2f}"
        player = row.get("player") or row["seat"]
        label = (f"{row['ply']}. {player} {row['action']}: {shown}{best}"
                 + (" — mistake" if row["mistake"] else ""))
        mark = (' class="point mistake" r="5" fill="#d0021b" fill-opacity="0.2" stroke="#d0021b"'
                ' stroke-width="2.5"'
                if row["mistake"] else f' class="point" r="3" fill="{colour}"')
        parts.append(
            f'<a href="/games/{int(game_id)}?at={int(row["ply"]) - 1}">'
            f'<circle cx="{x(row["ply"])}" cy="{y(after)}"{mark} data-ply="{int(row["ply"])}">'
            f"<title>{escape(label)}</title></circle></a>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))
