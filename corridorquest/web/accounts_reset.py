"""A forgotten password, from a browser: `/forgot` (the username and the new password:
the service of `POST /api/v1/users/{username}/password`, which e-mails a code to the
account's address), then `/reset` (the code, the service of `POST /api/v1/verifications`:
the password changes and every session of the account ends), after which the browser is
logged in with the new password (typed again: the page keeps no password) and goes on
to `next`.

As on the signup pages: every refusal is the page again with the service's message and
its 4xx status, nothing changed; the request's verification token waits in an HttpOnly
cookie between the two steps (accounts_pending.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from sanic import Request
from sanic.response import HTTPResponse, html, redirect
from sanic_ext import openapi

from corridorquest.callers import ANONYMOUS, SESSION_COOKIE, client_address, services
from corridorquest.services import account_changes, sessions, verification
from corridorquest.services.errors import NotFound, ServiceError
from corridorquest.web import accounts_pending as pending
from corridorquest.web.accounts_pending import RESET_COOKIE, Pending, field, same_site
from corridorquest.web.login import logged_in, login_form, safe_next
from corridorquest.web.templating import render

NO_REQUEST = NotFound(
    "verification_not_found",
    "no password change is waiting for its code in this browser: ask for a code first",
)


def _forgot_page(next_path: str, problem: str = "", username: str = "") -> str:
    return render(
        "reset_ask.html", user=ANONYMOUS, next_path=next_path, problem=problem, username=username
    )


def _reset_page(next_path: str, waiting: Pending | None, problem: str = "") -> str:
    return render(
        "reset.html", user=ANONYMOUS, next_path=next_path, problem=problem, waiting=waiting
    )


def _form(request: Request) -> Mapping[str, Any]:
    form: Mapping[str, Any] = request.form or {}  # RequestParameters: .get gives the first
    return form


@openapi.exclude()
async def forgot_page(request: Request) -> HTTPResponse:
    return html(_forgot_page(safe_next(request.args.get("next"))))


@openapi.exclude()
async def forgot(request: Request) -> HTTPResponse:
    form = _form(request)
    next_path = safe_next(form.get("next"))
    username = field(form, "username")
    try:
        same_site(request)
        asked = await account_changes.request_password_change(
            services(request), username, field(form, "password"), client_address(request)
        )
    except ServiceError as error:
        return html(_forgot_page(next_path, error.message, username), status=error.status)
    response = redirect("/reset?next=" + quote(next_path, safe="/"), status=303)
    waiting = Pending(str(asked["verification_token"]), username)
    ttl = services(request).settings.verification_code_ttl
    pending.keep(request, response, RESET_COOKIE, waiting, ttl)
    return response


@openapi.exclude()
async def reset_page(request: Request) -> HTTPResponse:
    next_path = safe_next(request.args.get("next"))
    return html(_reset_page(next_path, pending.read(request, RESET_COOKIE)))


@openapi.exclude()
async def reset(request: Request) -> HTTPResponse:
    """The code: the new password counts; then the login with it, on to `next`."""
    form = _form(request)
    next_path = safe_next(form.get("next"))
    waiting = pending.read(request, RESET_COOKIE)
    try:
        same_site(request)
        if waiting is None:
            raise NO_REQUEST
        done = await verification.verify(services(request), waiting.token, field(form, "code"))
    except ServiceError as error:
        return html(_reset_page(next_path, waiting, error.message), status=error.status)
    username = str(done["username"])
    try:
        opened = await sessions.login(
            services(request), username, field(form, "password"), client_address(request),
            held_token=request.cookies.get(SESSION_COOKIE) or None,
        )
    except ServiceError as error:  # changed all the same: the login form says so
        problem = f"Your new password counts now, but it could not log you in: {error.message}"
        response = html(login_form(next_path, problem, username), status=error.status)
    else:
        response = logged_in(request, opened, next_path)
    pending.forget(request, response, RESET_COOKIE)
    return response
