"""A player's profile page `/users/{name}`: both ratings (2 and 4 players) with an SVG
graph of each pool's history, and the last rated games."""

from __future__ import annotations

from sanic import Request
from sanic.response import HTTPResponse, html
from sanic_ext import openapi

from corridorquest.callers import services
from corridorquest.services import ratings
from corridorquest.services.errors import NotFound
from corridorquest.web.rating_graph import rating_graph
from corridorquest.web.templating import render
from corridorquest.web.viewer import login_redirect, viewer

POOL_NAMES = {"2p": "2 players", "4p": "4 players"}
LAST_GAMES = 10


@openapi.exclude()
async def profile_page(request: Request, username: str) -> HTTPResponse:
    user = await viewer(request)
    if user is None:
        return login_redirect(request)
    try:
        found = await ratings.user_ratings(services(request), user, username[:64], True)
    except NotFound:
        return html(render("not_found.html", user=user, what="user"), status=404)
    pools = []
    for pool in found["pools"]:
        history = pool.pop("history") or []
        pools.append({
            **pool,
            "name": POOL_NAMES[pool["pool"]],
            "graph": rating_graph(history, pool["pool"]),
            "last_games": list(reversed(history[-LAST_GAMES:])),
        })
    return html(render("profile.html", user=user, username=found["username"], pools=pools))
