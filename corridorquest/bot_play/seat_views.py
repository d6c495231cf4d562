"""A bot's `SeatView` built from what the API shows its seat: the game view and history.

The bot reads its game as a person's client does (`services.games.show_game` and
`services.play.history` as the bot user, through `services.visibility`), and knows nothing
more: in an invisible-walls game only its own walls and its own markers (the edges it
bumped into, which the driver notes as markers, as a player would); in a masked game the
walls without owners and no counts. What a player works out for itself the bot works out
the same way from the same view:

- its trail (the squares it stood on since the last wall, bots/race.py): from the
  history's steps of its seat;
- who moved first and the ply: from the history (the first entry that names a seat, and
  the turn order);
- its own walls left in a masked game (the view hides every count, one's own too): the
  walls it placed (the history's wall entries at its turns, the turn order telling whose
  they are; passes are rare and resynchronise at the next entry that names a seat), plus
  the walls it bought, minus those it sold (its own trade balance over the wall cost).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from corridorquest.bots import SeatView
from corridorquest.bots.race import trail_from_history
from corridorquest.engine import GameState, Seat, initial_walls, seats_for


def _first_mover(history: Sequence[dict[str, Any]], order: list[Seat], turn: Seat) -> Seat:
    for index, entry in enumerate(history):
        if entry.get("seat"):
            return order[(order.index(Seat(entry["seat"])) - index) % len(order)]
    return order[(order.index(turn) - len(history)) % len(order)]


def _own_walls_placed(history: Sequence[dict[str, Any]], order: list[Seat], first: Seat,
                      me: Seat) -> int:
    placed = 0
    expected = first
    for entry in history:
        seat = Seat(entry["seat"]) if entry.get("seat") else expected
        if entry.get("type") == "wall" and seat is me:
            placed += 1
        expected = order[(order.index(seat) + 1) % len(order)]
    return placed


def seat_view_from_api(
    view: dict[str, Any],
    history: Sequence[dict[str, Any]],
    username: str,
    refused: Sequence[str] = (),
) -> SeatView:
    """The `SeatView` of `username`'s seat from its game view and history (API JSON)."""
    size, players = int(view["size"]), int(view["players"])
    order = list(seats_for(players))
    seats = {entry["seat"]: entry for entry in view["seats"]}
    mine = [entry["seat"] for entry in view["seats"] if entry["username"] == username]
    if not mine:
        raise ValueError(f"{username} has no seat in game {view['id']}")
    me = Seat(mine[0])
    turn = Seat(view["turn"]) if view.get("turn") else None
    first = _first_mover(history, order, turn or me)
    walls = [entry["wall"] for entry in view["walls"]]
    own_walls = [entry["wall"] for entry in view["walls"] if entry.get("owner") == me.value]
    if view["masked"]:
        counts = None
        balance = int(view.get("trade_balance") or 0)
        traded = -balance // int(view["wall_cost"]) if view.get("wall_cost") else 0
        own_left = (
            initial_walls(size, players) - _own_walls_placed(history, order, first, me) + traded
        )
    else:
        counts = {Seat(name): int(entry["walls_left"]) for name, entry in seats.items()}
        own_left = counts[me]
    markers = [m["marker"] for m in view.get("markers") or [] if m.get("owner") == me.value]
    return SeatView(
        size=size,
        players=players,
        seat=me,
        first=first,
        turn=turn,
        ply=len(history),
        pawns={Seat(name): str(square) for name, square in view["pawns"].items()},
        walls=tuple(walls),
        own_walls_left=max(0, own_left),
        walls_left=counts,
        blocked=tuple(markers) if view["invisible"] else (),
        refused=tuple(refused),
        own_walls=tuple(own_walls),
        invisible=bool(view["invisible"]),
        # the squares it stood on since the last wall: it never steps back onto one to wait
        trail=trail_from_history(
            history, me, str(GameState.new(size=size, players=players, first=first).pawns[me])
        ),
    )
