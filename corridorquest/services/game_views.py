"""A game and its history as one user may see them (hidden information stays hidden).

SPEC §4, during play (everything is revealed once the game is finished):
- masked: walls shown without owner; walls left hidden (a player sees its own count);
  history wall entries name no seat or player.
- invisible: a player sees only its own walls; non-players see no walls; the history
  shows an opponent's wall as placed, without where; distances are hidden (they would
  tell where the invisible walls are).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from corridorquest.engine import CLOCKWISE, Seat, wall_cost
from corridorquest.services.game_access import LoadedGame
from corridorquest.store import fast
from corridorquest.store.models import GameAction, User

LAST_ACTIONS = 5


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _revealed(loaded: LoadedGame) -> bool:
    return loaded.game.status == "finished"


def action_view(
    loaded: LoadedGame, row: GameAction, viewer_seat: Seat | None, usernames: dict[int, str]
) -> dict[str, Any]:
    """One history entry as the viewer may see it."""
    game = loaded.game
    entry: dict[str, Any] = {
        "n": row.n,
        "seat": row.seat,
        "username": usernames.get(row.user_id),
        "type": row.type,
        "notation": row.notation,
        "at": iso(row.at),
    }
    if row.type != "wall" or _revealed(loaded):
        return entry
    own = viewer_seat is not None and row.seat == viewer_seat.value
    if game.invisible and not own:
        entry["notation"] = None
    if game.masked and not own:
        entry["seat"] = None
        entry["username"] = None
    return entry


def history_view(
    loaded: LoadedGame, rows: list[GameAction], viewer_id: int
) -> list[dict[str, Any]]:
    usernames = {player.user_id: player.user.username for player in loaded.players}
    missing = {row.user_id for row in rows} - usernames.keys()
    if missing:  # a player who left a cancelled game
        for user in User.select(User.id, User.username).where(User.id.in_(missing)):
            usernames[user.id] = user.username
    seat = loaded.seat_of(viewer_id)
    return [action_view(loaded, row, seat, usernames) for row in rows]


def _walls_view(loaded: LoadedGame, viewer_seat: Seat | None) -> list[dict[str, Any]]:
    state = loaded.state
    if state is None:
        return []
    game = loaded.game
    revealed = _revealed(loaded)
    walls = []
    for wall, owner in state.walls:
        own = viewer_seat is owner
        if game.invisible and not revealed and not own:
            continue
        hide_owner = game.masked and not revealed and not own
        walls.append({"wall": str(wall), "owner": None if hide_owner else owner.value})
    return walls


def _seats_view(loaded: LoadedGame, viewer_seat: Seat | None) -> list[dict[str, Any]]:
    state = loaded.state
    if state is None:
        return []
    game = loaded.game
    revealed = _revealed(loaded)
    seats = []
    for seat in CLOCKWISE:
        if seat not in state.seats:
            continue
        user = loaded.user_at(seat)
        own = viewer_seat is seat
        walls_left: int | None = state.walls_left[seat]
        if game.masked and not revealed and not own:
            walls_left = None
        distance: int | None = state.distance(seat)
        if game.invisible and not revealed:
            distance = None
        seats.append(
            {
                "seat": seat.value,
                "username": user.username if user is not None else None,
                "walls_left": walls_left,
                "distance": distance,
            }
        )
    return seats


def game_view(
    loaded: LoadedGame, viewer_id: int, last_actions: list[GameAction] | None = None
) -> dict[str, Any]:
    """The game as `viewer_id` may see it (docs/api.md, Games)."""
    game = loaded.game
    state = loaded.state
    viewer_seat = loaded.seat_of(viewer_id)
    is_player = loaded.is_player(viewer_id)
    turn = state.turn if state is not None and game.status == "started" else None
    turn_user = loaded.user_at(turn) if turn is not None else None
    winner = loaded.user_at(state.winner) if state is not None and state.winner else None
    admin_name = next((p.user.username for p in loaded.players if p.user_id == game.admin_id), None)
    if admin_name is None:
        admin_name = User.get_by_id(game.admin_id).username
    if last_actions is None:
        last_actions = fast.select(
            GameAction, 't."game_id" = ?', (game.id,), f'ORDER BY t."n" DESC LIMIT {LAST_ACTIONS}'
        )[::-1]
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
        "seats": _seats_view(loaded, viewer_seat),
        "waiting_players": loaded.usernames if game.status == "waiting" else [],
        "turn": turn.value if turn is not None else None,
        "turn_username": turn_user.username if turn_user is not None else None,
        "winner": winner.username if winner is not None else None,
        "pawns": {s.value: str(sq) for s, sq in state.pawns.items()} if state else {},
        "walls": _walls_view(loaded, viewer_seat),
        "wall_cost": wall_cost(game.size, game.players),
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
