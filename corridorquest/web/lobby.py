"""The lobby: `/` and its refresh `/web/lobby`, the public games by state."""

from __future__ import annotations

from typing import Any

from sanic import Request
from sanic.response import HTTPResponse, html
from sanic_ext import openapi

from corridorquest.callers import services
from corridorquest.services import game_list, games
from corridorquest.services.auth import CurrentUser
from corridorquest.services.rating_labels import pool_of, rating_labels
from corridorquest.web.templating import render
from corridorquest.web.viewer import login_redirect, viewer

LOBBY_SIZE = 30  # games per state in the lobby


async def lobby_games(request: Request, user: CurrentUser) -> dict[str, Any]:
    """status -> the public games the watcher may see in it (at most LOBBY_SIZE each),
    each with its rating "pool"; the finished ones with their "scores" as one text;
    "labels": the players' ratings and bot levels (one query for the page)."""
    ctx = services(request)
    found: dict[str, list[dict[str, Any]]] = {}
    for status in ("waiting", "started", "finished"):
        listed = await game_list.list_games(
            ctx, user, game_list.GameFilter(status=status, limit=LOBBY_SIZE)
        )
        found[status] = [{**g, "pool": pool_of(g["players"])} for g in listed if not g["private"]]
    for game in found["finished"]:  # with their scores (the game's own view has them)
        view = await games.show_game(ctx, user, game["id"])
        game["scores"] = ", ".join(f"{name} {score}" for name, score in view["scores"].items())
    names = {name for listed in found.values() for g in listed for name in g["usernames"]}
    return {**found, "labels": await rating_labels(ctx, names)}


@openapi.exclude()
async def lobby(request: Request) -> HTTPResponse:
    user = await viewer(request)
    if user is None:
        return login_redirect(request)
    return html(render("lobby.html", user=user, **await lobby_games(request, user)))


@openapi.exclude()
async def lobby_fragment(request: Request) -> HTTPResponse:
    user = await viewer(request)
    if user is None:
        return html("", status=401)
    return html(render("lobby_sections.html", **await lobby_games(request, user)))
