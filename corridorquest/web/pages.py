"""The web pages for watching (not playing): the lobby, a game, the projector view.

- `/`: the public games by state, refreshed every few seconds (`/web/lobby`);
- `/games/{id}`: the board (board_svg), the players, the last actions and the public
  messages, followed live through the game's event stream (the page's script fetches
  `/web/games/{id}/live`, the same HTML, after each event); a finished game gets a
  replay control that steps through every action: board and panel as they were after N
  actions (`/web/games/{id}/live?at=N`), each step its own address (`/games/{id}?at=N`);
- `/tv`: every started public game on one screen, each board and caption live (one
  event stream for the screen; `/web/tv/games/{id}` after each event), games that start
  or end within TV_POLL seconds (`/web/tv/list`, then `/web/tv/boards`), pages cycling.

Every answer carries the pages' security headers (web/page_headers.py): no inline
script or style, no framing.

Everything shown is what the API shows the watcher (`api.auth.watcher`: the logged-in
user, or anybody when WEB_WATCH_WITHOUT_LOGIN allows): the same services and views, so
the same visibility rules; private games never appear and their URLs answer 404. With
WEB_WATCH_WITHOUT_LOGIN=false the pages ask for a login (`/login` sets a session cookie
that counts for GET requests only).
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, file, html, json, redirect
from sanic_ext import openapi

from corridorquest.api.auth import ANONYMOUS, SESSION_COOKIE, cookie_secure, services, watcher
from corridorquest.api.sessions import client_address
from corridorquest.services import game_list, games, messages, positions, sessions
from corridorquest.services.auth import CurrentUser, authenticate
from corridorquest.services.errors import (
    NotFound,
    ServiceError,
    Unauthenticated,
    Unprocessable,
)
from corridorquest.services.play import history
from corridorquest.web.board_svg import board_svg
from corridorquest.web.page_headers import add_page_headers

bp = Blueprint("web", url_prefix="/")
bp.middleware(add_page_headers, "response")

TV_PAGE = 6  # boards on one screen of /tv
TV_CYCLE = 20  # seconds before /tv shows its next page
TV_POLL = 1.0  # seconds between two looks of /tv for games that started or ended
TV_GAMES = 500  # started games /tv looks at
LOBBY_SIZE = 30  # games per state in the lobby
MAX_GAME_ID = 2**62


def _page(title: str, body: str, user: CurrentUser, *, main_class: str = "") -> str:
    who = (
        f'<form method="post" action="/logout" class="who">{escape(user.username)} '
        '<button type="submit">log out</button></form>'
        if user.id
        else ""
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title>"
        '<link rel="stylesheet" href="/web/static/style.css">'
        '<script src="/web/static/watch.js" defer></script></head>'
        f'<body class="{main_class}"><header><a href="/" class="home">Corridor Quest</a>'
        f' <a href="/tv">TV</a>{who}</header>{body}</body></html>'
    )


async def _viewer(request: Request) -> CurrentUser | None:
    """The watcher, or None when the pages must ask for a login first."""
    try:
        return await watcher(request)
    except Unauthenticated:
        return None


def _login_redirect(request: Request) -> HTTPResponse:
    return redirect("/login?next=" + quote(request.path))


# --- the lobby --------------------------------------------------------------------------


def _names(game: dict[str, Any]) -> str:
    return ", ".join(escape(name) for name in game["usernames"])


def _lobby_html(found: dict[str, list[dict[str, Any]]]) -> str:
    def item(game: dict[str, Any], detail: str) -> str:
        variant = f'{game["size"]}×{game["size"]}, {game["players"]} players'
        modes = [m for m in ("masked", "invisible") if game[m]]
        if modes:
            variant += ", " + " and ".join(modes) + " walls"
        return (
            f'<li><a href="/games/{game["id"]}">Game {game["id"]}</a> '
            f'<span class="variant">{variant}</span> {detail}</li>'
        )

    waiting = [
        item(g, f'{_names(g)} <span class="count">({len(g["usernames"])} of {g["players"]})</span>')
        for g in found["waiting"]
    ]
    started = [
        item(g, f'{_names(g)}: <strong>{escape(g["turn_username"] or "")}</strong> to move')
        for g in found["started"]
    ]
    finished = [
        item(g, f'{_names(g)}: won by <strong>{escape(g["winner"] or "")}</strong>'
             + (f' ({escape(g["scores"])})' if g.get("scores") else ""))
        for g in found["finished"]
    ]

    def section(title: str, items: list[str], empty: str) -> str:
        inner = f"<ul>{''.join(items)}</ul>" if items else f'<p class="empty">{empty}</p>'
        return f"<section><h2>{title}</h2>{inner}</section>"

    return (
        section("Being played", started, "No game is being played.")
        + section("Waiting for players", waiting, "No game is waiting for players.")
        + section("Finished", finished, "No game has finished yet.")
    )


async def _lobby_games(request: Request, user: CurrentUser) -> dict[str, list[dict[str, Any]]]:
    ctx = services(request)
    found: dict[str, list[dict[str, Any]]] = {}
    for status in ("waiting", "started", "finished"):
        listed = await game_list.list_games(
            ctx, user, game_list.GameFilter(status=status, limit=LOBBY_SIZE)
        )
        found[status] = [g for g in listed if not g["private"]]
    for game in found["finished"]:  # with their scores (the game's own view has them)
        view = await games.show_game(ctx, user, game["id"])
        game["scores"] = ", ".join(f"{name} {score}" for name, score in view["scores"].items())
    return found


@bp.get("/")
@openapi.exclude()
async def lobby(request: Request) -> HTTPResponse:
    user = await _viewer(request)
    if user is None:
        return _login_redirect(request)
    body = (
        '<main id="lobby" data-refresh="/web/lobby">'
        + _lobby_html(await _lobby_games(request, user))
        + "</main>"
    )
    return html(_page("Corridor Quest", body, user))


@bp.get("/web/lobby")
@openapi.exclude()
async def lobby_fragment(request: Request) -> HTTPResponse:
    user = await _viewer(request)
    if user is None:
        return html("", status=401)
    return html(_lobby_html(await _lobby_games(request, user)))


# --- a game -----------------------------------------------------------------------------


async def _public_game(request: Request, user: CurrentUser, game_id: int) -> dict[str, Any]:
    """The game as the watcher sees it; 404 for a private game (to everybody, here)."""
    if not 1 <= game_id <= MAX_GAME_ID:
        raise NotFound("game_not_found", f"no game {game_id}")
    view = await games.show_game(services(request), user, game_id)
    if view["private"]:
        raise NotFound("game_not_found", f"no game {game_id}")
    return view


def _players_html(view: dict[str, Any]) -> str:
    online = set(view.get("online") or ())
    rows = []
    if view["seats"]:
        for seat in view["seats"]:
            walls = seat["walls_left"]
            name = seat["username"] or ""
            rows.append(
                f'<tr class="seat-{seat["seat"]}'
                + (' turn' if seat["seat"] == view["turn"] else "")
                + f'"><th scope="row">{escape(seat["seat"])}</th><td>{escape(name)}'
                + (' <span class="online" title="watching live">●</span>' if name in online else "")
                + f'</td><td>{"?" if walls is None else walls}</td></tr>'
            )
    else:
        for name in view["waiting_players"]:
            rows.append(f"<tr><th scope=\"row\">—</th><td>{escape(name)}</td><td></td></tr>")
    return (
        '<table class="players"><thead><tr><th>seat</th><th>player</th><th>walls left</th>'
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _status_html(view: dict[str, Any]) -> str:
    status = view["status"]
    if status == "started" or view.get("replay_step"):
        text = f'{escape(view["turn_username"] or "")} to move'
    elif status == "finished":
        scores = ", ".join(f"{escape(n)} {s}" for n, s in view["scores"].items())
        text = f'won by {escape(view["winner"] or "")}' + (f" (scores: {scores})" if scores else "")
    elif status == "waiting":
        text = f'waiting for players ({len(view["waiting_players"])} of {view["players"]})'
    else:
        text = "cancelled" + (f': {escape(view["cancel_reason"])}' if view["cancel_reason"] else "")
    return f'<p class="status" role="status">{text}</p>'


def _actions_html(view: dict[str, Any]) -> str:
    # a wall whose owner the watcher may not know (masked walls) has neither username
    # nor seat; a wall it may not see (invisible walls) has no notation
    items = [
        f'<li>{a["n"]}. {escape(a["username"] or a["seat"] or "someone")} '
        f'{escape(a["type"])} {escape(a.get("notation") or "(hidden)")}</li>'
        for a in reversed(view["last_actions"])
    ]
    return f'<h2>Last actions</h2><ul class="actions">{"".join(items)}</ul>'


def _messages_html(found: list[dict[str, Any]], whole_game: bool = False) -> str:
    items = [
        f'<li class="{m["kind"]}"><span class="from">{escape(m["from"] or "·")}</span> '
        f'{escape(m["text"])}</li>'
        for m in found[-15:]
    ]
    # a replay's earlier step: the messages are the game's (a message tells no action)
    title = "Messages of the whole game" if whole_game else "Messages"
    return f'<h2>{title}</h2><ul class="messages">{"".join(reversed(items))}</ul>'


async def _live_html(request: Request, user: CurrentUser, view: dict[str, Any]) -> str:
    listed = (await messages.list_messages(services(request), user, view["id"]))["messages"]
    return (
        f'<div class="board" id="board">{board_svg(view, standalone=False)}</div>'
        f'<aside class="panel">{_status_html(view)}{_players_html(view)}'
        f'{_actions_html(view)}{_messages_html(listed, bool(view.get("replay_step")))}'
        "</aside>"
    )


# The replay's buttons: icons drawn inline (the media-control characters ⏮ ⏭ are
# missing from many systems' fonts, Debian's default ones among them).
_ICONS = {
    "first": "M3 3h2v10H3zM13 3v10L6 8z",
    "prev": "M12 3v10L4 8z",
    "next": "M4 3v10l8-5z",
    "last": "M11 3h2v10h-2zM3 3v10l7-5z",
}
_LABELS = {"first": "first", "prev": "previous", "next": "next", "last": "last"}


def _replay_button(step: str) -> str:
    return (
        f'<button type="button" data-step="{step}" aria-label="{_LABELS[step]}"'
        f' title="{_LABELS[step]}"><svg viewBox="0 0 16 16" width="16" height="16"'
        ' aria-hidden="true" focusable="false">'
        f'<path d="{_ICONS[step]}" fill="currentColor"/></svg></button>'
    )


def _replay_html(at: int, actions: int) -> str:
    return (
        f'<nav class="replay" id="replay" data-actions="{actions}" data-at="{at}"'
        ' aria-label="replay">'
        + _replay_button("first") + _replay_button("prev")
        + f'<output id="step">{at} / {actions}</output>'
        + _replay_button("next") + _replay_button("last")
        + "</nav>"
    )


def _requested_step(request: Request, actions: int) -> int | None:
    """`?at=N` of a finished game's replay (None: the end); 0 <= N <= actions."""
    text = request.args.get("at")
    if text is None:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 6) or int(text) > actions:
        raise Unprocessable(
            "invalid_action_number", f"this game has {actions} actions: 'at' takes 0 to {actions}"
        )
    return int(text)


