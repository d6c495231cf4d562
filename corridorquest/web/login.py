"""Logging in to watch (WEB_WATCH_WITHOUT_LOGIN=false): `/login` sets a session cookie
that counts for GET requests only; `/logout` ends the session."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sanic import Request
from sanic.response import HTTPResponse, html, redirect
from sanic_ext import openapi

from corridorquest.callers import (
    ANONYMOUS,
    SESSION_COOKIE,
    client_address,
    cookie_secure,
    services,
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
