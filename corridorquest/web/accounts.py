"""Signing up from a browser: `/signup` (username, e-mail address, password: the
service of `POST /api/v1/users`, the same rules and messages), then `/verify` (the
e-mailed code, the service of `POST /api/v1/verifications`; or a new code, which is a
signup again with the same username and address, as the API has it), after which the
browser is logged in (the service of `POST /api/v1/sessions`, with the password typed
again: the page keeps no password) and goes on to `next` (a join link's game).

Every refusal comes back as the page again with the service's message, the status of
its refusal (4xx), and the values typed (never a password); nothing changed.
Between the two steps the signup's verification token waits in an HttpOnly cookie
(accounts_pending.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from sanic import Request
from sanic.response import HTTPResponse, html, redirect
from sanic_ext import openapi

from corridorquest.callers import ANONYMOUS, SESSION_COOKIE, client_address, services
from corridorquest.services import sessions, signups, verification
from corridorquest.services.errors import NotFound, ServiceError
from corridorquest.web import accounts_pending as pending
from corridorquest.web.accounts_pending import SIGNUP_COOKIE, Pending, field, same_site
from corridorquest.web.login import logged_in, login_form, safe_next
from corridorquest.web.templating import render

NO_SIGNUP = NotFound(
    "verification_not_found",
    "no signup is waiting for its code in this browser: sign up (again with the same "
    "username and e-mail address for a new code)",
)


def _signup_page(next_path: str, problem: str = "", username: str = "", email: str = "") -> str:
    return render(
        "signup.html", user=ANONYMOUS, next_path=next_path, problem=problem,
        username=username, email=email,
    )


def _verify_page(
    next_path: str, waiting: Pending | None, problem: str = "", notice: str = ""
) -> str:
    return render(
        "verify.html", user=ANONYMOUS, next_path=next_path, problem=problem, notice=notice,
        waiting=waiting,
    )


def _form(request: Request) -> Mapping[str, Any]:
    form: Mapping[str, Any] = request.form or {}  # RequestParameters: .get gives the first
    return form


def _to_verify(request: Request, next_path: str, started: Pending, sent: bool) -> HTTPResponse:
    """To the code's page, holding the signup's token in the browser."""
    address = "/verify?next=" + quote(next_path, safe="/") + ("&sent=1" if sent else "")
    response = redirect(address, status=303)
    retention = verification.signup_retention(services(request).settings)
    pending.keep(request, response, SIGNUP_COOKIE, started, retention)
    return response


@openapi.exclude()
async def signup_page(request: Request) -> HTTPResponse:
    return html(_signup_page(safe_next(request.args.get("next"))))


@openapi.exclude()
async def signup(request: Request) -> HTTPResponse:
    form = _form(request)
    next_path = safe_next(form.get("next"))
    username, email = field(form, "username"), field(form, "email")
    try:
        same_site(request)
        started = await signups.signup(
            services(request), username, email, field(form, "password"),
            address=client_address(request),
        )
    except ServiceError as error:
        page = _signup_page(next_path, error.message, username, email)
        return html(page, status=error.status)
    waiting = Pending(str(started["verification_token"]), str(started["username"]), email)
    return _to_verify(request, next_path, waiting, sent=False)


@openapi.exclude()
async def verify_page(request: Request) -> HTTPResponse:
    next_path = safe_next(request.args.get("next"))
    waiting = pending.read(request, SIGNUP_COOKIE)
    notice = "A new code is on its way." if waiting and request.args.get("sent") else ""
    return html(_verify_page(next_path, waiting, notice=notice))


@openapi.exclude()
async def verify(request: Request) -> HTTPResponse:
    """The code, then the login: on to `next`, logged in."""
    form = _form(request)
    next_path = safe_next(form.get("next"))
    waiting = pending.read(request, SIGNUP_COOKIE)
    try:
        same_site(request)
        if waiting is None:
            raise NO_SIGNUP
        done = await verification.verify(services(request), waiting.token, field(form, "code"))
    except ServiceError as error:
        return html(_verify_page(next_path, waiting, error.message), status=error.status)
    username = str(done["username"])
    try:
        opened = await sessions.login(
            services(request), username, field(form, "password"), client_address(request),
            held_token=request.cookies.get(SESSION_COOKIE) or None,
        )
    except ServiceError as error:  # verified all the same: the login form says so
        problem = f"Your account {username} is verified, but it could not log in: {error.message}"
        page = login_form(next_path, problem, username, reason=error.reason)
        response = html(page, status=error.status)
    else:
        response = logged_in(request, opened, next_path)
    pending.forget(request, response, SIGNUP_COOKIE)
    return response


@openapi.exclude()
async def resend(request: Request) -> HTTPResponse:
    """A new code: the signup again with its username and address (and the password
    typed here, which becomes the account's, as a signup again does in the API)."""
    form = _form(request)
    next_path = safe_next(form.get("next"))
    waiting = pending.read(request, SIGNUP_COOKIE)
    try:
        same_site(request)
        if waiting is None:
            raise NO_SIGNUP
        started = await signups.signup(
            services(request), waiting.username, waiting.email, field(form, "password"),
            address=client_address(request),
        )
    except ServiceError as error:
        return html(_verify_page(next_path, waiting, error.message), status=error.status)
    renewed = Pending(str(started["verification_token"]), waiting.username, waiting.email)
    return _to_verify(request, next_path, renewed, sent=True)