async def _step_view(
    request: Request, user: CurrentUser, now: dict[str, Any], at: int, actions: int
) -> dict[str, Any]:
    """A finished game as it was after its first `at` actions: board and panel (walls
    left, turn, last actions) of that moment, the markers of the end (as board.svg)."""
    if at >= actions:
        return now
    view = await positions.show_position(services(request), user, now["id"], at)
    view["markers"] = now["markers"]
    view["replay_step"] = True  # a "to move" line instead of the end's result
    return view


@bp.get("/games/<game_id:int>")
@openapi.exclude()
async def game_page(request: Request, game_id: int) -> HTTPResponse:
    user = await _viewer(request)
    if user is None:
        return _login_redirect(request)
    try:
        view = await _public_game(request, user, game_id)
    except NotFound:
        return html(_page("Not found", '<main><p>No such game.</p></main>', user), status=404)
    live = view["status"] in ("waiting", "started")
    replay = view["status"] == "finished"
    actions = len(await history(services(request), user, game_id)) if replay else 0
    at = actions
    if replay:  # ?at=N: the replay at that step (ignored while the game is live)
        try:
            step = _requested_step(request, actions)
        except Unprocessable as error:
            problem = f'<main><p class="problem" role="alert">{escape(error.message)}</p></main>'
            return html(_page(f"Game {game_id}", problem, user), status=error.status)
        at = actions if step is None else step
        view = await _step_view(request, user, view, at, actions)
    body = (
        f'<main id="game" class="game" data-game="{game_id}" data-status="{view["status"]}"'
        f' data-live="{"yes" if live else "no"}"><h1>Game {game_id}</h1>'
        + (_replay_html(at, actions) if replay else "")
        + f'<div id="live">{await _live_html(request, user, view)}</div></main>'
    )
    return html(_page(f"Game {game_id} · Corridor Quest", body, user))


