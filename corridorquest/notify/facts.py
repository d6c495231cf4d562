"""What the notifications of one event need to know of its game, read once per batch.

`GameFacts` is a game with its players and their CURRENT user rows (usernames, e-mail,
notification choices), and the one way notifications ask what a receiver may see: a
`Visibility` (services/visibility.py) for a player, or for a spectator (`None`), which is
what every ntfy topic gets except the DM topic: anyone may subscribe to a topic.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from corridorquest.engine import Seat
from corridorquest.services.errors import NotFound
from corridorquest.services.game_access import load_game
from corridorquest.services.visibility import Visibility
from corridorquest.store.models import Game, GamePlayer, User


@dataclass
class GameFacts:
    game: Game
    players: list[GamePlayer]
    users: dict[int, User]

    @property
    def id(self) -> int:
        return int(self.game.id)

    @property
    def public(self) -> bool:
        return not self.game.private

    @property
    def topic(self) -> str:
        """`game_<id>` for a public game, `game_<invitation code>` for a private one."""
        if self.game.private and self.game.invitation_code:
            return f"game_{self.game.invitation_code}"
        return f"game_{self.game.id}"

    def name(self, user_id: int | None) -> str:
        user = self.users.get(user_id) if user_id is not None else None
        return user.username if user is not None else "a former player"

    def player_ids(self) -> list[int]:
        return [int(player.user_id) for player in self.players]

    def seat_of(self, user_id: int | None) -> Seat | None:
        for player in self.players:
            if player.user_id == user_id and player.seat:
                return Seat(player.seat)
        return None

    def visibility(self, viewer_id: int | None) -> Visibility:
        """What `viewer_id` (None: anyone subscribed to a topic) may see of an action of
        this game: as during play, even when the game has finished since (the worker may
        work the action out later): a notification reveals nothing the action hid."""
        game = self.game
        return Visibility(bool(game.masked), bool(game.invisible), False, self.seat_of(viewer_id))

    def variant(self) -> str:
        game = self.game
        text = f"{game.players} players, {game.size}x{game.size}"
        modes = [mode for mode in ("masked", "invisible", "private") if getattr(game, mode)]
        return text + (", " + ", ".join(modes) if modes else "")


@dataclass
class FactsCache:
    """Games and users read for one batch of events (inside its transaction)."""

    games: dict[int, GameFacts | None] = field(default_factory=dict)
    users: dict[int, User] = field(default_factory=dict)

    def user(self, user_id: int) -> User | None:
        if user_id not in self.users:
            self.load_users([user_id])
        return self.users.get(user_id)

    def load_users(self, ids: Iterable[int]) -> None:
        missing = [user_id for user_id in set(ids) if user_id not in self.users]
        if missing:
            for user in User.select().where(User.id.in_(missing)):
                self.users[user.id] = user

    def game(self, game_id: int) -> GameFacts | None:
        """The game (None: it is gone, purged)."""
        if game_id not in self.games:
            try:
                loaded = load_game(game_id)
            except NotFound:
                self.games[game_id] = None
                return None
            ids = [int(player.user_id) for player in loaded.players]
            self.load_users(ids)
            users = {i: self.users[i] for i in ids if i in self.users}
            self.games[game_id] = GameFacts(loaded.game, list(loaded.players), users)
        return self.games[game_id]
