"""Who watches a page: the watcher of corridorquest/callers.py, or a login first."""

from __future__ import annotations

from urllib.parse import quote

from sanic import Request
from sanic.response import HTTPResponse, redirect

from corridorquest.callers import watcher
from corridorquest.services.auth import CurrentUser
from corridorquest.services.errors import Unauthenticated


async def viewer(request: Request) -> CurrentUser | None:
    """The watcher, or None when the pages must ask for a login first."""
    try:
        return await watcher(request)
    except Unauthenticated:
        return None


def login_redirect(request: Request) -> HTTPResponse:
    """To the login form, and back to this page after it, with its query (a private
    game's join link keeps its code)."""
    back = request.path + (f"?{request.query_string}" if request.query_string else "")
    return redirect("/login?next=" + quote(back, safe="/"))
