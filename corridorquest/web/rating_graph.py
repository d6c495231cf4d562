"""A pool's rating history as an SVG line graph: one point per rated game, in the order
they were rated, each with a tooltip (its game, rating and change). Our own markup (the
numbers are ours; no text a player typed goes in), so it is passed on as `Markup`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup, escape

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 24


def rating_graph(points: Sequence[dict[str, Any]], pool: str) -> Markup:
    """`points`: the history of services.ratings (rating after each game, change)."""
    if not points:
        return Markup("")
    ratings = [int(p["rating"]) for p in points]
    low = min([*ratings, 1500]) - 50
    high = max([*ratings, 1500]) + 50
    span_x = WIDTH - LEFT - RIGHT
    span_y = HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return LEFT + (span_x * index / (len(points) - 1) if len(points) > 1 else span_x / 2)

    def y(rating: float) -> float:
        return TOP + span_y * (high - rating) / (high - low)

    coords = [(round(x(i), 1), round(y(r), 1)) for i, r in enumerate(ratings)]
    parts = [
        f'<svg class="rating-graph" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" data-pool="{escape(pool)}" '
        f'aria-label="rating after each of {len(points)} rated games">',
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" '
        'stroke="currentColor" stroke-opacity="0.4"/>',
        f'<line class="start" x1="{LEFT}" y1="{round(y(1500), 1)}" x2="{WIDTH - RIGHT}" '
        f'y2="{round(y(1500), 1)}" stroke="currentColor" stroke-opacity="0.2" '
        'stroke-dasharray="4 4"/>',
        f'<text x="{LEFT - 6}" y="{TOP + 10}" text-anchor="end" font-size="11" '
        f'fill="currentColor">{high}</text>',
        f'<text x="{LEFT - 6}" y="{HEIGHT - BOTTOM}" text-anchor="end" font-size="11" '
        f'fill="currentColor">{low}</text>',
        f'<text x="{LEFT - 6}" y="{round(y(1500), 1) + 4}" text-anchor="end" font-size="11" '
        'fill="currentColor">1500</text>',
        '<polyline fill="none" stroke="#4a90d9" stroke-width="2" points="'
        + " ".join(f"{cx},{cy}" for cx, cy in coords) + '"/>',
    ]
    for (cx, cy), point in zip(coords, points, strict=True):
        game = f"game {point['game_id']}" if point.get("game_id") else "a private game"
        change = int(point["change"])
        label = f"{game}: {point['rating']} ({'+' if change > 0 else ''}{change})"
        parts.append(
            f'<circle class="point" cx="{cx}" cy="{cy}" r="3.5" fill="#4a90d9" '
            f'data-rating="{int(point["rating"])}"><title>{escape(label)}</title></circle>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
