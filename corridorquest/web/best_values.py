"""A finished game's replay step and its analysis: at step N (the position before ply
N + 1) the best action of ply N + 1, drawn on the board and said under it ("Best here:
e3h", and "played: e2 ??" when the ply played was a mistake). Nothing without a stored
analysis, at the end of the game, or for a game in play."""

from __future__ import annotations

from typing import Any

from sanic import Request

from corridorquest.callers import services
from corridorquest.services import analyses
from corridorquest.services.auth import CurrentUser
from corridorquest.services.errors import ServiceError


async def best_here(request: Request, user: CurrentUser, game_id: int, at: int
                    ) -> dict[str, Any] | None:
    """The analysis row of the ply played from step `at` (ply `at` + 1), or None."""
    try:
        found = await analyses.read_analysis(services(request), user, game_id)
    except ServiceError:
        return None
    if found["status"] != "done":
        return None
    rows = [row for row in found.get("plies") or [] if row.get("ply") == at + 1]
    return rows[0] if rows and isinstance(rows[0].get("best"), str) else None


def best_caption(row: dict[str, Any]) -> str:
    """ "Best here: e3h", and ", played: e2 ??" when the ply played differs and was a
    mistake."""
    text = f"Best here: {row['best']}"
    if row.get("mistake") and row.get("action") != row["best"]:
        text += f" · played: {row.get('action')} ??"
    return text
