"""`/leaderboard`: the highest ratings of both pools (at least 5 rated games, not
provisional, a rated game within 90 days), each name a link to its profile."""

from __future__ import annotations

from sanic import Request
from sanic.response import HTTPResponse, html
from sanic_ext import openapi

from corridorquest.callers import services
from corridorquest.services import ratings
from corridorquest.web.templating import render
from corridorquest.web.viewer import login_redirect, viewer

POOL_NAMES = {"2p": "2 players", "4p": "4 players"}


@openapi.exclude()
async def leaderboard_page(request: Request) -> HTTPResponse:
    user = await viewer(request)
    if user is None:
        return login_redirect(request)
    boards = []
    for pool, name in POOL_NAMES.items():
        board = await ratings.leaderboard(services(request), pool)
        boards.append({**board, "name": name})
    return html(render("rating_leaderboard.html", user=user, boards=boards))
