"""Loading a game with its players inside a transaction, and who may see or touch it.

Everything here runs inside `store.transaction(...)` (synchronous peewee).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from corridorquest.engine import GameState, Seat
from corridorquest.services import game_cache, state_cache
from corridorquest.services.auth import CurrentUser
from corridorquest.services.errors import Conflict, Forbidden, NotFound
from corridorquest.store import transaction_memo
from corridorquest.store.game_rows import game_with_players
from corridorquest.store.models import Game, GamePlayer, User

STATUSES = ("waiting", "started", "finished", "cancelled")


@dataclass
class LoadedGame:
    """A game row, its player rows (join order, users loaded) and its engine state."""

    game: Game
    players: list[GamePlayer]
    state: GameState | None

    def player_of(self, user_id: int) -> GamePlayer | None:
        for player in self.players:
            if player.user_id == user_id:
                return player
        return None

    def is_player(self, user_id: int) -> bool:
        return self.player_of(user_id) is not None

    def seat_of(self, user_id: int) -> Seat | None:
        player = self.player_of(user_id)
        return Seat(player.seat) if player is not None and player.seat else None

    def user_at(self, seat: Seat) -> User | None:
        for player in self.players:
            if player.seat == seat.value:
                user: User = player.user
                return user
        return None

    @property
    def usernames(self) -> list[str]:
        return [player.user.username for player in self.players]

    def save_state(self) -> None:
        if self.state is not None:
            self.game.state = state_cache.encode(self.state)


def not_found(game_id: int) -> NotFound:
    return NotFound(
        "game_not_found",
        f"no game {game_id} (or it is private: give its invitation code)",
    )


def load_game(game_id: int, *, lock: bool = False) -> LoadedGame:
    """The game with its players; 404 game_not_found. `lock`: row lock for a write."""
    found = game_cache.load(game_id) or game_with_players(game_id, lock=lock)
    if found is None:
        raise not_found(game_id)
    game, players = found
    state = state_cache.parse(game.state) if game.state else None
    loaded = LoadedGame(game=game, players=players, state=state)
    transaction_memo()[("game", game_id)] = loaded
    return loaded


def read_game(game_id: int) -> LoadedGame:
    """As `load_game`, for a reader that changes nothing of what it is given: a live
    stream's look, once per change of every watched game. Its game, players and position
    may be the ones this process remembers (game_cache.read, state_cache.parse without a
    copy), shared with every other such reader; 404 game_not_found."""
    found = game_cache.read(game_id) or game_with_players(game_id)
    if found is None:
        raise not_found(game_id)
    game, players = found
    state = state_cache.parse(game.state, copy=False) if game.state else None
    return LoadedGame(game=game, players=players, state=state)


def loaded_in_transaction(game_id: int, revision: int) -> LoadedGame | None:
    """The game this transaction loaded last, if it is still at `revision` in memory.

    For a later step of the same write (its system messages) that would otherwise read
    the game again: a write changes the loaded game and saves it, so the loaded game at
    the revision the write reached is the row as written. Otherwise None: read it.
    """
    loaded = transaction_memo().get(("game", game_id))
    if isinstance(loaded, LoadedGame) and loaded.game.revision == revision:
        return loaded
    return None


def can_see(loaded: LoadedGame, user: CurrentUser, invitation_code: str | None = None) -> bool:
    """Public games: every user. Private: its players, system admins, or the right code."""
    game = loaded.game
    if not game.private or user.is_admin or loaded.is_player(user.id):
        return True
    return bool(invitation_code) and invitation_code == game.invitation_code


def load_visible(
    game_id: int, user: CurrentUser, invitation_code: str | None = None, *, lock: bool = False
) -> LoadedGame:
    loaded = load_game(game_id, lock=lock)
    if not can_see(loaded, user, invitation_code):
        raise not_found(game_id)
    return loaded


def require_player(loaded: LoadedGame, user: CurrentUser) -> GamePlayer:
    player = loaded.player_of(user.id)
    if player is None:
        raise Forbidden("not_a_player", f"you are not a player of game {loaded.game.id}")
    return player


def require_status(loaded: LoadedGame, *allowed: str) -> None:
    """409 with a reason naming why the game's status does not allow the request."""
    status = loaded.game.status
    if status in allowed:
        return
    game_id = loaded.game.id
    if status in ("finished", "cancelled"):
        raise Conflict(f"game_{status}", f"game {game_id} is {status}")
    if status == "waiting":
        raise Conflict("game_not_started", f"game {game_id} has not started yet")
    raise Conflict("game_not_waiting", f"game {game_id} has already started")


def check_revision(
    loaded: LoadedGame, base_revision: int | None, current_view: Callable[[], object]
) -> None:
    """409 stale_revision (with the current game) when the write was based on an old one."""
    if base_revision is not None and base_revision != loaded.game.revision:
        raise Conflict(
            "stale_revision",
            f"game {loaded.game.id} is at revision {loaded.game.revision}, "
            f"not {base_revision}: reload it and try again",
            revision=loaded.game.revision,
            game=current_view(),
        )
