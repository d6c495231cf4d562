"""A game: its page `/games/{id}` and the board and panel `/web/games/{id}/live` that
the page fetches after each event of the game's stream; a finished game's replay at
`?at=N` (each step its own address). A seated player's page of a started game plays:
hit targets on its board and controls under it (game_data.playing, static/play.js)."""

from __future__ import annotations

from urllib.parse import quote

from sanic import Request
from sanic.response import HTTPResponse, html
from sanic_ext import openapi

from corridorquest.callers import services
from corridorquest.services import ratings
from corridorquest.services.errors import NotFound, Unprocessable
from corridorquest.services.play import action_count
from corridorquest.web.analysis_values import analysis_values
from corridorquest.web.best_values import best_here
from corridorquest.web.game_data import (
    live_values,
    may_ask_rematch,
    page_code,
    page_game,
    rematch_words,
    requested_step,
    step_view,
    stream_position,
)
from corridorquest.web.seating import seat_panel
from corridorquest.web.templating import render
from corridorquest.web.viewer import login_redirect, viewer


@openapi.exclude()
async def game_page(request: Request, game_id: int) -> HTTPResponse:
    user = await viewer(request)
    if user is None:
        return login_redirect(request)
    try:
        view = await page_game(request, user, game_id)
    except NotFound:
        return html(render("not_found.html", user=user), status=404)
    live = view["status"] in ("waiting", "started")
    replay = view["status"] == "finished"
    code = page_code(request)
    rematch = rematch_words(user, view) if replay and may_ask_rematch(user, view) else None
    actions = await action_count(services(request), user, game_id, code) if replay else 0
    at = actions
    if replay:  # ?at=N: the replay at that step (ignored while the game is live)
        try:
            step = requested_step(request, actions)
        except Unprocessable as error:
            way_back = {  # the replay at its end
                "href": request.path + (f"?code={quote(code)}" if code and view["private"] else ""),
                "text": f"Back to game {game_id}",
            }
            page = render(
                "problem.html", user=user, title=f"Game {game_id}", message=error.message,
                way_back=way_back,
            )
            return html(page, status=error.status)
        at = actions if step is None else step
        view = await step_view(request, user, view, at, actions)
    rated = await ratings.game_ratings(services(request), user, game_id) if replay else None
    best = await best_here(request, user, game_id, at) if replay and at < actions else None
    graph, analysis_status = await analysis_values(request, user, game_id, at) if replay else (
        None, None)
    values = await live_values(request, user, view, best)
    page = render(
        "game.html",
        user=user,
        here=request.path + (f"?code={code}" if code and view["private"] else ""),
        game_id=game_id,
        live=live,
        replay=replay,
        rematch=rematch,
        rating_changes=rated["players"] if rated else [],
        at=at,
        actions=actions,
        analysis_graph=graph,
        analysis_status=analysis_status,
        code=code if view["private"] else None,  # for the fragment's and stream's requests
        seat=seat_panel(request, user, view, code),  # a waiting game's seat panel
        since=stream_position(view, values["chat"] + values["log"]) if live else None,
        **values,
    )
    return html(page)


@openapi.exclude()
async def game_fragment(request: Request, game_id: int) -> HTTPResponse:
    """The board and the panel (`?at=N`: of a finished game's replay at that step)."""
    user = await viewer(request)
    if user is None:
        return html("", status=401)
    try:
        view = await page_game(request, user, game_id)
    except NotFound:
        return html("", status=404)
    best = None
    if view["status"] == "finished" and "at" in request.args:
        actions = await action_count(services(request), user, game_id, page_code(request))
        try:
            at = requested_step(request, actions)
        except Unprocessable as error:
            return html(render("problem_text.html", message=error.message), status=error.status)
        view = await step_view(request, user, view, actions if at is None else at, actions)
        if at is not None and at < actions:
            best = await best_here(request, user, game_id, at)
    response = html(render("game_live.html", **await live_values(request, user, view, best)))
    response.headers["X-Game-Status"] = view["status"]
    return response
