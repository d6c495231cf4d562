"""The Swagger UI's assets, shipped in api/static, at /api-docs/static/<name>.

Only the files that are there when the server starts are served, by name: a directory,
a path with a NUL byte or any other name is a 404 like any unknown URL (Sanic's generic
static handler answered those with a 500).
"""

from __future__ import annotations

from pathlib import Path

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, file
from sanic_ext import openapi

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

bp = Blueprint("swagger_assets", url_prefix="/api-docs/static")


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
