"""The lobby: `/` and its refresh `/web/lobby`.

Everybody who may watch sees the public games by state (being played, waiting for
players, finished). A logged-in user sees above them the forms that play: a new game
(lobby_forms.html: size, players, masked, invisible, private, invitations, bots) and
joining a private game by its code, and in the refreshed part "Your games" (waiting and
started, whose turn it is, the user's own turn first and marked) and a Join button on
each waiting public game the user is not in. The forms and buttons send their writes to
the API with `cqApi` (static/lobby.js): the same requests, rules and refusals as `cq`.
"""

from __future__ import annotations

from typing import Any

from sanic import Request
from sanic.response import HTTPResponse, html
from sanic_ext import openapi

from corridorquest.callers import services
from corridorquest.engine import PLAYER_COUNTS, SIZES
from corridorquest.services import game_list, games
from corridorquest.services.auth import CurrentUser
from corridorquest.services.bot_users import LEVELS
from corridorquest.services.rating_labels import pool_of, rating_labels
from corridorquest.web.templating import render
from corridorquest.web.viewer import login_redirect, viewer

LOBBY_SIZE = 30  # games per state in the lobby
YOURS_SIZE = 50  # the user's own games (waiting and started) in the lobby
DEFAULT_SIZE = 9


async def _yours(request: Request, user: CurrentUser) -> list[dict[str, Any]]:
    """The user's waiting and started games (private ones too), those on the user's
    turn first, then the started, then the waiting; each with "your_turn"."""
    ctx = services(request)
    found: list[dict[str, Any]] = []
    for status in ("started", "waiting"):
        listed = await game_list.list_games(
            ctx, user, game_list.GameFilter(status=status, user="me", limit=YOURS_SIZE)
        )
        found.extend(listed)
    for game in found:
        game["your_turn"] = game["turn_username"] == user.username
        game["pool"] = pool_of(game["players"])
    return sorted(found, key=lambda g: (not g["your_turn"], g["status"] != "started"))


async def lobby_games(request: Request, user: CurrentUser) -> dict[str, Any]:
    """status -> the public games the watcher may see in it (at most LOBBY_SIZE each),
    each with its rating "pool"; the finished ones with their "scores" as one text;
    "yours": the logged-in user's games (else empty); "me": the user's name ("" when
    not logged in); "labels": the players' ratings and bot levels (one query)."""
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
    yours = await _yours(request, user) if user.id else []
    names = {name for listed in (*found.values(), yours) for g in listed for name in g["usernames"]}
    return {
        **found, "yours": yours, "me": user.username if user.id else "",
        "labels": await rating_labels(ctx, names),
    }


def _choices() -> dict[str, Any]:
    """What the new-game form offers (what POST /games takes)."""
    return {
        "sizes": list(SIZES), "default_size": DEFAULT_SIZE, "player_counts": list(PLAYER_COUNTS),
        "bot_levels": list(LEVELS), "seats": max(PLAYER_COUNTS),
    }


@openapi.exclude()
async def lobby(request: Request) -> HTTPResponse:
    user = await viewer(request)
    if user is None:
        return login_redirect(request)
    page = render(
        "lobby.html", user=user, here=request.path, choices=_choices(),
        **await lobby_games(request, user),
    )
    return html(page)


@openapi.exclude()
async def lobby_fragment(request: Request) -> HTTPResponse:
    user = await viewer(request)
    if user is None:
        return html("", status=401)
    return html(render("lobby_sections.html", **await lobby_games(request, user)))
