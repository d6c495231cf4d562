"""The Swagger UI's assets, shipped in api/static, at /api-docs/static/<name>.

Only the files that are there when the server starts are served, by name: a directory,
a path with a NUL byte or any other name is a 404 like any unknown URL (Sanic's generic
static handler answered those with a 500).

The page and its assets, like the web pages, may not be framed nor sniffed, and the page
runs only the scripts shipped here (its start is swagger-init.js, not inline): the
headers come from a response middleware of the two blueprints that serve /api-docs (this
one and sanic-ext's, see `OpenAPIWithHeaders`), so no other answer pays for them.
"""

from __future__ import annotations

from pathlib import Path

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, file
from sanic_ext import openapi
from sanic_ext.bootstrap import Extend
from sanic_ext.extensions.openapi.blueprint import blueprint_factory
from sanic_ext.extensions.openapi.builders import SpecificationBuilder
from sanic_ext.extensions.openapi.extension import OpenAPIExtension

from corridorquest.services.errors import NotFound

STATIC_DIR = Path(__file__).resolve().parent / "static"
_CONTENT_TYPES = {
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
}
_ASSETS = {
    path.name: path
    for path in STATIC_DIR.iterdir()
    if path.is_file() and path.suffix in _CONTENT_TYPES
}

# The Swagger UI draws its icons as data: images and adds a style element; it fetches the
# document and, with "Try it out", the API from this server.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",  # the Swagger UI adds a <style> element
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    )
)
DOCS_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


async def add_docs_headers(request: Request, response: HTTPResponse) -> None:
    """Response middleware of the /api-docs blueprints (a handler's own value wins)."""
    for name, value in DOCS_HEADERS.items():
        if name not in response.headers:
            response.headers[name] = value


class OpenAPIWithHeaders(OpenAPIExtension):
    """sanic-ext's OpenAPI extension, its blueprint (/api-docs, /api-docs/openapi.json)
    with the headers above: as `OpenAPIExtension.startup`, plus the middleware before the
    blueprint is registered."""

    name = "openapiwithheaders"  # (sanic-ext's extensions are registered by name)

    def startup(self, bootstrap: Extend) -> None:
        if self.app.config.OAS:
            self.bp = blueprint_factory(self.app.config)
            self.bp.middleware(add_docs_headers, "response")
            self.app.blueprint(self.bp)
            bootstrap._openapi = SpecificationBuilder()


bp = Blueprint("swagger_assets", url_prefix="/api-docs/static")
bp.middleware(add_docs_headers, "response")


@bp.get("/<name:path>", name="asset")
@openapi.exclude()
async def asset(request: Request, name: str) -> HTTPResponse:
    path = _ASSETS.get(name)
    if path is None:
        raise NotFound("not_found", "no such file")
    return await file(
        path,
        mime_type=_CONTENT_TYPES[path.suffix],
        headers={"Cache-Control": "public, max-age=86400"},
    )


@bp.get("/", name="index")
@openapi.exclude()
async def listing(request: Request) -> HTTPResponse:
    raise NotFound("not_found", "no such file")
