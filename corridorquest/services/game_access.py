"""Loading a game with its players inside a transaction, and who may see or touch it.

Everything here runs inside `store.transaction(...)` (synchronous peewee).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from corridorquest.engine import GameState, Seat
from corridorquest.services import last_commit
from corridorquest.services.auth import CurrentUser
from corridorquest.services.errors import Conflict, Forbidden, NotFound
from corridorquest.store import fast
from corridorquest.store.models import Game, GameAction, GamePlayer, User

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
            self.game.state = last_commit.encode(self.state)

    def save_game(self, *fields: str) -> None:
        """Write the named fields of the game row (all of them when none is named)."""
        if fields:
            fast.update(self.game, *fields)
        else:
            fast.save(self.game)

    @staticmethod
    def save_player(player: GamePlayer, *fields: str) -> None:
        """Write the named fields of one of the game's player rows."""
        fast.update(player, *fields)

    def add_action(self, **values: object) -> None:
        """Store one action of the game (`GameAction` fields by name, without `game`)."""
        fast.insert(GameAction, game=self.game.id, **values)


def not_found(game_id: int) -> NotFound:
    return NotFound(
        "game_not_found",
        f"no game {game_id} (or it is private: give its invitation code)",
    )


def load_game(game_id: int, *, lock: bool = False) -> LoadedGame:
    """The game with its players; 404 game_not_found. `lock`: row lock for a write."""
    found = last_commit.load(game_id, lock=lock)
    if found is None:
        raise not_found(game_id)
    loaded = LoadedGame(*found)
    last_commit.keep_in_transaction(game_id, loaded)
    return loaded


def read_game(game_id: int) -> LoadedGame:
    """As `load_game`, for a reader that changes nothing of what it is given: a live
    stream's look, once per change of every watched game. Its game, players and position
    may be the ones this process remembers (`last_commit.read`: no copies), shared with
    every other such reader; 404 game_not_found."""
    found = last_commit.read(game_id)
    if found is None:
        raise not_found(game_id)
    return LoadedGame(*found)


def loaded_in_transaction(game_id: int, revision: int) -> LoadedGame | None:
    """The game this transaction loaded last, if it is still at `revision` in memory.

    For a later step of the same write (its system messages) that would otherwise read
    the game again: a write changes the loaded game and saves it, so the loaded game at
    the revision the write reached is the row as written. Otherwise None: read it.
    """
    loaded = last_commit.in_transaction(game_id, revision)
    return loaded if isinstance(loaded, LoadedGame) else None


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
