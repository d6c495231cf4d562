"""The looks: what each open stream of a changed game is sent (a base of `LiveHub`).

Every change reaches the hub as an event of the bus (a write of this process, after its
commit) or of the relay (a write of another process, on PostgreSQL). The hub does not
trust an event to say what changed: it only marks the game for a look, and the look
(`services.live_views.catch_up`) works out from each stream's cursor what that stream
has not had yet, as the API would show it to its reader. The games marked in one turn of
the event loop are looked at together, in one read transaction; events that arrive while
a look runs make one more look after it: a busy game is looked at once per turn of the
loop at most, never once per event per stream.

Streams that would be sent the same thing share the work: the plain spectators of a
public game (not players, not system admins, nothing of their own in the game) at the
same cursor get one computed update, encoded once. A player's stream is computed for
that player.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from corridorquest.events import Event
from corridorquest.live import sse
from corridorquest.live.stream import Stream
from corridorquest.services import live_views
from corridorquest.services.context import ServiceContext
from corridorquest.services.live_views import Cursor

log = logging.getLogger("corridorquest.live")

RETRY_LOOK = 1.0  # seconds before a look that failed is made again


class StreamLooks:
    """The hub's looks (`LiveHub`, live/hub.py, holds these attributes)."""

    ctx: ServiceContext
    on_presence: Callable[[], None] | None
    _games: dict[int, set[Stream]]
    _users: dict[int, set[Stream]]
    _dirty: dict[int, tuple[set[int], bool]]  # game -> (view for, presence)
    _looker: asyncio.Task[None] | None  # looks at the marked games
    _closing: bool

    def look_at(self, game_id: int) -> None:
        """Look at a game if it is watched (another process changed it)."""
        if game_id in self._games:
            self._mark(game_id, set())

    def look_at_all(self) -> None:
        """Look at every watched game (the relay lost touch for a while)."""
        for game_id in list(self._games):
            self._mark(game_id, set())

    def presence_changed(self, game_ids: set[int]) -> None:
        """Another process's streams changed who is online in these games."""
        for game_id in game_ids:
            if game_id in self._games:
                self._mark(game_id, set(), presence_too=True)

    def _presence_changed(self, game_id: int) -> None:
        self._mark(game_id, set(), presence_too=True)
        if self.on_presence is not None:
            self.on_presence()

    def _mark(self, game_id: int, view_for: set[int], presence_too: bool = False) -> None:
        if self._closing:
            return
        found = self._dirty.get(game_id)
        if found is None:
            self._dirty[game_id] = (set(view_for), presence_too)
        else:
            found[0].update(view_for)
            if presence_too and not found[1]:
                self._dirty[game_id] = (found[0], True)
        if self._looker is None:
            self._looker = asyncio.get_running_loop().create_task(self._look())

    async def _look(self) -> None:
        """Look at every marked game, in one read transaction per turn of the loop."""
        try:
            while self._dirty and not self._closing:
                await asyncio.sleep(0)  # let this turn's other changes join the look
                dirty, self._dirty = self._dirty, {}
                work = []
                for game_id, (view_for, presence_too) in dirty.items():
                    streams = [s for s in self._games.get(game_id, ()) if s.cursor is not None]
                    if streams:
                        work.append((game_id, streams, view_for, presence_too))
                if not work:
                    continue
                try:
                    looked = await self.ctx.store.transaction(self._work_all, work)
                except Exception as error:  # the database busy or away: look again soon
                    log.warning("live update of %d games failed (%s); retrying", len(work), error)
                    looked = [(item, None) for item in work]
                for (game_id, _streams, view_for, presence_too), sent in looked:
                    if sent is None:
                        asyncio.get_running_loop().call_later(
                            RETRY_LOOK, self._mark, game_id, view_for, presence_too
                        )
                        continue
                    for members, chunk, cursor in sent:
                        if chunk is None:  # gone, or no longer visible to the readers
                            for stream in members:
                                stream.end()
                            continue
                        self._put_all(members, chunk, cursor)
        finally:
            self._looker = None

    def _put_all(self, streams: list[Stream], chunk: bytes, cursor: Cursor | None) -> None:
        """Each stream moves on to `cursor` (unless None) and is sent `chunk` (unless
        empty): `Stream.put` to each."""
        if cursor is not None:
            for stream in streams:
                stream.cursor = cursor
        if chunk:
            for stream in streams:
                stream.put(chunk)

    @classmethod
    def _work_all(cls, work: list[tuple[int, list[Stream], set[int], bool]]) -> list[Any]:
        """Inside a read transaction: `(item, groups)` for each game of `work`, the groups
        None when its look failed (it is looked at again later)."""
        looked: list[Any] = []
        try:
            live_views.prepare_looks([item[0] for item in work])
        except Exception as error:  # each look reads for itself then
            log.warning("live updates could not read ahead (%s)", error)
        for item in work:
            try:
                looked.append((item, cls._work(*item)))
            except Exception as error:
                log.warning("live update of game %s failed (%s); retrying", item[0], error)
                looked.append((item, None))
        return looked

    @staticmethod
    def _work(
        game_id: int, streams: list[Stream], view_for: set[int], presence_too: bool
    ) -> list[tuple[list[Stream], bytes | None, Cursor | None]]:
        """Inside a read transaction: each group of streams and its chunk."""
        loaded = live_views.game_for_streams(game_id)
        if loaded is None:
            return [(list(streams), None, None)]
        private = loaded.game.private
        players = {player.user_id for player in loaded.players}
        # the plain spectators by their cursor, every other stream by (user, cursor)
        groups: dict[Any, list[Stream]] = {}
        for stream in streams:
            plain = stream.plain  # (never a system admin's: see live_views.plain_spectator)
            if plain and (private or stream.uid in players):
                stream.plain = plain = False  # joined, or private: its own updates from now
            key = stream.cursor if plain else (stream.uid, stream.cursor)
            group = groups.get(key)
            if group is None:
                groups[key] = [stream]
            else:
                group.append(stream)
        online = live_views.online_view(loaded) if presence_too else None
        out: list[tuple[list[Stream], bytes | None, Cursor | None]] = []
        for members in groups.values():
            first = members[0]
            assert first.cursor is not None
            if not live_views.may_watch(loaded, first.user, first.code):
                out.append((members, None, None))
                continue
            update = live_views.catch_up(
                loaded, first.user.id, first.cursor, view=first.user.id in view_for
            )
            items = update.items
            if online is not None:
                items = [*items, ("presence", str(update.cursor), online)]
            out.append((members, sse.events(items), update.cursor))
        return out

    async def _to_users(self, event: Event) -> None:
        listening = set(self._users)
        found = await self.ctx.store.transaction(live_views.user_updates, event, listening)
        for user_id, name, data in found:
            chunk = sse.event(name, data)
            for stream in list(self._users.get(user_id, ())):
                stream.put(chunk)
