"""REQUIRE_HTTPS as a Sanic request hook: plain HTTP gets 403 ``https_required``
(`HttpsRequired`, which the API's error handler answers through the services' errors)."""

from __future__ import annotations

from sanic import Request, Sanic

from corridorquest.security.errors import HttpsRequired
from corridorquest.security.https import is_https
from corridorquest.settings import Settings


def install_https_check(app: Sanic, settings: Settings) -> None:
    """Refuse every request that did not arrive over HTTPS when REQUIRE_HTTPS is on."""
    if not settings.require_https:
        return

    async def refuse_plain_http(request: Request) -> None:
        if not is_https(bool(request.conn_info and request.conn_info.ssl), request.headers):
            raise HttpsRequired()

    app.register_middleware(refuse_plain_http, "request", priority=100)
