"""Logging in from a browser: `/login` sets the session cookie (reads count with it
alone, writes with the write token of `/web/csrf` too, see callers.py); `/logout` ends
the session."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sanic import Request
from sanic.response import HTTPResponse, html, json, redirect
from sanic_ext import openapi

from corridorquest.callers import (
    ANONYMOUS,
    SESSION_COOKIE,
    client_address,
    cookie_secure,
    require_user,
    services,
    write_token,
)
from corridorquest.services import sessions
from corridorquest.services.auth import authenticate
from corridorquest.services.errors import ServiceError, Unauthenticated
from corridorquest.web.templating import render


def safe_next(path: str | None) -> str:
    """Where to go after logging in: a path of this server, else the lobby."""
    path = path or "/"
    return path if path.startswith("/") and not path.startswith("//") else "/"


@openapi.exclude()
async def login_page(request: Request) -> HTTPResponse:
    next_path = safe_next(request.args.get("next"))
    return html(render("login.html", user=ANONYMOUS, next_path=next_path, problem="", username=""))


@openapi.exclude()
async def login(request: Request) -> HTTPResponse:
    form: Mapping[str, Any] = request.form or {}  # RequestParameters: .get gives the first
    next_path = safe_next(form.get("next"))
    username = str(form.get("username") or "")
    try:
        opened = await sessions.login(
            services(request),
            username,
            str(form.get("password") or ""),
            client_address(request),
            replace=form.get("replace") == "yes",
            held_token=request.cookies.get(SESSION_COOKIE) or None,  # its own: replaced
        )
    except ServiceError as error:
        page = render(
            "login.html", user=ANONYMOUS, next_path=next_path, problem=error.message,
            username=username,
        )
        return html(page, status=error.status)
    response = redirect(next_path, status=303)
    response.add_cookie(
        SESSION_COOKIE, opened.token, httponly=True, samesite="Strict", path="/",
        secure=cookie_secure(request),
    )
    return response


@openapi.exclude()
async def logout(request: Request) -> HTTPResponse:
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        try:
            user = await authenticate(services(request), str(token))
        except Unauthenticated:
            pass  # ended already
        else:
            await sessions.logout(services(request), user)
    response = redirect("/", status=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@openapi.exclude()
async def csrf(request: Request) -> HTTPResponse:
    """The write token of the browser's session, for the pages' script to send with its
    writes (`X-CSRF-Token`, see callers.py). A GET with the cookie: only this site's pages
    can read the answer (the API sends no CORS headers)."""
    user = await require_user(request)
    del user  # logged in: the cookie is a live session
    token = str(request.cookies.get(SESSION_COOKIE, "") or "")
    response = json({"csrf_token": write_token(token) if token else ""})
    response.headers["Cache-Control"] = "no-store"
    return response
