"""The unit of work: one write from the request to the spectators, owned in one place.

A use case states a rule; this module does everything around it, in this order:

1. the idempotency key (`idempotency.once`, under a scope that names the use case and
   its game, e.g. "play game 12": never an HTTP route),
2. ONE transaction (`ctx.store.transaction`), in which
3. the game is loaded (`game_access`, through `last_commit`: cheaply when this process
   wrote it last) and locked, and handed to the use case as a `GameWrite`;
4. the use case checks its rule, changes the game, and returns its answer; its events
   go to `GameWrite.emit`;
5. the system messages of the events are written (`system_messages.record_events`) and
   the events are kept in the outbox (`outbound.keep_events`), in the same transaction;
6. commit; then the events are published on `ctx.bus` (live streams, notifications);
7. what was committed is remembered (`last_commit.remember`): the game as the write
   left it, and the view its answer showed, for the next write and the live looks.

Entry points: `write_game` (a user's write of one game, answers a `WriteResult`),
`system_write_game` (the server's or an administrator's write of one game, no key),
`run_write` / `run_system_write` (writes that do not start from one existing game:
creating a game, deleting a user). A use case names no cache, no outbox, no route.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from corridorquest.events import Event
from corridorquest.services import idempotency, last_commit, system_messages
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import NotFound
from corridorquest.services.game_access import LoadedGame, load_game, load_visible
from corridorquest.services.game_views import LAST_ACTIONS, Board, game_view
from corridorquest.services.offer_views import open_offer_rows
from corridorquest.services.outbound import keep_events, wake
from corridorquest.store import IntegrityError
from corridorquest.store.game_rows import ActionRow, recent_actions
from corridorquest.store.models import Game, GamePlayer

T = TypeVar("T")
Answer = tuple[int, Any]  # (HTTP status, JSON body)


@dataclass
class WriteResult:
    status: int
    body: dict[str, Any]
    events: list[Event] = field(default_factory=list)


class GameWrite:
    """What a use case receives: the game as loaded (locked, its own copy to change),
    where its events go, and the game view of its answer."""

    def __init__(self, loaded: LoadedGame, events: list[Event], since: int) -> None:
        self.loaded = loaded
        self.events = events
        self.loaded_revision: int = loaded.game.revision
        self._since = since
        self._before = last_commit.extras(loaded.game)  # what the game showed as loaded
        self._users_seen = last_commit.users_seen(loaded.game.id)
        self._shown: last_commit.Shown | None = None

    @property
    def game(self) -> Game:
        return self.loaded.game

    @property
    def players(self) -> list[GamePlayer]:
        return self.loaded.players

    def emit(self, event: Event) -> None:
        """An event of this write: system messages, outbox, published after the commit."""
        self.events.append(event)

    def view_after_action(self, viewer_id: int, action: ActionRow) -> dict[str, Any]:
        """The game view of the answer to a write that added `action` (a move), as
        `viewer_id` sees it: its last actions are the game's before the write and this
        one (read only when this process does not know them), and no offer changed."""
        game = self.loaded.game
        before = self._before
        if before is not None:
            actions: list[ActionRow] = [*before.actions[1 - LAST_ACTIONS :], action]
            offers: Any = before.offers
        else:
            actions = recent_actions(game.id, LAST_ACTIONS)
            offers = open_offer_rows(game.id)
        boards: list[Board] = []
        answer = game_view(self.loaded, viewer_id, actions, offers, keep=boards)
        self._shown = last_commit.Shown(
            actions, offers, made=game.revision, board=boards[0] if boards else None
        )
        return answer

    def change_unseen(self) -> None:
        """This write changed what the other players must not learn of (a private offer):
        the revision stays as it was, so what is remembered of the game goes."""
        last_commit.forget(self.loaded.game.id)

    def committed(self) -> last_commit.Committed | None:
        """What to remember once the write has committed (None: the revision did not
        move, so the write changed nothing of the game that is remembered)."""
        loaded = self.loaded
        if loaded.game.revision == self.loaded_revision:
            return None
        return last_commit.Committed(
            loaded.game, loaded.players, self.loaded_revision, self._since, self._shown,
            self._users_seen,
        )


def scope(use_case: str, game_id: int | None = None) -> str:
    """The idempotency scope of a use case: its name, and its game's id."""
    return use_case if game_id is None else f"{use_case} game {game_id}"


