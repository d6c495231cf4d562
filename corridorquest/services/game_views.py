"""A game and its history as one user may see them (hidden information stays hidden).

What is hidden in which mode is decided in ONE place, `services.visibility`; this module
only assembles the JSON of docs/api.md from what a `Visibility` lets through.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from corridorquest.engine import CLOCKWISE, Seat, wall_cost
from corridorquest.services.game_access import LoadedGame
from corridorquest.services.offer_views import offers_view
from corridorquest.services.visibility import Visibility, markers_view
from corridorquest.store.game_rows import ActionRow, recent_actions
from corridorquest.store.models import GameAction, GameMarker, User

LAST_ACTIONS = 5


def iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.microsecond == 0 and moment.tzinfo is None:  # what we store: a few times faster
        return moment.isoformat() + "Z"
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def visibility_for(loaded: LoadedGame, viewer_id: int) -> Visibility:
    return Visibility.of(loaded.game, loaded.seat_of(viewer_id))


def action_view(
    loaded: LoadedGame,
    row: GameAction | ActionRow,
    viewer_seat: Seat | None,
    usernames: dict[int, str],
    visibility: Visibility | None = None,
) -> dict[str, Any]:
    """One history entry as the viewer may see it (`visibility`: the viewer's, if known)."""
    entry: dict[str, Any] = {
        "n": row.n,
        "seat": row.seat,
        "username": usernames.get(row.user_id),
        "type": row.type,
        "notation": row.notation,
        "at": iso(row.at),
    }
    if visibility is None:
        visibility = Visibility.of(loaded.game, viewer_seat)
    return visibility.history_entry(entry)


def history_view(
    loaded: LoadedGame, rows: Sequence[GameAction | ActionRow], viewer_id: int
) -> list[dict[str, Any]]:
    usernames = {player.user_id: player.user.username for player in loaded.players}
    missing = {row.user_id for row in rows} - usernames.keys()
    if missing:  # a player who left a cancelled game
        for user in User.select(User.id, User.username).where(User.id.in_(missing)):
            usernames[user.id] = user.username
    seat = loaded.seat_of(viewer_id)
    visibility = Visibility.of(loaded.game, seat)
    return [action_view(loaded, row, seat, usernames, visibility) for row in rows]


def _walls_view(loaded: LoadedGame, visibility: Visibility) -> list[dict[str, Any]]:
    return [] if loaded.state is None else visibility.walls(loaded.state)


def _seats_view(loaded: LoadedGame, visibility: Visibility) -> list[dict[str, Any]]:
    state = loaded.state
    if state is None:
        return []
    seats = []
    for seat in CLOCKWISE:
        if seat not in state.seats:
            continue
        user = loaded.user_at(seat)
        seats.append(
            {
                "seat": seat.value,
                "username": user.username if user is not None else None,
                "walls_left": visibility.walls_left(state.walls_left[seat]),
                "distance": visibility.distance(state, seat),
            }
        )
    return seats


def markers_of(loaded: LoadedGame, visibility: Visibility) -> list[dict[str, Any]]:
    """The markers the viewer may see (invisible-walls games only; own ones during play)."""
    game = loaded.game
    if not game.invisible or game.status == "waiting":
        return []
    seats = {p.user_id: Seat(p.seat) for p in loaded.players if p.seat}
    query = GameMarker.select(GameMarker.user, GameMarker.notation).where(
        GameMarker.game == game.id
    )
    if not visibility.revealed:
        mine = [uid for uid, seat in seats.items() if visibility.own(seat)]
        if not mine:
            return []
        query = query.where(GameMarker.user == mine[0])
    rows = [
        (row.notation, seats[row.user_id])
        for row in query.order_by(GameMarker.id)
        if row.user_id in seats
    ]
    return markers_view(visibility, rows)



def _own_trade_balance(loaded: LoadedGame, viewer_id: int) -> int | None:
    """The viewer's own trade balance (others' would tell wall counts in masked games)."""
    player = loaded.player_of(viewer_id)
    return player.trade_balance if player is not None else None


def game_view(
    loaded: LoadedGame,
    viewer_id: int,
    last_actions: Sequence[GameAction | ActionRow] | None = None,
) -> dict[str, Any]:
    """The game as `viewer_id` may see it (docs/api.md, Games)."""
    game = loaded.game
    state = loaded.state
    visibility = visibility_for(loaded, viewer_id)
    is_player = loaded.is_player(viewer_id)
    turn = state.turn if state is not None and game.status == "started" else None
    turn_user = loaded.user_at(turn) if turn is not None else None
    winner = loaded.user_at(state.winner) if state is not None and state.winner else None
    admin_name = next((p.user.username for p in loaded.players if p.user_id == game.admin_id), None)
    if admin_name is None:
        admin_name = User.get_by_id(game.admin_id).username
    if last_actions is None:
        last_actions = recent_actions(game.id, LAST_ACTIONS)
    return {
        "id": game.id,
        "status": game.status,
        "revision": game.revision,
        "size": game.size,
        "players": game.players,
        "masked": game.masked,
        "invisible": game.invisible,
        "private": game.private,
        "admin": admin_name,
        "invitation_code": game.invitation_code if is_player else None,
        "seats": _seats_view(loaded, visibility),
        "waiting_players": loaded.usernames if game.status == "waiting" else [],
        "turn": turn.value if turn is not None else None,
        "turn_username": turn_user.username if turn_user is not None else None,
        "winner": winner.username if winner is not None else None,
        "pawns": {s.value: str(sq) for s, sq in state.pawns.items()} if state else {},
        "walls": _walls_view(loaded, visibility),
        "markers": markers_of(loaded, visibility),
        "wall_cost": wall_cost(game.size, game.players),
        "offers": offers_view(loaded, viewer_id),
        "trade_balance": _own_trade_balance(loaded, viewer_id),
        "last_actions": history_view(loaded, last_actions, viewer_id),
        "scores": {p.user.username: p.score for p in loaded.players if p.score is not None},
        "cancel_reason": game.cancel_reason,
        "created_at": iso(game.created_at),
        "started_at": iso(game.started_at),
        "finished_at": iso(game.finished_at),
        "cancelled_at": iso(game.cancelled_at),
    }


def summary_view(loaded: LoadedGame) -> dict[str, Any]:
    """A row of the game list (needs no engine state: `loaded.state` may be None)."""
    game = loaded.game
    names = {player.user_id: player.user.username for player in loaded.players}
    turn_name = names.get(game.turn_user_id) if game.status == "started" else None
    return {
        "id": game.id,
        "status": game.status,
        "players": game.players,
        "size": game.size,
        "private": game.private,
        "masked": game.masked,
        "invisible": game.invisible,
        "winner": names.get(game.winner_id) if game.winner_id else None,
        "usernames": loaded.usernames,
        "turn_username": turn_name,
        "revision": game.revision,
    }
