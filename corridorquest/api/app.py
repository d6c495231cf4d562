"""The Sanic application factory: `create_app(settings)`.

One blueprint per domain under /api/v1, one error handler, OpenAPI at
/api-docs/openapi.json and Swagger UI at /api-docs (assets shipped in api/static).
The service context (database, bus) opens when the server starts and closes when it
stops; the notify worker (corridorquest/notify), the scheduler (corridorquest/scheduler),
the bot driver (corridorquest/bot_play) and the live streams (corridorquest/live) start
after it and stop before.
"""

from __future__ import annotations

import gc
import itertools
import logging
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
    boards,
    games,
    markers,
    messages,
    openapi_rules,
    scores,
    server,
    sessions,
    streams,
    swagger_assets,
    trading,
    users,
)
from corridorquest.api.bad_urls import CheckedRequest
from corridorquest.api.errors import install_error_handler
from corridorquest.api.json_encoding import dumps
from corridorquest.api.stopping import StopsOnceServing
from corridorquest.bot_play.driver import start_bots
from corridorquest.live import start_live
from corridorquest.live.writer import WriterProcess
from corridorquest.notify.worker import start_notifications
from corridorquest.scheduler import start_scheduler
from corridorquest.security.https_check import install_https_check
from corridorquest.services.bot_users import ensure_bot_users
from corridorquest.services.context import ServiceContext
from corridorquest.services.users import ensure_initial_admin
from corridorquest.settings import Settings
from corridorquest.web import pages

log = logging.getLogger("corridorquest.api")

_app_numbers = itertools.count(1)

# One blueprint per domain; each has its own url_prefix below /api/v1.
BLUEPRINTS: list[Blueprint] = [
    server.bp,
    games.bp,
    boards.bp,
    markers.bp,
    scores.bp,
    trading.bp,
    messages.bp,
    admin_server.broadcasts_bp,  # POST /admin/broadcasts (instead of messages.admin_bp)
    admin_users.bp,
    admin_games.bp,
    admin_server.bp,
    admin_audit.bp,
    users.bp,
    sessions.bp,
    sessions.verifications_bp,
    streams.bp,
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


def create_app(settings: Settings) -> Sanic[Any, Any]:
    """A new application (a unique name per call, so tests may create several)."""
    app = StopsOnceServing(
        f"corridorquest_{next(_app_numbers)}",
        configure_logging=False,
        dumps=dumps,
        request_class=CheckedRequest,  # a URL that does not parse: 400, answered
    )
    app.config.ACCESS_LOG = False
    app.config.FALLBACK_ERROR_FORMAT = "json"
    app.config.REQUEST_MAX_SIZE = 1_000_000
    app.config.NOISY_EXCEPTIONS = False
    app.config.PROXIES_COUNT = settings.proxies_count  # client address for rate limits
    app.ctx.settings = settings
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
    app.blueprint(pages.bp.copy(pages.bp.name))  # the web pages for watching
    # Blueprint objects may be registered on one app only: copy them per app.
    group = Blueprint.group(
        *[bp.copy(bp.name, url_prefix=bp.url_prefix) for bp in BLUEPRINTS],
        url_prefix="/api/v1",
    )
    app.blueprint(group)
    install_error_handler(app)
    openapi_rules.install(app)
    install_https_check(app, settings)

    @app.before_server_start
    async def read_every_announced_body(app: Sanic[Any, Any]) -> None:
        # Sanic skips reading the body of GET, HEAD and DELETE requests, then logs an
        # ERROR ("body not consumed") for each one that announced a body, even
        # `Content-Length: 0`. Read it (a request without a body costs nothing more).
        for route in app.router.routes:
            route.extra.ignore_body = False

    @app.before_server_start
    async def open_services(app: Sanic[Any, Any]) -> None:
        # first: the helper is forked before any thread or database connection exists
        writer = WriterProcess.start() if settings.stream_writer == "process" else None
        app.ctx.stream_writer = writer
        ctx = ServiceContext.open(settings)
        # What exists now (modules, routes, the OpenAPI spec) lives as long as the server:
        # out of the collector's sight, a full collection no longer walks it (pauses that
        # every request of that moment would wait for). Done before any worker starts
        # (on PostgreSQL their transactions run in the pool's threads): twice in CI, on
        # PostgreSQL only, the server died at start-up (SIGSEGV) right after the
        # scheduler's first transaction, where this collection ran alongside it before.
        # Suspected, not proven.
        gc.collect()
        gc.freeze()
        app.ctx.notifier = start_notifications(ctx)  # before any write: it keeps events
        app.ctx.services = ctx
        ensure_initial_admin(
            ctx.store, settings.admin_username, settings.admin_email, settings.init
        )
        ensure_bot_users(ctx.store)  # after the administrator: it is made on an empty database
        log.info("database ready: %s", _redacted(settings.database_url))
        app.ctx.scheduler = start_scheduler(ctx)
        app.ctx.bots = start_bots(ctx)  # plays the bots' moves (worker processes)
        app.ctx.live = await start_live(ctx, writer)  # streams; on PostgreSQL, the relay
        # A request allocates thousands of containers that reference counting frees; the
        # default threshold (700) still ran a young collection every few requests, and the
        # older generations after them. Collections that rare keep p99 under load about a
        # fifth lower (benchmarks/README.md); the garbage in cycles waiting meanwhile is a
        # few MB at most.
        gc.set_threshold(50_000, 20, 20)

    @app.before_server_stop
    async def end_streams(app: Sanic[Any, Any]) -> None:
        # before Sanic waits for open connections: a stream would hold it until the
        # graceful shutdown's timeout
        live = getattr(app.ctx, "live", None)
        if live is not None:
            await live.close()

    @app.after_server_stop
    async def close_services(app: Sanic[Any, Any]) -> None:
        bots = getattr(app.ctx, "bots", None)
        if bots is not None:
            await bots.stop()
        scheduler = getattr(app.ctx, "scheduler", None)
        if scheduler is not None:
            await scheduler.stop()
        notifier = getattr(app.ctx, "notifier", None)
        if notifier is not None:
            await notifier.stop()
        ctx: ServiceContext | None = getattr(app.ctx, "services", None)
        if ctx is not None:
            await ctx.close()
        writer = getattr(app.ctx, "stream_writer", None)
        if writer is not None:
            await writer.close()

    return app


def _redacted(url: str) -> str:
    """A database URL without its password, for the log."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        user = credentials.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}"
    return url
