"""A tiny in-process event bus: services publish after commit, subscribers react.

Events are frozen dataclasses that carry ids, never usernames (they change). They are
internal and complete (an `ActionPlayed` names the wall even in a masked game): a
subscriber that tells users anything (notifications, live updates) must show each user
only what that user may see (`services.game_views` decides that). Subscribers are plain
or async callables; `publish` never raises into the publisher: a failing subscriber is
logged. Async subscribers run as tasks (the caller does not wait for them).

    bus.subscribe(GameStarted, on_started)
    bus.publish(GameStarted(game_id=4, revision=3))

A subscriber that must not miss an event across a crash (notifications) also asks for it
to be kept: `bus.keep(GameStarted)`. The writes then store such events in the same
transaction as the change (`kept(events)` says which; `to_record` / `from_record` turn
one into JSON-able fields and back), and a worker reads them from the database.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import threading
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple, TypeVar

log = logging.getLogger("corridorquest.events")


@dataclass(frozen=True)
class Event:
    """Base class: something happened (after the transaction committed)."""


@dataclass(frozen=True)
class GameEvent(Event):
    game_id: int
    revision: int


@dataclass(frozen=True)
class GameCreated(GameEvent):
    admin_id: int


@dataclass(frozen=True)
class PlayersInvited(GameEvent):
    """Invitees of a game should get its invitation code (by e-mail)."""

    inviter_id: int
    invitee_ids: tuple[int, ...]
    invitation_code: str


@dataclass(frozen=True)
class PlayerJoined(GameEvent):
    user_id: int


@dataclass(frozen=True)
class PlayerLeft(GameEvent):
    user_id: int


@dataclass(frozen=True)
class GameChanged(GameEvent):
    """The game admin changed a waiting game's settings."""

    changed: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameStarted(GameEvent):
    first_user_id: int


@dataclass(frozen=True)
class ActionPlayed(GameEvent):
    n: int
    user_id: int
    seat: str
    type: str  # move | jump | wall
    notation: str
    passed_user_ids: tuple[int, ...] = ()  # players who had to pass after it
    next_user_id: int | None = None  # whose turn it is now (None: finished)


@dataclass(frozen=True)
class GameFinished(GameEvent):
    winner_id: int
    scores: dict[int, int] = field(default_factory=dict)  # user id -> score


@dataclass(frozen=True)
class GameCancelled(GameEvent):
    by_user_id: int | None
    reason: str


@dataclass(frozen=True)
class TournamentPaired(GameEvent):
    """The server started this game for round `round` of a tournament (SPEC §15): its
    players are told whom they play (instead of the game's start)."""

    tournament_id: int
    round: int


@dataclass(frozen=True)
class MarkersChanged(GameEvent):
    """A player placed or removed one of its markers (the game's revision stays)."""

    user_id: int


# Game messages, wall trading and stalling players (game events too).


@dataclass(frozen=True)
class MessagePosted(GameEvent):
    """A player wrote a message (recipient_id: a DM). For notifications."""

    message_id: int  # the row's id: internal, never shown (readers have their own numbers)
    sender_id: int
    recipient_id: int | None


@dataclass(frozen=True)
class OfferMade(GameEvent):
    offer_id: int
    user_id: int
    mode: str
    partner_id: int | None


@dataclass(frozen=True)
class OfferWithdrawn(GameEvent):
    offer_id: int
    user_id: int
    partner_id: int | None


@dataclass(frozen=True)
class WallTraded(GameEvent):
    offer_id: int
    seller_id: int
    buyer_id: int
    cost: int
    private: bool


@dataclass(frozen=True)
class StallReminder(GameEvent):
    """`user_id`'s turn in the game has lasted since `turn_since` (a reminder is due);
    `removal_at`: when the player will be removed if it still has not moved."""

    user_id: int
    turn_since: str  # ISO 8601, UTC
    removal_at: str


# Accounts and sessions.


@dataclass(frozen=True)
class UsernameChanged(Event):
    """A user renamed itself (ntfy subscribers of the old topic get a notice)."""

    user_id: int
    old_username: str
    new_username: str


@dataclass(frozen=True)
class SessionsEnded(Event):
    """These sessions of the user ended, named by `session_key` (an id may be given again
    to a later session; a key is never); none named: some did, the database tells which."""

    user_id: int
    keys: tuple[str, ...] = ()


@dataclass(frozen=True)
class AccountChanged(Event):
    """What a session says of its user changed otherwise: a new e-mail address, a guest
    made a full account (services/known_sessions.py reads its sessions again)."""

    user_id: int


@dataclass(frozen=True)
class AdminRightsChanged(Event):
    """The user was promoted (`is_admin`) or demoted: its streams see what it may now."""

    user_id: int
    is_admin: bool


# Administration.


@dataclass(frozen=True)
class AdminBroadcast(Event):
    """An administrator's system message went to these games."""

    game_ids: tuple[int, ...]
    text: str


# The durable outbox (services/outbound.py).


@dataclass(frozen=True)
class OutboxChanged(Event):
    """Rows were queued in the durable outbox (wakes the notify worker)."""