@bp.get("/web/games/<game_id:int>/live")
@openapi.exclude()
async def game_fragment(request: Request, game_id: int) -> HTTPResponse:
    """The board and the panel (`?at=N`: of a finished game's replay at that step)."""
    user = await _viewer(request)
    if user is None:
        return html("", status=401)
    try:
        view = await _public_game(request, user, game_id)
    except NotFound:
        return html("", status=404)
    if view["status"] == "finished" and "at" in request.args:
        actions = len(await history(services(request), user, game_id))
        try:
            at = _requested_step(request, actions)
        except Unprocessable as error:
            return html(escape(error.message), status=error.status)
        view = await _step_view(request, user, view, actions if at is None else at, actions)
    response = html(await _live_html(request, user, view))
    response.headers["X-Game-Status"] = view["status"]
    return response


# --- the projector ----------------------------------------------------------------------


def _tv_caption(view: dict[str, Any]) -> str:
    names = ", ".join(escape(s["username"] or "") for s in view["seats"])
    if view["status"] == "finished":
        state = f'won by <strong>{escape(view["winner"] or "")}</strong>'
    elif view["status"] == "started":
        state = f'<strong>{escape(view["turn_username"] or "")}</strong> to move'
    else:
        state = escape(view["status"])
    return f'Game {view["id"]}: {names} · {state}'


