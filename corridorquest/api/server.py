"""GET /api/v1/server/info: version, MOTD, admin e-mail, ntfy URL (no login)."""

from __future__ import annotations

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json

from corridorquest.api.auth import services
from corridorquest.api.docs import documented
from corridorquest.api.schemas import ServerInfoOut
from corridorquest.services.server import server_info

bp = Blueprint("server", url_prefix="/server")


@bp.get("/info")
@documented("Server information (no login)", tag="server", ok=(200, ServerInfoOut), secured=False)
async def info(request: Request) -> HTTPResponse:
    return json(ServerInfoOut(**await server_info(services(request))).model_dump())
