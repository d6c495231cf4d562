"""The live hub: this process's open streams, their bounds and their sessions.

What each stream is sent after a change is worked out by the looks (live/looks.py,
`StreamLooks`, a base of `LiveHub`); a stream itself is live/stream.py.

Each update goes to the stream's connection at once (`Stream.put`, written by
corridorquest/live/output.py, the one way a stream's bytes leave). What a process
holds unsent is bounded, per stream and for all (corridorquest/live/limits.py): a reader
that does not keep up is disconnected (its client resumes from its last event id). So is
the number of stream connections (`admit_connection`: 503 over the bound).

A stream lives no longer than the session it was opened with: a write that ends sessions
or takes an admin's rights away publishes `SessionsEnded` / `AdminRightsChanged`
(services/session_ends.py; other processes hear it through the relay), and the streams
opened with those sessions end at once; a demoted admin's streams go on as far as a
user who is not an admin may watch (a private game it does not play ends).
`close` ends every stream cleanly when the server stops.
"""


from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Callable, Iterable
from typing import Any

from corridorquest.events import (
    ActionPlayed,
    AdminBroadcast,
    AdminRightsChanged,
    Event,
    GameCancelled,
    GameEvent,
    GameFinished,
    GameStarted,
    MarkersChanged,
    MessagePosted,
    OfferMade,
    OfferWithdrawn,
    PlayersInvited,
    SessionsEnded,
)
from corridorquest.live import limits, sse
from corridorquest.live.looks import StreamLooks
from corridorquest.live.output import ConnectionOut, Out, Unsent
from corridorquest.live.stream import Stream
from corridorquest.services import live_views, presence
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import RateLimited, Unauthenticated, Unavailable
from corridorquest.services.game_access import load_visible
from corridorquest.services.live_views import CatchUp, Cursor
from corridorquest.services.session_ends import session_key_of, sessions_left

log = logging.getLogger("corridorquest.live")

USER_EVENTS = (ActionPlayed, GameStarted, GameFinished, GameCancelled, PlayersInvited)


def _session_key(user: CurrentUser) -> str | None:
    """Inside the first read of a stream: its session's key; 401 when the session is gone
    (it ended after the request's login was checked)."""
    if not user.session_id:
        return None
    key = session_key_of(user.session_id)
    if key is None:
        raise Unauthenticated("unauthenticated", "not logged in (unknown or ended session)")
    return key


