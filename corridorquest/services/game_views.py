"""A game and its history as one user may see them (hidden information stays hidden).

What is hidden in which mode is decided in ONE place, `services.visibility`; this module
only assembles the JSON of docs/api.md from what a `Visibility` lets through.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any, NamedTuple

from corridorquest.engine import CLOCKWISE, GameState, Seat, wall_cost
from corridorquest.services import presence
from corridorquest.services.game_access import LoadedGame
from corridorquest.services.iso_times import iso
from corridorquest.services.offer_views import offers_view
from corridorquest.services.record_players import (
    names_in_seat_order,
    record_names,
    stored_winner,
)
from corridorquest.services.rematch_links import rematch_view
from corridorquest.services.user_refs import ids_in, render, usernames
from corridorquest.services.visibility import Visibility, markers_view
from corridorquest.store.game_rows import ActionRow, recent_actions
from corridorquest.store.models import Game, GameAction, GameMarker, GamePlayer, User

LAST_ACTIONS = 5




def visibility_for(loaded: LoadedGame, viewer_id: int) -> Visibility:
    return Visibility.of(loaded.game, loaded.seat_of(viewer_id))


class _Roster:
    """The players of a game, read once for a view (each lookup in `loaded` is a scan)."""

    __slots__ = ("names", "by_seat", "viewer", "viewer_seat", "scores", "users", "record")

    def __init__(self, players: list[GamePlayer], viewer_id: int, game: Game) -> None:
        self.names: dict[int, str] = {}  # username by user id
        self.by_seat: dict[str, str] = {}  # username by seat value
        self.viewer: GamePlayer | None = None  # the viewer's player row
        self.viewer_seat: str | None = None  # its seat value
        self.scores: dict[str, int] = {}  # by username, once scored
        self.users: list[User] = []  # the players' users, in join order
        for player in players:
            row = player.__data__.get  # the row's values (speed: as in `game_view`)
            user_id = row("user")
            user = player.user
            self.users.append(user)
            name = self.names[user_id] = user.username
            seat = row("seat")
            if seat and seat not in self.by_seat:  # the first one, as `loaded.user_at`
                self.by_seat[seat] = name
            if self.viewer is None and user_id == viewer_id:
                self.viewer, self.viewer_seat = player, seat
            score = row("score")
            if score is not None:
                self.scores[name] = score
        # an imported game: no player rows, its record's names by seat (record_players)
        self.record = record_names(game.__data__.get("imported"))
        if self.record is not None:
            self.by_seat = dict(self.record)

    def visibility(self, game: Game) -> Visibility:
        seat = self.viewer_seat
        return Visibility.of(game, Seat(seat) if seat else None)

    def at(self, seat: Seat | None) -> str | None:
        """The username of the player at `seat` (None: nobody, or no seat)."""
        return self.by_seat.get(seat.value) if seat is not None else None


def _entry(row: GameAction | ActionRow, usernames: dict[int, str]) -> dict[str, Any]:
    return {
        "n": row.n,
        "seat": row.seat,
        "username": usernames.get(row.user_id),
        "type": row.type,
        "notation": row.notation,
        "at": iso(row.at),
    }


def action_view(
    loaded: LoadedGame,
    row: GameAction | ActionRow,
    viewer_seat: Seat | None,
    usernames: dict[int, str],
    visibility: Visibility | None = None,
) -> dict[str, Any]:
    """One history entry as the viewer may see it (`visibility`: the viewer's, if known)."""
    entry = _entry(row, usernames)
    if visibility is None:
        visibility = Visibility.of(loaded.game, viewer_seat)
    return visibility.history_entry(entry)


def _with_missing_users(
    usernames: dict[int, str], rows: Sequence[GameAction | ActionRow]
) -> dict[int, str]:
    """`usernames` (copied if needed) with the users of `rows` who are no players any more."""
    missing = {row.user_id for row in rows} - usernames.keys()
    if not missing:
        return usernames
    usernames = dict(usernames)  # a player who left a cancelled game
    for user in User.select(User.id, User.username).where(User.id.in_(missing)):
        usernames[user.id] = user.username
    return usernames


def _history(
    rows: Sequence[GameAction | ActionRow],
    usernames: dict[int, str],
    visibility: Visibility,
    record: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """`record`: an imported game's names by seat, which name its actions (they are
    stored under the importer's account)."""
    if record is not None:
        entries = [_entry(row, {}) | {"username": record.get(row.seat)} for row in rows]
    else:
        usernames = _with_missing_users(usernames, rows)
        entries = [_entry(row, usernames) for row in rows]
    if visibility.hides_history:  # otherwise every entry is shown as it is
        entries = [visibility.history_entry(entry) for entry in entries]
    return entries


def history_view(
    loaded: LoadedGame, rows: Sequence[GameAction | ActionRow], viewer_id: int
) -> list[dict[str, Any]]:
    roster = _Roster(loaded.players, viewer_id, loaded.game)
    return _history(rows, roster.names, roster.visibility(loaded.game), roster.record)


def _walls_view(loaded: LoadedGame, visibility: Visibility) -> list[dict[str, Any]]:
    return [] if loaded.state is None else visibility.walls(loaded.state)


def _last_wall(
    last_actions: Sequence[GameAction | ActionRow], visibility: Visibility
) -> str | None:
    """The wall the latest action placed, where the viewer sees it (else None)."""
    if not last_actions:
        return None
    last = last_actions[-1]
    if last.type != "wall" or not last.seat:
        return None
    return visibility.latest_wall(last.notation, last.seat)


def _seats_view(
    loaded: LoadedGame, visibility: Visibility, roster: _Roster | None = None
) -> list[dict[str, Any]]:
    state = loaded.state
    if state is None:
        return []
    by_seat = (roster or _Roster(loaded.players, 0, loaded.game)).by_seat
    seats = []
    for seat in CLOCKWISE:
        if seat not in state.seats:
            continue
        value = seat.value
        seats.append(
            {
                "seat": value,
                "username": by_seat.get(value),
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


@cache  # a pure function of two small numbers, asked for on every view
def _wall_cost(size: int, players: int) -> int:
    return wall_cost(size, players)


def _admin_name(admin_id: int, roster: _Roster) -> str:
    name = roster.names.get(admin_id)
    return name if name is not None else User.get_by_id(admin_id).username


def _cancel_reason(reason: str | None, roster: _Roster) -> str | None:
    """A cancelled game's reason (a stored text: users by id) with the current names."""
    if not reason:
        return reason
    return render(reason, usernames(ids_in([reason]), roster.names))


def bots_of(loaded: LoadedGame) -> dict[str, dict[str, int]]:
    """The bots among the players (SPEC §13): username -> {"level": N}."""
    return _bots(player.user for player in loaded.players)


def _bots(users: Iterable[User]) -> dict[str, dict[str, int]]:
    return {u.username: {"level": u.bot_level} for u in users if u.bot_level is not None}


def bots_only(view: dict[str, Any]) -> bool:
    """Whether every seat of a game view is a bot's (a game of bots only, SPEC §13)."""
    seats = view.get("seats") or ()
    bots = view.get("bots") or {}
    return bool(seats) and all(seat.get("username") in bots for seat in seats)


def guests_of(loaded: LoadedGame) -> list[str]:
    """The guests among the players (GUESTS=on), by username, in join order."""
    return _guests(player.user for player in loaded.players)


def _guests(users: Iterable[User]) -> list[str]:
    return [user.username for user in users if user.guest]


def _pawns_view(state: GameState | None) -> dict[str, str]:
    return {s.value: str(sq) for s, sq in state.pawns.items()} if state else {}


class Board(NamedTuple):
    """What a game view showed at one revision to the viewers of one `board_key`
    (services.visibility): the whole view with the viewer's own fields left None, and the
    usernames it was made with (a rename moves no revision on). the unit of work keeps the one of
    its answer (last_commit, once the move has committed): the live streams' look at the
    same revision then shows the spectators the board the mover's answer worked out."""

    key: tuple[Any, ...]
    names: dict[int, str]
    view: dict[str, Any]


def game_view(
    loaded: LoadedGame,
    viewer_id: int,
    last_actions: Sequence[GameAction | ActionRow] | None = None,
    open_offers: Sequence[Sequence[Any]] | None = None,
    board: Board | None = None,
    keep: list[Board] | None = None,
) -> dict[str, Any]:
    """The game as `viewer_id` may see it (docs/api.md, Games).

    `last_actions` (its last LAST_ACTIONS actions) and `open_offers` (its
    `open_offer_rows`): what the caller already has, else they are read. `board`: a
    `Board` of this game at its revision, used when the viewer sees that board (its
    visibility's `board_key` and the names are the same). `keep`: a list the view's own
    `Board` is added to, when it names only the players.
    """
    game = loaded.game
    row = game.__data__.get
    roster = _Roster(loaded.players, viewer_id, game)
    visibility = roster.visibility(game)
    viewer = roster.viewer
    key = visibility.board_key
    if board is not None and board.key == key and board.names == roster.names:
        view = board.view.copy()  # (its lists are shared: nobody changes a view's lists)
    else:
        if last_actions is None:
            last_actions = recent_actions(row("id"), LAST_ACTIONS)
        view = _board_view(loaded, roster, visibility, last_actions)
        if keep is not None and _names_only_players(row, roster, last_actions):
            keep.append(Board(key, dict(roster.names), view.copy()))
    # the viewer's own
    view["invitation_code"] = row("invitation_code") if viewer is not None else None
    view["markers"] = markers_of(loaded, visibility)
    view["offers"] = offers_view(loaded, viewer_id, roster.names, open_offers)
    # only the viewer's own balance: others' would tell wall counts in masked games
    view["trade_balance"] = viewer.trade_balance if viewer is not None else None
    # the players holding a live stream open (services.presence)
    view["online"] = [roster.names[uid] for uid in presence.online(row("id"), roster.names)]
    view["rematch"] = rematch_view(row("id")) if row("status") == "finished" else None
    return view


def _names_only_players(
    row: Any, roster: _Roster, last_actions: Sequence[GameAction | ActionRow]
) -> bool:
    """A board names nobody but the players: the roster's names tell it is still true."""
    names = roster.names
    return (
        not row("cancel_reason")
        and row("admin") in names
        and all(action.user_id in names for action in last_actions)
    )


def _board_view(
    loaded: LoadedGame,
    roster: _Roster,
    visibility: Visibility,
    last_actions: Sequence[GameAction | ActionRow],
) -> dict[str, Any]:
    """A game view with the viewer's own fields None (`game_view` fills them in)."""
    game = loaded.game
    # The row's values by field name (what `game.<field>` reads; a foreign key: the id):
    # peewee's field descriptors cost ~0.2 us a read, and a view reads some twenty.
    row = game.__data__.get
    state = loaded.state
    status = row("status")
    turn = state.turn if state is not None and status == "started" else None
    return {
        "id": row("id"),
        "status": status,
        "revision": row("revision"),
        "size": row("size"),
        "players": row("players"),
        "masked": row("masked"),
        "invisible": row("invisible"),
        "private": row("private"),
        "imported": roster.record is not None,
        "admin": _admin_name(row("admin"), roster),
        "invitation_code": None,
        "seats": _seats_view(loaded, visibility, roster),
        "waiting_players": loaded.usernames if status == "waiting" else [],
        "bots": _bots(roster.users),
        "guests": _guests(roster.users),
        "turn": turn.value if turn is not None else None,
        "turn_username": roster.at(turn),
        "winner": roster.at(state.winner) if state is not None else None,
        "pawns": _pawns_view(state),
        "walls": _walls_view(loaded, visibility),
        "last_wall": _last_wall(last_actions, visibility),
        "markers": None,
        "wall_cost": _wall_cost(row("size"), row("players")),
        "offers": None,
        "trade_balance": None,
        "last_actions": _history(last_actions, roster.names, visibility, roster.record),
        "scores": roster.scores,
        "online": None,
        "cancel_reason": _cancel_reason(row("cancel_reason"), roster),
        "created_at": iso(row("created_at")),
        "started_at": iso(row("started_at")),
        "finished_at": iso(row("finished_at")),
        "cancelled_at": iso(row("cancelled_at")),
    }


def summary_view(loaded: LoadedGame) -> dict[str, Any]:
    """A row of the game list (needs no engine state: `loaded.state` may be None)."""
    game = loaded.game
    names = {player.user_id: player.user.username for player in loaded.players}
    turn_name = names.get(game.turn_user_id) if game.status == "started" else None
    winner = names.get(game.winner_id) if game.winner_id else None
    usernames = loaded.usernames
    record = record_names(game.imported)
    if record is not None:  # its players are its record's names (record_players)
        usernames = names_in_seat_order(record)
        winner = record.get(stored_winner(game.state) or "")
    return {
        "id": game.id,
        "status": game.status,
        "players": game.players,
        "size": game.size,
        "private": game.private,
        "masked": game.masked,
        "invisible": game.invisible,
        "imported": record is not None,
        "winner": winner,
        "usernames": usernames,
        "bots": bots_of(loaded),
        "guests": guests_of(loaded),
        "turn_username": turn_name,
        "revision": game.revision,
    }
