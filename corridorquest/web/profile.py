"""A player's profile page `/users/{name}`: both ratings (2 and 4 players) with an SVG
graph of each pool's history, and its rated games, a page of PAGE_GAMES at a time
(`?page=N`, 1 the newest: a bot plays thousands of games; issue 48 item 14)."""

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
PAGE_GAMES = 50  # rated games of each pool on one page (graph and table)
MAX_PAGE_DIGITS = 9


def _page(request: Request) -> int | None:
    """The `page` asked for (1 when none); None when it is not a page number."""
    text = request.args.get("page", "1")
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_PAGE_DIGITS:
        return None
    page = int(text)
    return page if page >= 1 else None


@openapi.exclude()
async def profile_page(request: Request, username: str) -> HTTPResponse:
    user = await viewer(request)
    if user is None:
        return login_redirect(request)
    page = _page(request)
    if page is None:
        message = "page: a whole number from 1 (the newest games) up"
        return html(render("problem.html", user=user, title=username[:64], message=message),
                    status=422)
    try:
        found = await ratings.user_ratings(
            services(request), user, username[:64], True,
            history_page=(PAGE_GAMES, (page - 1) * PAGE_GAMES),
        )
    except NotFound:
        return html(render("not_found.html", user=user, what="user"), status=404)
    pools = []
    for pool in found["pools"]:
        history = pool.pop("history") or []
        pools.append({
            **pool,
            "name": POOL_NAMES[pool["pool"]],
            "graph": rating_graph(history, pool["pool"]),
            "page_games": list(reversed(history)),
            "older": page * PAGE_GAMES < int(pool["games"]),
        })
    return html(render("profile.html", user=user, username=found["username"], pools=pools,
                       page=page))
