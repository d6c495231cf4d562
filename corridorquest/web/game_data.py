"""What a game's page shows, assembled from the services: the game as the watcher sees
it, a finished game's replay at a step, and the board's and panel's template values."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup
from sanic import Request

from corridorquest.callers import services
from corridorquest.drawing.best_outline import best_outline
from corridorquest.drawing.board_svg import board_svg
from corridorquest.services import games, messages, positions
from corridorquest.services.auth import CurrentUser
from corridorquest.services.errors import NotFound, Unprocessable
from corridorquest.services.game_views import bots_only
from corridorquest.web.best_values import best_caption
from corridorquest.web.join_qr import join_qr

MAX_GAME_ID = 2**62
# The game's log on its page (moves, offers, ...: system messages): its newest entries.
# A game's log grows with every action, and the panel is sent again after each event.
LOG_SHOWN = 60
# The chat (players' messages, at most MESSAGE_LIMIT each: 100 by default) is shown whole,
# however many moves come after; this bounds it only where an administrator raised the
# limit far above the default (`cq-admin` message limit, up to 100,000).
CHAT_SHOWN = 400


async def public_game(request: Request, user: CurrentUser, game_id: int) -> dict[str, Any]:
    """The game as the watcher sees it; 404 for a private game (to everybody, here)."""
    if not 1 <= game_id <= MAX_GAME_ID:
        raise NotFound("game_not_found", f"no game {game_id}")
    view = await games.show_game(services(request), user, game_id)
    if view["private"]:
        raise NotFound("game_not_found", f"no game {game_id}")
    return view


def page_code(request: Request) -> str | None:
    """The invitation code a game's page was opened with (`?code=`, its join link)."""
    return request.args.get("code") or None


async def page_game(request: Request, user: CurrentUser, game_id: int) -> dict[str, Any]:
    """The game for its page and the page's fragment: a public game, or a private one
    for its players and for whoever opened its join link (`?code=`, the invitation code
    the services check); 404 to everybody else."""
    if not 1 <= game_id <= MAX_GAME_ID:
        raise NotFound("game_not_found", f"no game {game_id}")
    code = page_code(request)
    view = await games.show_game(services(request), user, game_id, code)
    # a private game's view holds its code for its players only
    if view["private"] and not (view.get("invitation_code") or code):
        raise NotFound("game_not_found", f"no game {game_id}")
    return view


def requested_step(request: Request, actions: int) -> int | None:
    """`?at=N` of a finished game's replay (None: the end); 0 <= N <= actions."""
    text = request.args.get("at")
    if text is None:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 6) or int(text) > actions:
        raise Unprocessable(
            "invalid_action_number", f"this game has {actions} actions: 'at' takes 0 to {actions}"
        )
    return int(text)


async def step_view(
    request: Request, user: CurrentUser, now: dict[str, Any], at: int, actions: int
) -> dict[str, Any]:
    """A finished game as it was after its first `at` actions: board and panel (walls
    left, turn, last actions) of that moment, the markers of the end (as board.svg)."""
    if at >= actions:
        return now
    view = await positions.show_position(
        services(request), user, now["id"], at, page_code(request)
    )
    view["markers"] = now["markers"]
    view["replay_step"] = True  # a "to move" line instead of the end's result
    return view


def seat_of(user: CurrentUser, view: dict[str, Any]) -> str | None:
    """The seat `user` plays in the game `view` (None: not a seated player; nobody's in
    an imported game, whose players are its record's names, not accounts)."""
    if not getattr(user, "id", None) or view.get("imported"):
        return None
    for seat in view.get("seats") or ():
        if seat.get("username") == user.username:
            return str(seat["seat"])
    return None


def may_ask_rematch(user: CurrentUser, view: dict[str, Any]) -> bool:
    """Whether the page of finished game `view` offers `user` its rematch: a player of it,
    or the admin of a game of bots only (the API decides; this only hides the button)."""
    if seat_of(user, view) is not None:
        return True
    return bots_only(view) and view.get("admin") == getattr(user, "username", None)


def rematch_words(user: CurrentUser, view: dict[str, Any]) -> str:
    """The rematch button's words on the page of finished game `view`: "Rematch"; once
    another player asked, "Accept the rematch" (the same ask joins that game); once `user`
    plays in it or asked for it (a game of bots only), "Go to the rematch" (the ask answers
    that game)."""
    rematch = view.get("rematch")
    if not rematch:
        return "Rematch"
    me = getattr(user, "username", None)
    if me in rematch["players"] or me == rematch["admin"]:
        return "Go to the rematch"
    return "Accept the rematch"


def playing(user: CurrentUser, view: dict[str, Any]) -> str | None:
    """The seat of `user` when it plays the game `view` on its page now (a started game,
    not a replay's step): its board gets hit targets and the page its controls."""
    if view["status"] != "started" or view.get("replay_step"):
        return None
    return seat_of(user, view)


async def live_values(request: Request, user: CurrentUser, view: dict[str, Any],
                      best: dict[str, Any] | None = None) -> dict[str, Any]:
    """The values of game_live.html: the board and the panel of `view`; `best`: a replay
    step's analysis row (web/best_values.py), its best action drawn on the board;
    `play_seat`: the watcher's seat when it plays the game now (its board has hit targets,
    the panel the open offers it may take); `chat` and `log`: the messages the watcher
    may read, the players' whole (up to CHAT_SHOWN) and the game's newest LOG_SHOWN
    (`chat_earlier` and `log_earlier`: how many older ones are not shown)."""
    seat = playing(user, view)
    code = page_code(request)  # a private game's page opened with its join link
    listed = (await messages.list_messages(services(request), user, view["id"], 0, code))[
        "messages"
    ]
    chat, log = messages.chat_and_log(listed)
    return {
        "view": view,
        "join": join_qr(request, services(request).settings, view),  # a waiting game's QR
        # our own SVG, escaped inside
        "board": Markup(board_svg(view, standalone=False, overlay=best_outline(
            view, best["best"], best.get("seat")) if best else (), targets=seat is not None)),
        "play_seat": seat,
        "me": user.username if seat else None,
        "others": [s["username"] for s in view.get("seats") or ()
                   if seat and s.get("username") and s["username"] != user.username],
        "best_caption": best_caption(best) if best else None,
        "online": set(view.get("online") or ()),
        "chat": chat[-CHAT_SHOWN:],  # the players' messages the watcher may read
        "chat_earlier": max(0, len(chat) - CHAT_SHOWN),
        "log": log[-LOG_SHOWN:],
        "log_earlier": max(0, len(log) - LOG_SHOWN),  # older log entries not shown
        "replay_step": bool(view.get("replay_step")),
    }


def stream_position(view: dict[str, Any], listed: list[dict[str, Any]]) -> str:
    """Where the page's live stream resumes (`?since=`, docs/api.md, Live streams): the
    revision of the game the page shows and the number of the newest message it lists
    (read after the game: a message is never both shown and sent again, a move made
    since the game was read comes first on the stream)."""
    return f"{view['revision']}.{max((int(m['id']) for m in listed), default=0)}"
