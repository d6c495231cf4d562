"""The web pages for watching (and, on a game's page, for its seated players, playing:
static/play.js writes to the API): every address of them, in one table.

- `/`: the public games by state, refreshed every few seconds (`/web/lobby`): lobby.py;
- `/games/{id}`: the board (board_svg), the players, the last actions and the public
  messages, followed live through the game's event stream (the page's script fetches
  `/web/games/{id}/live`, the same HTML, after each event); a finished game gets a
  replay control that steps through every action: board and panel as they were after N
  actions (`/web/games/{id}/live?at=N`), each step its own address (`/games/{id}?at=N`):
  game_pages.py, with what they show assembled in game_data.py;
- `/tv`: every started public game on one screen, each board and caption live (one
  event stream for the screen; `/web/tv/games/{id}` after each event), games that start
  or end within TV_POLL seconds (`/web/tv/list`, then `/web/tv/boards`), pages
  cycling, the server's join QR code in a corner; `/tv?tournament=ID` a tournament's
  boards and standings: tv.py;
- `/users/{name}`: a player's ratings in both pools with a graph of each (rating_graph):
  profile.py; `/leaderboard`: the highest ratings of both pools: rating_leaderboard.py;
- `/tournaments` and `/tournaments/{id}`: the tournaments, one's standings, rounds
  and live boards' links, refreshed like the lobby (`/web/tournaments/{id}`):
  tournament_page.py;
- a waiting game's seat panel (take a seat; with GUESTS=on play as a guest, whose one
  write `/web/games/{id}/guest` creates the guest, seats it and sets its cookie):
  seating.py;
- `/login`, `/logout`, `/web/csrf` (the write token the pages' script sends with its
  writes to the API, see callers.py): login.py; `/signup`, `/verify` (and
  `/verify/resend`): accounts.py; `/forgot`, `/reset`: accounts_reset.py;
  `/web/static/...`: assets.py.

The HTML comes from templates (templates/, through templating.py: autoescaped, strict).
Every answer carries the pages' security headers (page_headers.py): no inline script or
style, no framing.

Everything shown is what the API shows the watcher (`callers.watcher`: the logged-in
user, or anybody when WEB_WATCH_WITHOUT_LOGIN allows): the same services and views, so
the same visibility rules; private games never appear in the lists or on /tv, and their
URLs answer 404 except to their players and to whoever opens the game's join link (its
invitation code, `?code=`); a waiting game's page shows its join link as a QR code
(join_qr.py; a private game's to its players only). With
WEB_WATCH_WITHOUT_LOGIN=false the pages ask for a login (`/login` sets a session cookie
that counts for reads; writes need the write token of `/web/csrf` too).
"""

from __future__ import annotations

from sanic import Blueprint

from corridorquest.web import (
    accounts,
    accounts_reset,
    assets,
    game_pages,
    lobby,
    login,
    profile,
    rating_leaderboard,
    seating,
    tournament_page,
    tv,
)
from corridorquest.web.page_headers import add_page_headers

bp = Blueprint("web", url_prefix="/")
bp.middleware(add_page_headers, "response")

ROUTES = (  # (address, method, handler)
    ("/", "GET", lobby.lobby),
    ("/web/lobby", "GET", lobby.lobby_fragment),
    ("/games/<game_id:int>", "GET", game_pages.game_page),
    ("/web/games/<game_id:int>/live", "GET", game_pages.game_fragment),
    ("/web/games/<game_id:int>/guest", "POST", seating.guest_seat),
    ("/users/<username:str>", "GET", profile.profile_page),
    ("/leaderboard", "GET", rating_leaderboard.leaderboard_page),
    ("/tournaments", "GET", tournament_page.tournament_list),
    ("/tournaments/<tournament_id:int>", "GET", tournament_page.tournament_page),
    ("/web/tournaments/<tournament_id:int>", "GET", tournament_page.tournament_fragment),
    ("/tv", "GET", tv.tv),
    ("/web/tv/list", "GET", tv.tv_list),
    ("/web/tv/boards", "GET", tv.tv_boards),
    ("/web/tv/games/<game_id:int>", "GET", tv.tv_game),
    ("/login", "GET", login.login_page),
    ("/login", "POST", login.login),
    ("/logout", "POST", login.logout),
    ("/web/csrf", "GET", login.csrf),
    ("/signup", "GET", accounts.signup_page),
    ("/signup", "POST", accounts.signup),
    ("/verify", "GET", accounts.verify_page),
    ("/verify", "POST", accounts.verify),
    ("/verify/resend", "POST", accounts.resend),
    ("/forgot", "GET", accounts_reset.forgot_page),
    ("/forgot", "POST", accounts_reset.forgot),
    ("/reset", "GET", accounts_reset.reset_page),
    ("/reset", "POST", accounts_reset.reset),
    ("/favicon.ico", "GET", assets.favicon),
    ("/web/static/<name:str>", "GET", assets.asset),
)
for uri, method, handler in ROUTES:
    getattr(bp, method.lower())(uri)(handler)  # as @bp.get(uri) / @bp.post(uri) would