def _tv_figure_inner(view: dict[str, Any]) -> str:
    return (
        f'<div class="board">{board_svg(view, caption=False, standalone=False)}</div>'
        f"<figcaption>{_tv_caption(view)}</figcaption>"
    )


async def _tv_list(request: Request, user: CurrentUser) -> tuple[int, int, list[int]]:
    """(page, pages, the ids of the games on that page) for `?page=N`."""
    listed = await game_list.list_games(
        services(request), user, game_list.GameFilter(status="started", limit=TV_GAMES)
    )
    public = [g["id"] for g in listed if not g["private"]]
    pages = max(1, -(-len(public) // TV_PAGE))
    try:
        page = min(max(int(request.args.get("page", "1")), 1), pages)
    except ValueError:
        page = 1
    return page, pages, public[(page - 1) * TV_PAGE : page * TV_PAGE]


async def _tv_boards(request: Request, user: CurrentUser, ids: list[int]) -> str:
    boards = []
    for game_id in ids:
        try:
            view = await games.show_game(services(request), user, game_id)
        except NotFound:
            continue  # deleted since it was listed
        revision = view.get("revision")
        boards.append(
            f'<figure class="tv-board" data-game="{view["id"]}" data-revision="{revision}">'
            f"{_tv_figure_inner(view)}</figure>"
        )
    empty = '<p class="empty">No game is being played.</p>' if not boards else ""
    return "".join(boards) + empty


@bp.get("/tv")
@openapi.exclude()
async def tv(request: Request) -> HTTPResponse:
    user = await _viewer(request)
    if user is None:
        return _login_redirect(request)
    page, pages, ids = await _tv_list(request, user)
    try:  # ?cycle=SECONDS: how long a page stays (a projector may want it faster)
        cycle = min(max(int(request.args.get("cycle", TV_CYCLE)), 3), 600)
    except ValueError:
        cycle = TV_CYCLE
    body = (
        f'<main id="tv" class="tv" data-page="{page}" data-pages="{pages}"'
        f' data-cycle="{cycle}" data-poll="{int(TV_POLL * 1000)}">'
        f"{await _tv_boards(request, user, ids)}</main>"
    )
    return html(_page("Corridor Quest TV", body, user, main_class="tv-body"))


@bp.get("/web/tv/list")
@openapi.exclude()
async def tv_list(request: Request) -> HTTPResponse:
    """What /tv?page=N would show now: `{"page", "pages", "games": [ids]}` (the page
    asks every TV_POLL seconds, to show games that started and drop those that ended)."""
    user = await _viewer(request)
    if user is None:
        return json({"reason": "unauthenticated", "message": "log in first"}, status=401)
    page, pages, ids = await _tv_list(request, user)
    return json({"page": page, "pages": pages, "games": ids}, headers={"Cache-Control": "no-store"})


@bp.get("/web/tv/boards")
@openapi.exclude()
async def tv_boards(request: Request) -> HTTPResponse:
    """The figures of /tv?page=N (what the page shows when its games changed)."""
    user = await _viewer(request)
    if user is None:
        return html("", status=401)
    page, pages, ids = await _tv_list(request, user)
    response = html(await _tv_boards(request, user, ids))
    response.headers["X-TV-Page"] = str(page)
    response.headers["X-TV-Pages"] = str(pages)
    return response


@bp.get("/web/tv/games/<game_id:int>")
@openapi.exclude()
async def tv_game(request: Request, game_id: int) -> HTTPResponse:
    """One figure's board and caption (after an event of its game)."""
    user = await _viewer(request)
    if user is None:
        return html("", status=401)
    try:
        view = await _public_game(request, user, game_id)
    except NotFound:
        return html("", status=404)
    response = html(_tv_figure_inner(view))
    response.headers["X-Game-Revision"] = str(view.get("revision"))
    return response


# --- logging in (WEB_WATCH_WITHOUT_LOGIN=false) ---------------------------------------


def _login_form(next_path: str, problem: str = "", username: str = "") -> str:
    note = f'<p class="problem" role="alert">{escape(problem)}</p>' if problem else ""
    return (
        '<main class="login"><h1>Log in to watch</h1>' + note
        + '<form method="post" action="/login">'
        f'<input type="hidden" name="next" value="{escape(next_path)}">'
        '<label>Username <input name="username" autocomplete="username" required'
        f' value="{escape(username)}"></label>'
        '<label>Password <input name="password" type="password" '
        'autocomplete="current-password" required></label>'
        '<label class="replace"><input type="checkbox" name="replace" value="yes"> '
        "end my session elsewhere (the terminal's) if there is one</label>"
        '<button type="submit">Log in</button></form></main>'
    )


def _safe_next(path: str | None) -> str:
    path = path or "/"
    return path if path.startswith("/") and not path.startswith("//") else "/"


@bp.get("/login")
@openapi.exclude()
async def login_page(request: Request) -> HTTPResponse:
    body = _login_form(_safe_next(request.args.get("next")))
    return html(_page("Log in · Corridor Quest", body, ANONYMOUS))


@bp.post("/login")
@openapi.exclude()
async def login(request: Request) -> HTTPResponse:
    form = request.form or {}
    next_path = _safe_next(form.get("next"))
    try:
        opened = await sessions.login(
            services(request),
            str(form.get("username") or ""),
            str(form.get("password") or ""),
            client_address(request),
            replace=form.get("replace") == "yes",
        )
    except ServiceError as error:
        body = _login_form(next_path, error.message, str(form.get("username") or ""))
        return html(_page("Log in · Corridor Quest", body, ANONYMOUS), status=error.status)
    response = redirect(next_path, status=303)
    response.add_cookie(
        SESSION_COOKIE, opened.token, httponly=True, samesite="Strict", path="/",
        secure=cookie_secure(request),
    )
    return response


@bp.post("/logout")
@openapi.exclude()
async def logout(request: Request) -> HTTPResponse:
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        try:
            user = await authenticate(services(request), str(token))
        except Unauthenticated:
            pass  # ended already
        else:
            await sessions.logout(services(request), user)
    response = redirect("/", status=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


# --- the pages' script and style (vendored: no asset from outside) ----------------------

STATIC_DIR = Path(__file__).resolve().parent / "static"
_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}
_ASSETS = {p.name: p for p in STATIC_DIR.iterdir() if p.is_file() and p.suffix in _TYPES}


@bp.get("/favicon.ico")
@openapi.exclude()
async def favicon(request: Request) -> HTTPResponse:
    return HTTPResponse(status=204)  # none: browsers ask on every page


@bp.get("/web/static/<name:str>")
@openapi.exclude()
async def asset(request: Request, name: str) -> HTTPResponse:
    path = _ASSETS.get(name)
    if path is None:
        raise NotFound("not_found", "no such file")
    return await file(path, mime_type=_TYPES[path.suffix], headers={"Cache-Control": "no-cache"})