class _Events(list[Event]):
    """The events of a write, and whether the outbox kept any of them."""

    kept = False


def _finish(ctx: ServiceContext, events: _Events, work: GameWrite | None) -> None:
    """Inside the transaction, after the use case: system messages and the outbox."""
    system_messages.record_events(events, work.loaded if work is not None else None)
    events.kept = keep_events(ctx, events, work.players if work is not None else None)


def _after_commit(ctx: ServiceContext, events: _Events, work: GameWrite | None) -> None:
    for event in events:
        ctx.bus.publish(event)
    if events.kept:
        wake(ctx)  # the notify worker: rows to work out
    committed = work.committed() if work is not None else None
    if committed is not None:
        last_commit.remember(committed)


async def write_game(
    ctx: ServiceContext,
    user: CurrentUser,
    key: str | None,
    use_case: str,
    game_id: int,
    rule: Callable[[GameWrite], Answer],
    *,
    invitation_code: str | None = None,
) -> WriteResult:
    """`user`'s write of game `game_id` (visible to `user`, else 404) behind the key."""
    key = idempotency.check_key(key)
    events = _Events()
    works: list[GameWrite] = []

    def attempt() -> Answer:
        since = last_commit.token(game_id)
        loaded = load_visible(game_id, user, invitation_code, lock=True)
        work = GameWrite(loaded, events, since)
        works.append(work)
        return rule(work)

    def transaction() -> Answer:
        events.clear()
        works.clear()
        answer = idempotency.once(user.id, key, scope(use_case, game_id), attempt)
        _finish(ctx, events, works[-1] if works else None)
        return answer

    try:
        status, body = await ctx.store.transaction(transaction)
    except IntegrityError:
        if key is None:
            raise
        # A concurrent request with the same key committed first (PostgreSQL): the
        # retry finds its stored answer.
        status, body = await ctx.store.transaction(transaction)
    _after_commit(ctx, events, works[-1] if works else None)
    return WriteResult(status, body, list(events))


_RAISE: Any = object()


async def system_write_game(
    ctx: ServiceContext,
    game_id: int,
    rule: Callable[[GameWrite], T],
    *,
    if_missing: T = _RAISE,
) -> T:
    """A write of game `game_id` the server (a sweep) or an administrator makes: as
    `write_game`, without a key or a visibility check. `if_missing`: the answer when
    there is no such game (default: 404 game_not_found)."""
    events = _Events()
    works: list[GameWrite] = []

    def transaction() -> T:
        events.clear()
        works.clear()
        since = last_commit.token(game_id)
        try:
            loaded = load_game(game_id, lock=True)
        except NotFound:
            if if_missing is _RAISE:
                raise
            return if_missing
        work = GameWrite(loaded, events, since)
        works.append(work)
        answer = rule(work)
        _finish(ctx, events, work)
        return answer

    answer = await ctx.store.transaction(transaction)
    _after_commit(ctx, events, works[-1] if works else None)
    return answer


async def run_write(
    ctx: ServiceContext,
    user: CurrentUser,
    key: str | None,
    use_case: str,
    write: Callable[[list[Event]], Answer],
) -> WriteResult:
    """A user's write that does not start from one existing game (creating a game): one
    transaction behind the key (scope: `use_case`), its events published after."""
    key = idempotency.check_key(key)
    events = _Events()

    def transaction() -> Answer:
        events.clear()
        answer = idempotency.once(user.id, key, scope(use_case), lambda: write(events))
        _finish(ctx, events, None)
        return answer

    try:
        status, body = await ctx.store.transaction(transaction)
    except IntegrityError:
        if key is None:
            raise
        status, body = await ctx.store.transaction(transaction)
    _after_commit(ctx, events, None)
    return WriteResult(status, body, list(events))


async def run_system_write(
    ctx: ServiceContext, write: Callable[[list[Event]], T]
) -> T:
    """A write without an idempotency key that does not start from one game (an account
    deleted or renamed, reminders, a broadcast): one transaction with the system
    messages of its events and the outbox, the events published after the commit."""
    events = _Events()

    def transaction() -> T:
        events.clear()
        answer = write(events)
        _finish(ctx, events, None)
        return answer

    answer = await ctx.store.transaction(transaction)
    _after_commit(ctx, events, None)
    return answer
