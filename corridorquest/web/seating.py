"""The seat panel of a waiting game's page (templates/seat_panel.html, static/seat.js).

Whoever opens a waiting game's page (its join link, its QR code: web/join_qr.py, with
the private game's `?code=`) and has no seat in it is offered one:
- logged in: "Take a seat", one tap (the script's `cqApi` POST /games/{id}/players
  with the code, as `cq game join` sends it);
- not logged in, GUESTS=on: "Play as a guest" with a name field: one step (POST
  `/web/games/{id}/guest`, below) creates the guest, sets the browser's session cookie
  and seats it; and links to log in or sign up that come back to this page;
- not logged in, GUESTS=off: only those links.

`guest_seat` is the one write of the web pages themselves: it sets the cookie (as
`/login` does: httponly, SameSite=Strict, Secure per `cookie_secure`). It has no session
yet to hold a write token, so it takes JSON only (a form of another site cannot send
that without the browser asking first, and it is not asked) and refuses a request that
the browser says comes from another site: 403 `cross_site_write`.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from sanic import Request
from sanic.response import HTTPResponse, json
from sanic_ext import openapi

from corridorquest.callers import SESSION_COOKIE, client_address, cookie_secure, services
from corridorquest.services import games, guests
from corridorquest.services.auth import CurrentUser, authenticate
from corridorquest.services.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    ServiceError,
    Unauthenticated,
)

NAME_MAX = 64  # a longer "name" is refused before anything is read of it


def seat_panel(
    request: Request, user: CurrentUser, view: dict[str, Any], code: str | None
) -> dict[str, Any] | None:
    """What the panel offers on this page (None: nothing, the game is not waiting or the
    viewer has a seat)."""
    if view.get("status") != "waiting":
        return None
    if user.id and user.username in (view.get("waiting_players") or []):
        return None
    back = f"/games/{view['id']}" + (f"?code={quote(code, safe='')}" if code else "")
    return {
        "game_id": view["id"],
        "code": code or "",
        "logged_in": bool(user.id),
        "guests": services(request).settings.guests == "on",
        "next": quote(back, safe=""),
    }


def _refusal(error: ServiceError) -> HTTPResponse:
    return json(error.to_json(), status=error.status)


async def _logged_in(request: Request) -> bool:
    token = str(request.cookies.get(SESSION_COOKIE, "") or "")
    if not token:
        return False
    try:
        await authenticate(services(request), token)
    except Unauthenticated:
        return False  # an ended session: a visitor again
    return True


@openapi.exclude()
async def guest_seat(request: Request, game_id: int) -> HTTPResponse:
    """`{"username", "code"?}` -> 201 `{"username", "game_id"}` with the guest's session
    cookie: the guest is created and seated; a refusal ({reason, message}) creates
    nothing (a guest whose seat is refused is removed again)."""
    ctx = services(request)
    if request.headers.get("sec-fetch-site", "same-origin") != "same-origin":
        return _refusal(Forbidden("cross_site_write", "this page's own script sends this"))
    if (request.content_type or "").split(";")[0].strip() != "application/json":
        return _refusal(BadRequest("bad_request", "send JSON: {\"username\": ...}"))
    body = request.json if isinstance(request.json, dict) else None
    name = body.get("username") if body else None
    code = body.get("code") if body else None
    if not isinstance(name, str) or len(name) > NAME_MAX or not (
        code is None or isinstance(code, str)
    ):
        return _refusal(BadRequest("bad_request", "a name (text) and the game's code, if any"))
    if await _logged_in(request):
        return _refusal(Conflict("logged_in", "you are logged in: take a seat as yourself"))
    try:
        opened = await guests.create_guest(ctx, name.strip(), client_address(request))
    except ServiceError as error:
        return _refusal(error)
    user = await authenticate(ctx, opened.token)
    try:
        await games.join_game(ctx, user, game_id, invitation_code=code or None)
    except ServiceError as error:
        await guests.drop_new_guest(ctx, user.id)
        return _refusal(error)
    response = json({"username": opened.username, "game_id": game_id}, status=201)
    response.add_cookie(
        SESSION_COOKIE, opened.token, httponly=True, samesite="Strict", path="/",
        secure=cookie_secure(request),
    )
    return response
