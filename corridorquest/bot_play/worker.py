"""What the bot worker processes run: a move chosen from a seat's view, or a trade judged.

Imports the bots' engine only (`corridorquest.bots`, `corridorquest.engine`), never the
server: a worker process (spawned, also inside the pyz) starts in a fraction of a second.
Every function takes and returns plain data (a `SeatView` as its dict).
"""

from __future__ import annotations

import logging
import os
from typing import Any

from corridorquest.bots import SeatView, choose, evaluate, knowledge
from corridorquest.bots.search import ordered_steps
from corridorquest.bots.view import edge_between
from corridorquest.engine import PlaceWall, format_action

log = logging.getLogger(__name__)

WORKER_NICE = 19  # bots yield the cores to the server's requests (people's moves first)


def start_worker() -> None:
    """The initializer of a worker process: the lowest priority there is. On Linux the
    worker runs as SCHED_IDLE (only on CPU time nothing else wants: a busy server's
    requests come first, an idle server's bots move at full speed); elsewhere at nice 19."""
    try:
        os.nice(WORKER_NICE)
    except OSError:  # not allowed here: run at the same priority
        pass
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None:
        try:
            os.sched_setscheduler(0, idle, os.sched_param(0))
        except OSError:  # not allowed here: nice 19 it is
            pass


def ready() -> bool:
    """Nothing: what the driver waits for once when a worker process starts (its start is
    not a search's time)."""
    return True


def kind_of(view: SeatView, notation: str) -> str:
    """The API's action type (move, jump, wall) of `notation` on the seat's knowledge."""
    state = knowledge(view)
    for action in state.legal_actions():
        if format_action(action) == notation:
            if isinstance(action, PlaceWall):
                return "wall"
            return "jump" if action.jump else "move"
    return "wall" if notation[-1:] in ("h", "v") else "move"


def fallback(view: SeatView) -> str:
    """A legal action the bot may play when its search fails: the first step of a
    shortest path on what the seat knows, avoiding the edges it bumped into and the
    actions refused this turn (else any legal action not refused)."""
    state = knowledge(view)
    seat = view.seat
    refused = set(view.refused)
    pawn = state.pawns[seat]
    blocked = set(view.blocked)
    for step in ordered_steps(state, seat):
        text = format_action(step)
        if text not in refused and edge_between(pawn, step.to) not in blocked:
            return text
    for action in state.legal_actions():
        text = format_action(action)
        if text not in refused:
            return text
    raise RuntimeError(f"{seat.title} has no legal action left to try")


def choose_action(view_data: dict[str, Any], level: int, seed: int) -> tuple[str, str, str | None]:
    """(kind, notation, warning) of the seat to move; the warning is set when the search
    failed and the fallback was played."""
    view = SeatView.from_dict(view_data)
    warning = None
    try:
        notation = choose(view, level, seed)
    except Exception as error:  # a bot never stalls its game: a legal fallback
        notation = fallback(view)
        warning = (
            f"level {level} search failed ({type(error).__name__}: {error}); "
            f"played {notation}"
        )
    return kind_of(view, notation), notation, warning


def trade_pays(view_data: dict[str, Any], own_change: int, other: str) -> bool:
    """Whether the seat gains (or loses nothing) in its evaluation when its walls change by
    `own_change` (+1 buying, -1 selling) and the seat `other`'s by the opposite, the turn
    set to the seat (an evaluation is the player to move's)."""
    data = dict(view_data)
    data["turn"] = data["seat"]
    before = evaluate(SeatView.from_dict(data))
    data["own_walls_left"] = int(data["own_walls_left"]) + own_change
    if data["own_walls_left"] < 0:
        return False
    if data.get("walls_left") is not None:
        counts = dict(data["walls_left"])
        counts[data["seat"]] = data["own_walls_left"]
        if other in counts:
            counts[other] = max(0, int(counts[other]) - own_change)
        data["walls_left"] = counts
    after = evaluate(SeatView.from_dict(data))
    return after >= before

