"""Logging in from a browser: `/login` sets the session cookie (reads count with it
alone, writes with the write token of `/web/csrf` too, see callers.py); `/logout` ends
the session. The other account pages (signup, verify, password reset) are accounts.py
and accounts_reset.py; they end where a login does (`logged_in`)."""

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
from corridorquest.services.guests import is_guest
from corridorquest.services.sessions import NewSession
from corridorquest.web.templating import render

# What the login form adds to a refusal whose message speaks to a terminal user.
_HINTS = {
    "account_unverified": "Enter the code of the signup e-mail on the verification page.",
}


def safe_next(path: str | None) -> str:
    """Where to go after logging in: a path of this server, else the lobby. Not `//host`
    nor `/\\host` (browsers read both as another server)."""
    path = path or "/"
    ok = path.startswith("/") and not path.startswith(("//", "/\\")) and "\\" not in path
    return path if ok and path.isprintable() else "/"


def login_form(
    next_path: str, problem: str = "", username: str = "", notice: str = "", reason: str = ""
) -> str:
    """The login page: the `problem` of the last try (a refusal's message), or a `notice`
    (what just happened: a password changed)."""
    return render(
        "login.html", user=ANONYMOUS, next_path=next_path, problem=problem,
        hint=_HINTS.get(reason, ""), username=username, notice=notice,
    )


def logged_in(request: Request, opened: NewSession, next_path: str) -> HTTPResponse:
    """To `next_path` with the session's cookie: the browser is logged in."""
    response = redirect(next_path, status=303)
    response.add_cookie(
        SESSION_COOKIE, opened.token, httponly=True, samesite="Strict", path="/",
        secure=cookie_secure(request),
    )
    return response


@openapi.exclude()
async def login_page(request: Request) -> HTTPResponse:
    next_path = safe_next(request.args.get("next"))
    notice = "Your password is changed: log in with it." if request.args.get("reset") else ""
    return html(login_form(next_path, notice=notice))


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
        page = login_form(next_path, error.message, username, reason=error.reason)
        return html(page, status=error.status)
    return logged_in(request, opened, next_path)


@openapi.exclude()
async def logout(request: Request) -> HTTPResponse:
    """End the session. A guest is asked first (`confirm=yes` ends it): a guest has no
    password, so after logging out nobody can come back to its account."""
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        try:
            user = await authenticate(services(request), str(token))
        except Unauthenticated:
            pass  # ended already
        else:
            if is_guest(user) and (request.form or {}).get("confirm") != "yes":
                return html(render("guest_logout.html", user=user))
            await sessions.logout(services(request), user)
    response = redirect("/", status=303)
    # expired with the attributes it was set with: a removal marked Secure (Sanic's
    # delete_cookie) is ignored by browsers over plain HTTP, a LAN party's server
    response.add_cookie(
        SESSION_COOKIE, "", httponly=True, samesite="Strict", path="/", max_age=0,
        secure=cookie_secure(request),
    )
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
