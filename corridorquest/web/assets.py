"""The pages' script and style (vendored: no asset from outside), from static/."""

from __future__ import annotations

from pathlib import Path

from sanic import Request
from sanic.response import HTTPResponse, file
from sanic_ext import openapi

from corridorquest.services.errors import NotFound

STATIC_DIR = Path(__file__).resolve().parent / "static"
_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}
_ASSETS = {p.name: p for p in STATIC_DIR.iterdir() if p.is_file() and p.suffix in _TYPES}


@openapi.exclude()
async def favicon(request: Request) -> HTTPResponse:
    return HTTPResponse(status=204)  # none: browsers ask on every page


@openapi.exclude()
async def asset(request: Request, name: str) -> HTTPResponse:
    path = _ASSETS.get(name)
    if path is None:
        raise NotFound("not_found", "no such file")
    return await file(path, mime_type=_TYPES[path.suffix], headers={"Cache-Control": "no-cache"})