E = TypeVar("E", bound=Event)
Handler = Callable[[Any], None] | Callable[[Any], Awaitable[None]]
# Whether a write keeps an event (EventBus.keep): (event, the loaded game's players or None)
KeepRule = Callable[[Any, Sequence[Any] | None], bool]


def _event_types(root: type[Event] = Event) -> dict[str, type[Event]]:
    found: dict[str, type[Event]] = {}
    for sub in root.__subclasses__():
        found[sub.__name__] = sub
        found.update(_event_types(sub))
    return found


_known_types: dict[str, type[Event]] = {}


def to_record(event: Event) -> tuple[str, dict[str, Any]]:
    """`(type name, fields)` of an event, as JSON can hold them."""
    values: dict[str, Any] = {}
    for item in fields(event):
        value = getattr(event, item.name)
        if isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, dict):
            value = [[k, v] for k, v in value.items()]  # keys stay ints
        values[item.name] = value
    return type(event).__name__, values


def from_record(type_name: str, values: dict[str, Any]) -> Event | None:
    """The event `to_record` made (None: no such event type is loaded any more)."""
    event_type = _known_types.get(type_name)
    if event_type is None:  # a type defined since the last look (or none at all)
        _known_types.update(_event_types())
        event_type = _known_types.get(type_name)
    if event_type is None:
        return None
    known = {item.name: item for item in fields(event_type)}
    converted: dict[str, Any] = {}
    for name, value in values.items():
        if name not in known:
            continue
        if isinstance(value, list):
            default = known[name].default_factory  # type: ignore[misc]
            if default is dict:
                value = {k: v for k, v in value}
            else:
                value = tuple(value)
        converted[name] = value
    return event_type(**converted)


class _Route(NamedTuple):
    """What the bus does with an event of one class (`EventBus._route`)."""

    handlers: tuple[Handler, ...]
    kept: bool  # stored with its change ...
    when: KeepRule | None  # ... if this says so (None: always)


class EventBus:
    def __init__(self) -> None:
        self._handlers: dict[type[Event], list[Handler]] = defaultdict(list)
        self._tasks: set[asyncio.Task[None]] = set()
        self._kept: dict[type[Event], KeepRule | None] = {}
        # Worked out from the two above for each event class the first time one is
        # published or asked about (`_route`), and dropped whenever they change: a write
        # publishes every event it makes, so the class hierarchy is walked once, not
        # once an event. (`kept` is asked in the database's threads on PostgreSQL: the
        # lock keeps a route worked out from a bus that changed meanwhile.)
        self._routes: dict[type[Event], _Route] = {}
        self._lock = threading.Lock()

    def keep(self, event_type: type[Event], when: KeepRule | None = None) -> None:
        """Writes store events of `event_type` (and subclasses) durably with their change;
        with `when`, only those for which `when(event, players)` is true, asked inside the
        write's transaction (`players`: the players of the game the write loaded, with
        their users; None when it loaded none)."""
        with self._lock:
            self._kept[event_type] = when
            self._routes.clear()

    def kept(self, events: list[Event], players: Sequence[Any] | None = None) -> list[Event]:
        """Which of `events` are to be stored with the change that made them."""
        chosen = []
        for event in events:
            route = self._route(type(event))
            if route.kept and (route.when is None or route.when(event, players)):
                chosen.append(event)
        return chosen

    def subscribe(self, event_type: type[E], handler: Callable[[E], Any]) -> None:
        """Call `handler(event)` for every published event of `event_type` (or a subclass)."""
        with self._lock:
            self._handlers[event_type].append(handler)
            self._routes.clear()

    def unsubscribe(self, event_type: type[E], handler: Callable[[E], Any]) -> None:
        with self._lock:
            if handler in self._handlers.get(event_type, []):
                self._handlers[event_type].remove(handler)
                self._routes.clear()

    def publish(self, event: Event) -> None:
        for handler in self._route(type(event)).handlers:
            self._call(handler, event)

    def _route(self, event_type: type[Event]) -> _Route:
        """The handlers of `event_type` (its own, then its base classes', in the order
        they subscribed) and its keep rule (the nearest class's that has one)."""
        route = self._routes.get(event_type)
        if route is None:
            with self._lock:
                handlers: list[Handler] = []
                kept, when = False, None
                for base in event_type.__mro__:
                    handlers.extend(self._handlers.get(base, ()))
                    if not kept and base in self._kept:
                        kept, when = True, self._kept[base]
                route = self._routes[event_type] = _Route(tuple(handlers), kept, when)
        return route

    def _call(self, handler: Handler, event: Event) -> None:
        try:
            result = handler(event)
        except Exception:
            log.exception("event subscriber %r failed on %r", handler, event)
            return
        if result is not None and inspect.isawaitable(result):
            task = asyncio.ensure_future(self._guard(result, handler, event))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _guard(awaitable: Awaitable[Any], handler: Handler, event: Event) -> None:
        try:
            await awaitable
        except Exception:
            log.exception("event subscriber %r failed on %r", handler, event)

    async def drain(self) -> None:
        """Wait for the async subscribers started so far (shutdown, tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
