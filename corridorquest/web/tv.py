"""The projector: `/tv`, every started public game on one screen, each board and caption
live (one event stream for the screen; `/web/tv/games/{id}` after each event), games
that start or end within TV_POLL seconds (`/web/tv/list`, then `/web/tv/boards`), pages
cycling; beside them the join QR codes of the newest waiting public games (the same
polling brings new ones and drops those that started), and in the corner the server's
own address as a QR code (its lobby: what a phone in the room opens to sign up).
A game that ends stays with its result for up to `?linger=` seconds (TV_LINGER).
`/tv?tournament=ID`: that tournament's latest round's boards instead, with its
standings in the side column (tv_tournament.py, tv_standings.html).

The boards fill the screen: tv_grid.grid(n) picks the columns and rows for the page's
n games (classes of the grid; the style sheet, static/tv.css, sizes each board to its
cell and turns the grid on a portrait screen); no page scrolls.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from markupsafe import Markup
from sanic import Request
from sanic.response import HTTPResponse, html, json
from sanic_ext import openapi

from corridorquest.callers import services
from corridorquest.drawing.board_svg import board_svg
from corridorquest.services import game_list, games
from corridorquest.services.auth import CurrentUser
from corridorquest.services.errors import NotFound
from corridorquest.services.rating_labels import Label, pool_of, rating_labels
from corridorquest.web.game_data import public_game
from corridorquest.web.join_qr import base_url, join_qr, qr_svg
from corridorquest.web.templating import render
from corridorquest.web.tv_grid import grid
from corridorquest.web.tv_tournament import Panel, panel
from corridorquest.web.viewer import login_redirect, viewer

TV_PAGE = 6  # boards on one screen of /tv
TV_CYCLE = 20  # seconds before /tv shows its next page
TV_POLL = 1.0  # seconds between two looks of /tv for games that started or ended
TV_GAMES = 500  # started games /tv looks at
TV_JOINABLE = 4  # waiting public games whose join QR code /tv shows (the newest)
TV_LINGER = 10  # seconds a game that ended stays on /tv with its result (at most)

def figure(view: dict[str, Any], labels: dict[str, Label]) -> dict[str, Any]:
    """The values of one figure (tv_figure.html): the game's view and its board, its
    rating pool and its players' labels (ratings, bot levels: services/rating_labels)."""
    return {
        "view": view,
        "board": Markup(board_svg(view, caption=False, standalone=False)),
        "pool": pool_of(view["players"]),
        "labels": labels,
    }


def seated(views: list[dict[str, Any]]) -> set[str]:
    """The usernames seated in `views`."""
    return {seat["username"] for view in views for seat in view["seats"] if seat["username"]}


