"""System messages (SPEC §8): one for every state change and action of a game.

They are written inside the transaction of the change they describe, so nothing that
was acknowledged is ever missing from a game's messages. `record_events` is the one hook
for the lifecycle and play (the unit of work calls it with the events of every write);
trading writes its own through `add_system`. A move's own message ("alice (North) moved
to e5", `action_line`) is the exception: its action's row holds all it says, and
`move_messages` makes it from that row when messages are read (one row less per move).

What a message may say follows SPEC §4: no message for a wall placement in a masked
game; in an invisible game the placing player reads "alice placed wall c3h" (`detail`),
everybody else "alice placed a wall" (`text`) until the game is finished. Messages never
state how many walls someone has left.

Users are named by id (`user_refs.ref`: `{user:12}`), never by username: a reader sees the
names as they are when it reads (SPEC §7, a username change keeps every reference), so
a renamed player is renamed in every message and whoever takes its old name appears in
none. `messages` renders them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from corridorquest.engine import CLOCKWISE, Seat
from corridorquest.events import (
    ActionPlayed,
    Event,
    GameCancelled,
    GameChanged,
    GameCreated,
    GameEvent,
    GameFinished,
    GameStarted,
    PlayerJoined,
    PlayerLeft,
    PlayersInvited,
)
from corridorquest.services.game_access import load_game, loaded_in_transaction
from corridorquest.services.user_refs import ref
from corridorquest.store import fast
from corridorquest.store.models import Game, GameMessage, utcnow

SYSTEM = "system"
PLAYER = "player"

# (text everybody reads, the user it is about, the detail only that user reads)
Line = tuple[str, int | None, str | None]


def add_system(
    game_id: int,
    revision: int,
    text: str,
    *,
    about: int | None = None,
    to: int | None = None,
    detail: str | None = None,
) -> None:
    """Write a system message (inside the caller's transaction).

    `revision`: the game's revision as the caller's write leaves it (the message comes
    after the moves up to it: `move_messages`). `text` and `detail` are stored texts
    (`user_refs`): users named with `ref(user_id)`, any other text (an administrator's
    words) through `literal`. `to`: only `about` and `to` read it (a private offer or
    trade). `detail`: what `about` (and everybody once the game is finished) reads
    instead of `text`.
    """
    fast.insert(
        GameMessage,
        game=game_id,
        kind=SYSTEM,
        sender=about,
        recipient=to,
        text=text,
        detail=detail,
        at=utcnow(),
        revision=revision,
    )


def name(user_id: int | None) -> str:
    """A user in a message: a reference, rendered with the current username when read."""
    return "someone" if user_id is None else ref(user_id)


def _on_off(value: bool) -> str:
    return "on" if value else "off"


def _variant(game: Game) -> str:
    modes = [
        name
        for name, on in (
            ("masked walls", game.masked),
            ("invisible walls", game.invisible),
            ("private", game.private),
        )
        if on
    ]
    extra = f", {', '.join(modes)}" if modes else ""
    return f"{game.size}x{game.size}, {game.players} players{extra}"


def _changed(game: Game, fields: Iterable[str]) -> str:
    parts = []
    for field in fields:
        if field == "players":
            parts.append(f"{game.players} players")
        elif field == "size":
            parts.append(f"board size {game.size}x{game.size}")
        elif field in ("masked", "invisible"):
            parts.append(f"{field} walls {_on_off(getattr(game, field))}")
        elif field == "private":
            parts.append(f"private {_on_off(game.private)}")
        elif field == "invitation_code":
            parts.append("an invitation code")
    return ", ".join(parts) or "nothing"


def _started(game: Game, event: GameStarted) -> str:
    loaded = load_game(game.id)
    seats = []
    for seat in CLOCKWISE:
        user = loaded.user_at(seat)
        if user is not None:
            seats.append(f"{name(user.id)} plays {seat.title}")
    return f"The game started: {', '.join(seats)}. {name(event.first_user_id)} moves first."


def action_line(game: Game, user_id: int, seat: str, kind: str, notation: str) -> Line | None:
    """The message of an action (`kind`: move, jump or wall), None for none. It is not
    stored: `move_messages` makes it from the action's row when messages are read."""
    who = f"{name(user_id)} ({Seat(seat).title})"
    if kind != "wall":
        verb = "jumped" if kind == "jump" else "moved"
        return (f"{who} {verb} to {notation}", None, None)
    if game.masked:
        return None  # SPEC §4: a masked game has no message for a wall placement
    if game.invisible:
        return (f"{who} placed a wall", user_id, f"{who} placed wall {notation}")
    return (f"{who} placed wall {notation}", None, None)


def _passes(event: ActionPlayed) -> list[Line]:
    """Who passes after the action (its own message, `action_line`, is made when read)."""
    return [
        (f"{name(passed)} has no legal action and passes", None, None)
        for passed in event.passed_user_ids
    ]


def describe(event: GameEvent, game: Game) -> list[Line]:
    """The system messages of one event (none for events that are not game changes, and
    none here for an action: `record_events` writes its passes, `move_messages` makes
    its own message when read)."""
    if isinstance(event, GameCreated):
        return [(f"{name(event.admin_id)} created the game ({_variant(game)})", None, None)]
    if isinstance(event, PlayersInvited):
        count = len(event.invitee_ids)
        users = "user" if count == 1 else "users"
        return [(f"{name(event.inviter_id)} invited {count} {users} by e-mail", None, None)]
    if isinstance(event, PlayerJoined):
        return [(f"{name(event.user_id)} joined the game", None, None)]
    if isinstance(event, PlayerLeft):
        return [(f"{name(event.user_id)} left the game", None, None)]
    if isinstance(event, GameChanged):
        return [(f"The game admin changed the game: {_changed(game, event.changed)}", None, None)]
    if isinstance(event, GameStarted):
        return [(_started(game, event), None, None)]
    if isinstance(event, GameFinished):
        ranking = sorted(event.scores.items(), key=lambda item: -item[1])
        scores = ", ".join(f"{name(user_id)} {score}" for user_id, score in ranking)
        return [(f"{name(event.winner_id)} won the game. Scores: {scores}", None, None)]
    if isinstance(event, GameCancelled):  # the reason is a stored text (`user_refs`) already
        return [(f"The game was cancelled: {event.reason}", None, None)]
    return []


# The events `describe` writes messages for (others: trading and messages write their own).
_DESCRIBED = (
    GameCreated,
    PlayersInvited,
    PlayerJoined,
    PlayerLeft,
    GameChanged,
    GameStarted,
    GameFinished,
    GameCancelled,
)


def record_events(events: Sequence[Event], loaded: Any = None) -> None:
    """Write the system messages of a write's events (inside its transaction); `loaded`:
    the game the write loaded and changed (a `LoadedGame`), if it did."""
    games: dict[int, Game] = {}
    for event in events:
        if isinstance(event, ActionPlayed):  # by far the most frequent: first
            for text, _, _ in _passes(event):  # the action's own message is made when read
                add_system(event.game_id, event.revision, text)
            continue
        if not isinstance(event, _DESCRIBED):
            continue  # `describe` has no message for it: no need to find its game
        game = games.get(event.game_id)
        if game is None and loaded is not None:
            written = loaded.game
            if written.id == event.game_id and written.revision == event.revision:
                game = games[event.game_id] = written  # the row as the write saved it
        if game is None and isinstance(event, GameFinished):
            # A started game's modes never change: the game as this write loaded it will do.
            loaded = loaded_in_transaction(event.game_id, event.revision)
            if loaded is not None:
                game = games[event.game_id] = loaded.game
        if game is None:
            found = fast.select(Game, 't."id" = ?', (event.game_id,))
            if not found:
                continue
            game = games[event.game_id] = found[0]
        for text, about, detail in describe(event, game):
            add_system(event.game_id, event.revision, text, about=about, detail=detail)
