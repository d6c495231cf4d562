"""The composition root: `create_app(settings)` builds the server from its rooms.

The only module that imports api, web, live, notify and scheduler together
(tests/test_layering.py): the API mounts its blueprints (api/app.py), the web its pages
(web/pages.py); the service context (database, bus) opens when the server starts and
closes when it stops; the side rooms (side_rooms.py: notify, scheduler, live) start
after it and stop before. `stopping.py`: the application class, which keeps a stop
asked for during the start-up.
"""

from __future__ import annotations

import gc
import itertools
import logging
from typing import Any

from sanic import Sanic

from corridorquest import discovery
from corridorquest.api.app import mount_api
from corridorquest.api.bad_urls import CheckedRequest
from corridorquest.composition.side_rooms import SideRooms
from corridorquest.composition.stopping import StopsOnceServing
from corridorquest.json_encoding import dumps
from corridorquest.security.https_check import install_https_check
from corridorquest.services.bot_users import ensure_bot_users
from corridorquest.services.context import ServiceContext
from corridorquest.services.users import ensure_initial_admin
from corridorquest.settings import Settings
from corridorquest.web import pages

log = logging.getLogger("corridorquest.api")

_app_numbers = itertools.count(1)


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
    mount_api(app)  # /api/v1, /api-docs, the error handler
    app.blueprint(pages.bp.copy(pages.bp.name))  # the web pages for watching
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
        app.ctx.services = ctx
        # writes no event (the notify worker, started next, needs to keep none of it)
        ensure_initial_admin(
            ctx.store, settings.admin_username, settings.admin_email, settings.init
        )
        ensure_bot_users(ctx.store)  # after the administrator: it is made on an empty database
        log.info("database ready: %s", _redacted(settings.database_url))
        app.ctx.side_rooms = await SideRooms.start(ctx)
        app.ctx.live = app.ctx.side_rooms.live  # the stream handlers find the hub here
        # LAN discovery (issue 30): the mDNS announcement, in its own thread
        app.ctx.discovery = discovery.start(settings, discovery.served_port(app, settings))
        # A request allocates thousands of containers that reference counting frees; the
        # default threshold (700) still ran a young collection every few requests, and the
        # older generations after them. Collections that rare keep p99 under load about a
        # fifth lower (benchmarks/README.md); the garbage in cycles waiting meanwhile is a
        # few MB at most.
        gc.set_threshold(50_000, 20, 20)

    @app.before_server_stop
    async def end_streams(app: Sanic[Any, Any]) -> None:
        side_rooms: SideRooms | None = getattr(app.ctx, "side_rooms", None)
        if side_rooms is not None:
            await side_rooms.end_streams()

    @app.after_server_stop
    async def close_services(app: Sanic[Any, Any]) -> None:
        await discovery.stop(getattr(app.ctx, "discovery", None))
        side_rooms: SideRooms | None = getattr(app.ctx, "side_rooms", None)
        if side_rooms is not None:
            await side_rooms.stop()
        ctx: ServiceContext | None = getattr(app.ctx, "services", None)
        if ctx is not None:
            await ctx.close()

    return app


def _redacted(url: str) -> str:
    """A database URL without its password, for the log."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        user = credentials.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}"
    return url
