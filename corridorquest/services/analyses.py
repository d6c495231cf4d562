"""Analyses of finished games (SPEC §16): requested, computed once, stored, read.

`request_analysis` (POST) checks the caller may see the game (a private game: its players,
admins) and that it is finished (imported games are); a game in play is a 403
`game_in_play` (the engine's opinion of a live game would help a player) and nothing is
computed. The first request stores a `pending` row and
queues the computation (`analysis_queue`: bounded, a limit per user, fair between users)
for a worker process (`analysis_runs`: never on the event loop); the rows are stored
when it ends. Later requests find the row: `pending` or `done`
(a `failed` one, or a `pending` one older than `STALE_AFTER` that this process is not
computing — the process that was stopped, or is slow: computing it twice gives the same
rows — is computed again). `read_analysis` (GET) answers the same states; 404
`analysis_not_requested` before the first request.
"""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import timedelta
from typing import Any

from corridorquest.analysis import ANALYSIS_LEVEL, MISTAKE_DROP
from corridorquest.services import analysis_queue, analysis_runs
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Conflict, Forbidden, NotFound
from corridorquest.services.game_access import LoadedGame, load_visible
from corridorquest.store.models import GameAction, GameAnalysis, IntegrityError, utcnow

log = logging.getLogger("corridorquest.analysis")

STALE_AFTER = timedelta(minutes=2)  # a pending analysis no process may be computing any more
SEAT_TAGS = {"north": "North", "east": "East", "south": "South", "west": "West"}

_computing: set[int] = set()  # the games whose analysis this process queued or computes


def _analysable(loaded: LoadedGame) -> None:
    status = loaded.game.status
    game_id = loaded.game.id
    if status == "finished":
        return
    if status == "started":
        # forbidden, not a conflict: the engine's view of a game in play would help a player
        raise Forbidden("game_in_play", f"game {game_id} is in play: no analysis until it ends")
    if status == "waiting":
        raise Conflict("game_not_started", f"game {game_id} has not started")
    raise Conflict("game_cancelled", f"game {game_id} was cancelled: it has no analysis")


def _players(loaded: LoadedGame) -> dict[str, str]:
    """seat -> the name of its player (an imported game's: the record's names)."""
    names: dict[str, str] = {}
    for player in loaded.players:
        if player.seat:
            names[player.seat] = player.user.username
    if loaded.game.imported:
        tags = json.loads(loaded.game.imported)
        for seat, tag in SEAT_TAGS.items():
            if tags.get(tag):
                names[seat] = tags[tag]
    return names


def _record(loaded: LoadedGame) -> dict[str, Any]:
    assert loaded.state is not None
    game = loaded.game
    actions = [
        row.notation
        for row in GameAction.select(GameAction.notation)
        .where(GameAction.game == game.id)
        .order_by(GameAction.n)
    ]
    return {"size": game.size, "players": game.players, "first": loaded.state.first.value,
            "actions": actions}


def _view(loaded: LoadedGame, row: GameAnalysis | None) -> dict[str, Any]:
    game_id = loaded.game.id
    if row is None:
        raise NotFound("analysis_not_requested",
                       f"game {game_id} has no analysis: request it (POST) first")
    view: dict[str, Any] = {"game": game_id, "status": row.status, "level": row.level,
                            "mistake_drop": MISTAKE_DROP}
    if row.status == "done":
        names = _players(loaded)
        plies = json.loads(row.plies or "[]")
        for ply in plies:
            ply["player"] = names.get(ply["seat"])
        view["plies"] = plies
        view["computed_at"] = row.computed_at.isoformat() if row.computed_at else None
    elif row.status == "failed":
        view["error"] = row.error
    return view


async def request_analysis(ctx: ServiceContext, user: CurrentUser, game_id: int
                           ) -> dict[str, Any]:
    """The analysis as it stands after the request (`pending` when it was started now).
    A new computation takes a place in this process's queue (`analysis_queue`: 503
    `analysis_queue_full`, 429 `too_many_analyses`, nothing written)."""
    ticket = analysis_queue.Ticket(
        user.id, ctx.settings.analysis_per_user, ctx.settings.analysis_queue
    )

    def start() -> tuple[dict[str, Any], dict[str, Any] | None]:
        loaded = load_visible(game_id, user, lock=True)
        _analysable(loaded)
        row = GameAnalysis.get_or_none(GameAnalysis.game == game_id)
        if row is not None:
            stale = (row.status == "pending" and game_id not in _computing
                     and row.requested_at < utcnow() - STALE_AFTER)
            if row.status != "failed" and not stale:
                return _view(loaded, row), None
            ticket.admit()
            row.status, row.error, row.requested_at = "pending", None, utcnow()
            row.level = ANALYSIS_LEVEL
            row.save()
        else:
            ticket.admit()
            row = GameAnalysis.create(game=game_id, status="pending", level=ANALYSIS_LEVEL)
        return _view(loaded, row), _record(loaded)

    try:
        view, record = await ctx.store.transaction(start)
    except IntegrityError:  # another request created the row at the same moment
        ticket.release()
        return await read_analysis(ctx, user, game_id)
    except BaseException:
        ticket.release()
        raise
    if record is not None and game_id not in _computing:
        _computing.add(game_id)
        analysis_queue.submit(ticket, len(record["actions"]),
                              lambda: _run(ctx, game_id, record))
    else:
        ticket.release()
    return view


async def _run(ctx: ServiceContext, game_id: int, record: dict[str, Any]) -> None:
    try:
        await _compute(ctx, game_id, record)
    finally:
        _computing.discard(game_id)


async def _compute(ctx: ServiceContext, game_id: int, record: dict[str, Any]) -> None:
    try:
        plies = await analysis_runs.analyse(record, ANALYSIS_LEVEL)
        error = None
    except asyncio.CancelledError:
        raise
    except Exception as failure:
        log.warning("analysis of game %d failed: %r", game_id, failure)
        plies, error = None, f"{type(failure).__name__}: {failure}"

    def store() -> None:
        GameAnalysis.update(
            status="done" if error is None else "failed",
            plies=json.dumps(plies) if plies is not None else None,
            error=error,
            computed_at=utcnow(),
        ).where(GameAnalysis.game == game_id).execute()

    await ctx.store.transaction(store)


async def read_analysis(ctx: ServiceContext, user: CurrentUser, game_id: int
                        ) -> dict[str, Any]:
    """The stored analysis: `pending`, `done` (with one row per ply) or `failed`."""

    def read() -> dict[str, Any]:
        loaded = load_visible(game_id, user)
        _analysable(loaded)
        return _view(loaded, GameAnalysis.get_or_none(GameAnalysis.game == game_id))

    return await ctx.store.transaction(read)


async def wait_for_running() -> None:
    """Until the analyses this process queued are stored (tests, a graceful stop)."""
    await analysis_queue.drain()
