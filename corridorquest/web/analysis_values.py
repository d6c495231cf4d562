"""The game page's analysis values: the graph of a stored analysis, or its status."""

from __future__ import annotations

from markupsafe import Markup
from sanic import Request

from corridorquest.callers import services
from corridorquest.services import analyses
from corridorquest.services.auth import CurrentUser
from corridorquest.services.errors import ServiceError
from corridorquest.web.analysis_graph import analysis_graph


async def analysis_values(
    request: Request, user: CurrentUser, game_id: int, at: int
) -> tuple[Markup | None, str | None]:
    """(the graph, None) once done; (None, "pending"|"failed") while not; (None, None)
    when never requested (or not to be seen: the page says nothing more than that)."""
    try:
        found = await analyses.read_analysis(services(request), user, game_id)
    except ServiceError:
        return None, None
    if found["status"] != "done":
        return None, found["status"]
    return analysis_graph(found["plies"], game_id, at), "done"