async def page_games(
    request: Request, user: CurrentUser, tournament: Panel | None = None
) -> tuple[int, int, list[dict[str, Any]]]:
    """(page, pages, the games on that page, each with its "id" and "revision") for
    `?page=N`: the started public games, or a tournament's latest round."""
    if tournament is None:
        listed = await game_list.list_games(
            services(request), user, game_list.GameFilter(status="started", limit=TV_GAMES)
        )
        ids = [g["id"] for g in listed if not g["private"]]
    else:
        ids = list(tournament.game_ids)
    pages = max(1, -(-len(ids) // TV_PAGE))
    try:
        page = min(max(int(request.args.get("page", "1")), 1), pages)
    except ValueError:
        page = 1
    shown = ids[(page - 1) * TV_PAGE : page * TV_PAGE]
    if tournament is None:
        return page, pages, [g for g in listed if g["id"] in shown]
    views = await public_views(request, user, shown)
    return page, pages, [{"id": v["id"], "revision": v["revision"]} for v in views]


async def public_views(
    request: Request, user: CurrentUser, ids: list[int]
) -> list[dict[str, Any]]:
    """The games of `ids` as the watcher sees them, never a private one (the screen is
    the room's, even when a player of it is logged in)."""
    views = []
    for game_id in ids:
        try:
            view = await games.show_game(services(request), user, game_id)
        except NotFound:
            continue  # deleted since it was listed
        if not view["private"]:
            views.append(view)
    return views


async def joinable(request: Request, user: CurrentUser) -> list[dict[str, Any]]:
    """The newest waiting public games, each `{"game", "join"}` (join link and QR code):
    what a phone in the room scans to take a seat. Never a private game (a room's
    screen: its code is for its players)."""
    listed = await game_list.list_games(
        services(request), user, game_list.GameFilter(status="waiting", limit=TV_GAMES)
    )
    public = [g for g in listed if not g["private"]][:TV_JOINABLE]
    settings = services(request).settings
    return [{"game": g, "join": join_qr(request, settings, g)} for g in public]


@lru_cache(maxsize=8)
def _qr(link: str) -> Markup:
    return qr_svg(link)


def server_join(request: Request) -> dict[str, Any]:
    """`{"link", "svg"}`: this server's lobby, the address a phone in the room opens to
    sign up, log in and join (PUBLIC_URL, else the address the screen asked at: the
    machine's network address when that was its loopback; join_qr.base_url)."""
    link = base_url(request, services(request).settings) + "/"
    return {"link": link, "svg": _qr(link)}


def joinable_ids(found: list[dict[str, Any]]) -> str:
    return ",".join(str(j["game"]["id"]) for j in found)


def seconds(request: Request, name: str, default: int, least: int) -> int:
    """`?name=SECONDS` between `least` and 600, else `default`."""
    try:
        return min(max(int(request.args.get(name, default)), least), 600)
    except ValueError:
        return default


async def figures(
    request: Request, user: CurrentUser, listed: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    views = await public_views(request, user, [g["id"] for g in listed])
    labels = await rating_labels(services(request), seated(views))  # one query a page
    return [figure(view, labels) for view in views]


@openapi.exclude()
async def tv(request: Request) -> HTTPResponse:
    user = await viewer(request)
    if user is None:
        return login_redirect(request)
    try:
        tournament = await panel(services(request), user, request.args)
    except NotFound:
        return html(render("not_found.html", user=user, what="tournament"), status=404)
    page, pages, listed = await page_games(request, user, tournament)
    shown = await figures(request, user, listed)
    answer = render(
        "tv.html",
        user=user,
        page=page,
        pages=pages,
        # how long a page stays (a projector may want it faster), and a game that ended
        cycle=seconds(request, "cycle", TV_CYCLE, 3),
        linger=seconds(request, "linger", TV_LINGER, 0),
        poll=int(TV_POLL * 1000),
        figures=shown,
        grid=grid(len(shown)),
        joinable=await joinable(request, user) if tournament is None else [],
        server=server_join(request),
        tournament=tournament,
    )
    return html(answer)


@openapi.exclude()
async def tv_list(request: Request) -> HTTPResponse:
    """What /tv?page=N (&tournament=ID) would show now: `{"page", "pages", "games":
    [ids], "revisions": {id: revision}, "joinable": [ids], "standings": fingerprint}`.
    The page asks every TV_POLL seconds, to show games that started and drop those
    that ended, to fetch anew a board whose revision it missed (its event stream
    refused or cut by a proxy), and a tournament's standings when they changed."""
    user = await viewer(request)
    if user is None:
        return json({"reason": "unauthenticated", "message": "log in first"}, status=401)
    try:
        tournament = await panel(services(request), user, request.args)
    except NotFound as error:
        return json({"reason": error.reason, "message": error.message}, status=404)
    page, pages, listed = await page_games(request, user, tournament)
    waiting = []
    if tournament is None:
        waiting = await game_list.list_games(
            services(request), user, game_list.GameFilter(status="waiting", limit=TV_GAMES)
        )
    return json(
        {
            "page": page,
            "pages": pages,
            "games": [g["id"] for g in listed],
            "revisions": {str(g["id"]): g["revision"] for g in listed},
            "joinable": [g["id"] for g in waiting if not g["private"]][:TV_JOINABLE],
            "standings": tournament.fingerprint() if tournament else "",
        },
        headers={"Cache-Control": "no-store"},
    )


@openapi.exclude()
async def tv_boards(request: Request) -> HTTPResponse:
    """The figures of /tv?page=N (what the page shows when its games changed)."""
    user = await viewer(request)
    if user is None:
        return html("", status=401)
    try:
        tournament = await panel(services(request), user, request.args)
    except NotFound:
        return html("", status=404)
    page, pages, listed = await page_games(request, user, tournament)
    found = await joinable(request, user) if tournament is None else []
    shown = await figures(request, user, listed)
    response = html(
        render(
            "tv_boards.html",
            figures=shown,
            grid=grid(len(shown)),
            joinable=found,
            server=server_join(request),
            tournament=tournament,
        )
    )
    response.headers["X-TV-Standings"] = tournament.fingerprint() if tournament else ""
    response.headers["X-TV-Joinable"] = joinable_ids(found)
    response.headers["X-TV-Page"] = str(page)
    response.headers["X-TV-Pages"] = str(pages)
    return response


@openapi.exclude()
async def tv_game(request: Request, game_id: int) -> HTTPResponse:
    """One figure's board and caption (after an event of its game)."""
    user = await viewer(request)
    if user is None:
        return html("", status=401)
    try:
        view = await public_game(request, user, game_id)
    except NotFound:
        return html("", status=404)
    labels = await rating_labels(services(request), seated([view]))
    response = html(render("tv_figure.html", figure=figure(view, labels)))
    response.headers["X-Game-Revision"] = str(view.get("revision"))
    response.headers["X-Game-Status"] = str(view.get("status"))
    return response
