"""`/tournaments` (every tournament, newest first) and `/tournaments/{id}` (its standings,
its rounds with each game's link to its live board, its entrants), refreshed every few
seconds through `/web/tournaments/{id}` while the page shows (watch.js, as the lobby).
Tournaments are public: what the API shows any logged-in user, and anybody when
WEB_WATCH_WITHOUT_LOGIN allows."""

from __future__ import annotations

from typing import Any

from sanic import Request
from sanic.response import HTTPResponse, html
from sanic_ext import openapi

from corridorquest.callers import services
from corridorquest.services import tournaments
from corridorquest.services.errors import NotFound
from corridorquest.web.templating import render
from corridorquest.web.viewer import login_redirect, viewer

KIND_NAMES = {
    "round_robin": "Round robin",
    "double_round_robin": "Double round robin",
    "swiss": "Swiss",
}


def _described(data: dict[str, Any]) -> dict[str, Any]:
    modes = [m for m in ("masked", "invisible") if data.get(m)]
    variant = f"{data['size']}x{data['size']}, {data['players']} players"
    if modes:
        variant += f", {' and '.join(modes)} walls"
    kind = KIND_NAMES.get(data["kind"], data["kind"])
    if data["status"] == "started":
        where = f"round {data['round']} of {data['rounds']}"
    else:
        where = data["status"]
    return {**data, "kind_name": kind, "variant": variant, "where": where}


async def _tournament(request: Request, tournament_id: int) -> dict[str, Any] | None:
    user = await viewer(request)
    try:
        found = await tournaments.show_tournament(services(request), user, tournament_id)
    except NotFound:
        return None
    return _described(found)


@openapi.exclude()
async def tournament_list(request: Request) -> HTTPResponse:
    user = await viewer(request)
    if user is None:
        return login_redirect(request)
    found = [_described(t) for t in await tournaments.list_tournaments(services(request), user)]
    return html(render("tournaments.html", user=user, tournaments=found))


@openapi.exclude()
async def tournament_page(request: Request, tournament_id: int) -> HTTPResponse:
    user = await viewer(request)
    if user is None:
        return login_redirect(request)
    data = await _tournament(request, tournament_id)
    if data is None:
        return html(render("not_found.html", user=user, what="tournament"), status=404)
    return html(render("tournament.html", user=user, t=data))


@openapi.exclude()
async def tournament_fragment(request: Request, tournament_id: int) -> HTTPResponse:
    user = await viewer(request)
    if user is None:
        return html("", status=401)
    data = await _tournament(request, tournament_id)
    if data is None:
        return html("", status=404)
    return html(render("tournament_sections.html", t=data))
