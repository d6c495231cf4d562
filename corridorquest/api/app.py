"""What the API adds to the application (corridorquest/composition builds it).

One blueprint per domain under /api/v1, one error handler, OpenAPI at
/api-docs/openapi.json and Swagger UI at /api-docs (assets shipped in api/static).
"""

from __future__ import annotations

from typing import Any

from sanic import Blueprint, Sanic
from sanic_ext import Config
from sanic_ext.config import PRIORITY as SANIC_EXT_PRIORITY
from sanic_ext.extensions.http.extension import HTTPExtension

from corridorquest import __version__
from corridorquest.api import (
    admin_audit,
    admin_games,
    admin_server,
    admin_users,
    analyses,
    boards,
    games,
    guests,
    markers,
    messages,
    openapi_rules,
    ratings,
    records,
    scores,
    server,
    sessions,
    streams,
    swagger_assets,
    tournaments,
    trading,
    users,
)
from corridorquest.api.errors import install_error_handler

# One blueprint per domain; each has its own url_prefix below /api/v1.
BLUEPRINTS: list[Blueprint] = [
    server.bp,
    games.bp,
    boards.bp,
    records.bp,
    analyses.bp,
    markers.bp,
    scores.bp,
    ratings.bp,
    trading.bp,
    messages.bp,
    admin_server.broadcasts_bp,  # POST /admin/broadcasts (instead of messages.admin_bp)
    admin_users.bp,
    admin_games.bp,
    admin_server.bp,
    admin_audit.bp,
    users.bp,
    guests.bp,
    sessions.bp,
    sessions.verifications_bp,
    streams.bp,
    tournaments.bp,
]


def _one_signal_router_rebuild(app: Sanic[Any, Any]) -> None:
    """sanic-ext adds the HEAD and OPTIONS routes (about a hundred) as the server starts,
    one at a time; Sanic rebuilt (compiled) its signal router after each of them, about
    a third of the server's start-up. Around sanic-ext's listeners (at its PRIORITY) the
    signal router is left open, and rebuilt once after them (benchmarks/README.md)."""

    @app.before_server_start(priority=SANIC_EXT_PRIORITY + 1)
    async def open_signal_router(app: Sanic[Any, Any]) -> None:
        app.signal_router.reset()

    @app.before_server_start(priority=SANIC_EXT_PRIORITY - 1)
    async def close_signal_router(app: Sanic[Any, Any]) -> None:
        app.signalize(bool(app.config.TOUCHUP))


def mount_api(app: Sanic[Any, Any]) -> None:
    """What the API adds to an application: sanic-ext (OpenAPI, HEAD and OPTIONS), the
    Swagger UI, the blueprints under /api/v1, the error handler and the OpenAPI rules."""
    app.extend(
        # Only the extensions we use: the built-in dependency injection alone dispatched a
        # routing signal on every request (a few per cent of a move's server time).
        built_in_extensions=False,
        extensions=[swagger_assets.OpenAPIWithHeaders, HTTPExtension],
        config=Config(
            oas_url_prefix="/api-docs",
            oas_uri_to_json="/openapi.json",
            oas_ui_default="swagger",
            oas_ui_redoc=False,
            oas_ui_swagger=True,
            oas_path_to_swagger_html=str(swagger_assets.STATIC_DIR / "index.html"),
            oas_ui_swagger_html_title="Corridor Quest API",
            oas_autodoc=True,
            cors=False,
            http_auto_trace=False,
        )
    )
    _one_signal_router_rebuild(app)
    app.ext.openapi.describe(
        "Corridor Quest API",
        version=__version__,
        description="REST API of a Corridor Quest server (see docs/api.md).",
    )
    app.ext.openapi.add_security_scheme("token", "http", scheme="bearer")
    app.blueprint(swagger_assets.bp.copy(swagger_assets.bp.name))
    # Blueprint objects may be registered on one app only: copy them per app.
    group = Blueprint.group(
        *[bp.copy(bp.name, url_prefix=bp.url_prefix) for bp in BLUEPRINTS],
        url_prefix="/api/v1",
    )
    app.blueprint(group)
    install_error_handler(app)
    openapi_rules.install(app)