class LiveHub(StreamLooks):
    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx
        self.settings = ctx.settings
        self._games: dict[int, set[Stream]] = {}
        self._users: dict[int, set[Stream]] = {}
        self._count: dict[Any, int] = {}  # user id (or watcher's address) -> open streams
        self._dirty: dict[int, tuple[set[int], bool]] = {}  # game -> (view for, presence)
        self._looker: asyncio.Task[None] | None = None  # looks at the marked games
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False
        self.on_presence: Callable[[], None] | None = None  # the relay re-sends the list
        self._by_user: dict[int, set[Stream]] = {}  # a logged-in user's streams, all kinds
        self.stream_limit = self.settings.stream_buffer * 1024
        self.connections = 0  # stream connections (responses) open
        open_files = limits.raise_open_file_limit()
        self.max_connections = limits.stream_bound(self.settings.streams_max, open_files)
        if self.settings.streams_max > self.max_connections:
            log.warning(
                "STREAMS_MAX=%d lowered to %d: the open-file limit is %d, and %d files "
                "are kept for the listening sockets, the database, the log and mail",
                self.settings.streams_max, self.max_connections, open_files, limits.RESERVE,
            )
        total = self.settings.stream_buffer_total * 1024 * 1024
        stall = float(self.settings.stream_stall_timeout)
        self.unsent = Unsent(total, stall)
        log.info(
            "live streams: at most %d connections at once (%s), %d KiB unsent each, "
            "%d MiB for all, dropped after %d s without taking anything",
            self.max_connections,
            "STREAMS_MAX" if self.settings.streams_max else "half the open-file limit",
            self.settings.stream_buffer,
            self.settings.stream_buffer_total,
            self.settings.stream_stall_timeout,
        )
        ctx.bus.subscribe(Event, self.on_event)

    # --- streams ----------------------------------------------------------------------

    def admit_connection(self) -> None:
        """One more stream connection, or 503 when the process holds its bound of them
        (`release_connection` when it ends)."""
        if self.connections >= self.max_connections:
            raise Unavailable(
                "too_many_streams_on_server",
                f"this server holds {self.max_connections} live streams, its most; "
                f"try again in {limits.RETRY_AFTER} s",
                retry_after=limits.RETRY_AFTER,
            )
        self.connections += 1

    def release_connection(self) -> None:
        self.connections -= 1

    def _admit(self, stream: Stream, address: str) -> None:
        """At most STREAMS_PER_USER streams per user, STREAMS_PER_ADDRESS per client
        address for watchers who are not logged in (user id 0)."""
        limit = self.settings.streams_per_user
        if not stream.user.id:
            stream.counted_as = ("address", address)
            limit = self.settings.streams_per_address
        if self._count.get(stream.counted_as, 0) >= limit:
            raise RateLimited(
                "too_many_streams",
                f"you have {limit} live streams open on this server; close one first",
                limit=limit,
            )

    async def open_game(
        self,
        user: CurrentUser,
        game_id: int,
        code: str | None,
        since: Cursor | None,
        address: str = "",
    ) -> tuple[Stream, bytes]:
        """A stream of `game_id` and its first chunk (404 as `GET` would answer)."""

        def first() -> tuple[CatchUp, bool, bool, str | None]:
            key = _session_key(user)
            loaded = load_visible(game_id, user, code)  # 404 as GET answers
            update = live_views.first_update(loaded, user.id, since)
            plain = live_views.plain_spectator(loaded, user)
            return update, plain, loaded.is_player(user.id), key

        stream = Stream(user, game_id, code, self.settings.stream_buffer * 1024)
        self._admit(stream, address)
        self._add(stream)
        try:
            update, plain, player, stream.key = await self.ctx.store.transaction(first)
        except BaseException:
            self._remove(stream)
            raise
        self._still_open(stream)
        stream.cursor = update.cursor
        stream.plain = plain
        stream.present = player
        if player and presence.opened(game_id, user.id):
            self._presence_changed(game_id)
        else:  # what committed since the first read (a look finds nothing if nothing did)
            self._mark(game_id, set())
        return stream, sse.events(update.items)

    async def open_user(self, user: CurrentUser) -> tuple[Stream, bytes]:
        """The caller's own stream and its first chunk (its active games)."""
        stream = Stream(user, None, None, self.settings.stream_buffer * 1024)
        self._admit(stream, "")
        self._add(stream)

        def first() -> tuple[dict[str, Any], str | None]:
            key = _session_key(user)
            return live_views.user_games(user), key

        try:
            games, stream.key = await self.ctx.store.transaction(first)
        except BaseException:
            self._remove(stream)
            raise
        self._still_open(stream)
        stream.present = True
        if presence.opened(None, user.id) and self.on_presence is not None:
            self.on_presence()
        return stream, sse.event("games", games)

    def _still_open(self, stream: Stream) -> None:
        """Its session ended while it opened: 401, as its next request would get."""
        early, stream.early = stream.early, None
        if stream.closed or (early is not None and stream.key in early):
            self._remove(stream)
            raise Unauthenticated("unauthenticated", "not logged in (unknown or ended session)")
        if early is not None and "" in early:  # (checked once its first chunk is out)
            self._spawn(self.check_sessions([stream]))
            if stream.game_id is not None:
                self._mark(stream.game_id, set())

    def connect(self, transport: Any, streams: list[Stream]) -> Out:
        """The streams' updates go to `transport` from now on (one response may carry
        several games' streams)."""

        def dropped(why: str) -> None:  # disconnect it (its client resumes)
            log.info("live stream of %s dropped: %s", streams[0].user.username, why)
            for stream in streams:
                stream.end()
            transport.abort()

        def gone() -> None:
            for stream in streams:
                stream.end()

        limit = self.stream_limit
        limits.bound_socket_buffer(transport)  # (the handler did already: in case)
        out = ConnectionOut(transport, limit, dropped, gone, self.unsent)
        for stream in streams:
            stream.write_to(out)
        return out

    def close_stream(self, stream: Stream) -> None:
        """Its connection ended (whoever ended it)."""
        stream.closed = True
        self._remove(stream)
        if stream.present and presence.closed(stream.game_id, stream.user.id):
            stream.present = False
            if stream.game_id is not None:
                self._presence_changed(stream.game_id)
            elif self.on_presence is not None:
                self.on_presence()

    def _add(self, stream: Stream) -> None:
        registry = self._users if stream.game_id is None else self._games
        key = stream.user.id if stream.game_id is None else stream.game_id
        registry.setdefault(key, set()).add(stream)
        self._count[stream.counted_as] = self._count.get(stream.counted_as, 0) + 1
        if stream.uid:
            self._by_user.setdefault(stream.uid, set()).add(stream)

    def _remove(self, stream: Stream) -> None:
        registry = self._users if stream.game_id is None else self._games
        key = stream.user.id if stream.game_id is None else stream.game_id
        members = registry.get(key)
        if members is None or stream not in members:
            return
        members.discard(stream)
        if not members:
            del registry[key]
        mine = self._by_user.get(stream.uid)
        if mine is not None:
            mine.discard(stream)
            if not mine:
                del self._by_user[stream.uid]
        left = self._count.get(stream.counted_as, 1) - 1
        if left:
            self._count[stream.counted_as] = left
        else:
            self._count.pop(stream.counted_as, None)

    # --- events -------------------------------------------------------------------------

    def on_event(self, event: Event) -> None:
        """A change committed (here or, through the relay, in another process)."""
        if self._closing:
            return
        if isinstance(event, GameEvent):
            if event.game_id in self._games:
                view_for: set[int] = set()
                if isinstance(event, MarkersChanged):
                    view_for.add(event.user_id)  # only its owner's view shows them
                elif isinstance(event, OfferMade | OfferWithdrawn) and event.partner_id:
                    view_for |= {event.user_id, event.partner_id}  # a private offer
                self._mark(event.game_id, view_for)
        elif isinstance(event, AdminBroadcast):
            for game_id in event.game_ids:
                if game_id in self._games:
                    self._mark(game_id, set())
        elif isinstance(event, SessionsEnded):
            self._sessions_ended(event)
        elif isinstance(event, AdminRightsChanged):
            self._rights_changed(event.user_id, event.is_admin)
        if self._users and (
            isinstance(event, USER_EVENTS)
            or (isinstance(event, MessagePosted) and event.recipient_id is not None)
        ):
            self._spawn(self._to_users(event))

    # --- sessions -----------------------------------------------------------------------

    def _sessions_ended(self, event: SessionsEnded) -> None:
        """End the streams opened with the ended sessions (before anything else is sent:
        a later write's events come after this one's); no keys: ask the database."""
        self._while_opening(event.user_id, set(event.keys) or {""})
        if not event.keys:
            if event.user_id in self._by_user:
                self._spawn(self.check_sessions(list(self._by_user[event.user_id])))
            return
        ended = set(event.keys)
        self._end_streams(s for s in self._by_user.get(event.user_id, ()) if s.key in ended)

    def _while_opening(self, user_id: int, keys: set[str]) -> None:
        """The user's streams that are still opening decide on `keys` once they know
        their own session's key (`_still_open`)."""
        for stream in self._by_user.get(user_id, ()):
            if stream.key is None and not stream.closed:
                stream.early = (stream.early or set()) | keys

    def _end_streams(self, streams: Iterable[Stream]) -> None:
        streams = [stream for stream in streams if not stream.closed]
        if streams:
            count = len(streams)
            log.info(
                "%d live stream%s of %s ended: %s session ended",
                count,
                "" if count == 1 else "s",
                streams[0].user.username,
                "its" if count == 1 else "their",
            )
        for stream in streams:
            stream.end()

    def _rights_changed(self, user_id: int, is_admin: bool) -> None:
        """Promoted or demoted: its streams are sent what it may see now; those it may no
        longer watch (a private game it does not play) end at their game's next look,
        made now."""
        self._while_opening(user_id, {""})
        for stream in list(self._by_user.get(user_id, ())):
            if stream.user.is_admin == is_admin:
                continue
            stream.user = dataclasses.replace(stream.user, is_admin=is_admin)
            if is_admin:
                stream.plain = False  # an admin's updates are its own
            if stream.game_id is not None and stream.cursor is not None:
                self._mark(stream.game_id, set())

    async def check_sessions(self, streams: list[Stream] | None = None) -> None:
        """Ask the database whether the sessions of `streams` (of every logged-in stream
        when None: the relay was deaf for a while) still let their users in."""
        if streams is None:
            streams = [s for members in self._by_user.values() for s in members]
        # (a stream still opening has no key yet: `_still_open` asks for it)
        streams = [s for s in streams if not s.closed and s.key is not None]
        if not streams:
            return
        try:
            left = await self.ctx.store.transaction(
                sessions_left, {s.user.session_id for s in streams}
            )
        except Exception as error:  # the database is away: the next event asks again
            log.warning("live streams: sessions not checked (%s)", error)
            return
        gone: list[Stream] = []
        for stream in streams:
            found = left.get(stream.user.session_id)
            if found is None or found[0] != stream.key:
                gone.append(stream)  # (the same id, given to a later session, is not its)
            elif found[1] != stream.user.is_admin:
                self._rights_changed(stream.uid, found[1])
        self._end_streams(gone)

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """The server stops: end every stream (their handlers finish the responses)."""
        self._closing = True
        self.ctx.bus.unsubscribe(Event, self.on_event)
        for registry in (self._games, self._users):
            for members in list(registry.values()):
                for stream in list(members):
                    stream.end()
        tasks = [*self._tasks, *([self._looker] if self._looker is not None else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
