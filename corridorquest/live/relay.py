"""The live relay: several server processes on one PostgreSQL database.

Every write that has events announces them (`announce`, called through
`ServiceContext.announce` inside the write's transaction): a NOTIFY on one channel that
PostgreSQL delivers to every listening process when the write commits. The payload names
the process it came from and carries the events (ids and revisions, never what a reader
sees: each process works that out for its own streams, as for its own writes). A process
ignores its own announcements (its bus had the events already).

If the listening session is lost (the database restarted), the relay reconnects every
second; once back, the hub looks at every watched game, so what committed meanwhile is
not missed (a look works from each stream's cursor, never from the events).

Presence (services.presence): every PRESENCE_EVERY seconds, and soon after a change,
each process announces which users hold streams there; a process that stops announces
an empty list.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Sequence
from typing import Any

from corridorquest.events import Event, from_record, to_record
from corridorquest.live.hub import LiveHub
from corridorquest.services import presence
from corridorquest.services.context import ServiceContext
from corridorquest.store.live_channel import MAX_PAYLOAD, ChannelLost, Listener, notify

log = logging.getLogger("corridorquest.live")

PRESENCE_EVERY = 10.0  # seconds (services.presence forgets a list after REMOTE_TTL)
PRESENCE_DELAY = 0.2  # a change is announced this soon (several changes: once)
RECONNECT_EVERY = 1.0


class Relay:
    def __init__(self, ctx: ServiceContext, hub: LiveHub) -> None:
        self.ctx = ctx
        self.hub = hub
        self.token = secrets.token_hex(8)  # this process, in its announcements
        self._listener = Listener(ctx.settings.database_url)
        self._fd: int | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._presence_due: asyncio.TimerHandle | None = None
        self._stopping = False

    async def start(self) -> None:
        ctx = self.ctx
        ctx.announce = self.announce
        self.hub.on_presence = self._presence_soon
        if not await self._connect():
            self._spawn(self._reconnect())
        self._spawn(self._presence_loop())

    # --- sending ------------------------------------------------------------------------

    def announce(self, events: Sequence[Event]) -> None:
        """Inside a write's transaction (any thread): NOTIFY the other processes."""
        records = [to_record(event) for event in events]
        payload = json.dumps({"p": self.token, "e": records}, separators=(",", ":"))
        if len(payload.encode()) <= MAX_PAYLOAD:
            notify(payload)
            return
        for record in records:  # one by one; a single one that big: "look at the game"
            one = json.dumps({"p": self.token, "e": [record]}, separators=(",", ":"))
            if len(one.encode()) > MAX_PAYLOAD:
                game_id = record[1].get("game_id")
                one = json.dumps({"p": self.token, "g": [game_id] if game_id else []})
            notify(one)

    async def _announce_presence(self, empty: bool = False) -> None:
        games, users = ({}, []) if empty else presence.local_snapshot()
        body = {"p": self.token, "presence": {"games": games, "users": users}}
        payload = json.dumps(body, separators=(",", ":"))
        if len(payload.encode()) > MAX_PAYLOAD:  # thousands of players online here
            log.warning("live relay: presence list too long to announce (%d bytes)", len(payload))
            return
        await self.ctx.store.transaction(notify, payload)

    def _presence_soon(self) -> None:
        if self._presence_due is None and not self._stopping:
            loop = asyncio.get_running_loop()
            self._presence_due = loop.call_later(PRESENCE_DELAY, self._presence_now)

    def _presence_now(self) -> None:
        self._presence_due = None
        self._spawn(self._announce_presence())

    async def _presence_loop(self) -> None:
        while not self._stopping:
            try:
                await self._announce_presence()
            except Exception as error:  # the database is away: the next round tries again
                log.warning("live relay: presence not announced: %s", error)
            await asyncio.sleep(PRESENCE_EVERY)

    # --- hearing ------------------------------------------------------------------------

    async def _connect(self) -> bool:
        loop = asyncio.get_running_loop()
        try:
            fd = await loop.run_in_executor(None, self._listener.connect)
        except Exception as error:
            log.warning("live relay: cannot listen (%s); retrying", error)
            return False
        self._fd = fd
        loop.add_reader(fd, self._readable)
        return True

    async def _reconnect(self) -> None:
        while not self._stopping:
            await asyncio.sleep(RECONNECT_EVERY)
            if await self._connect():
                log.info("live relay: listening again")
                self.hub.look_at_all()  # what committed while we were deaf
                await self.hub.check_sessions()  # and the sessions that ended meanwhile
                return

    def _lost(self, error: Exception) -> None:
        log.warning("live relay: connection lost (%s); reconnecting", error)
        self._unwatch()
        self._listener.close()
        if not self._stopping:
            self._spawn(self._reconnect())

    def _unwatch(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self._fd)
            self._fd = None

    def _readable(self) -> None:
        try:
            payloads = self._listener.read()
        except ChannelLost as error:
            self._lost(error)
            return
        for payload in payloads:
            try:
                self._heard(json.loads(payload))
            except Exception:
                log.exception("live relay: cannot use an announcement")

    def _heard(self, body: dict[str, Any]) -> None:
        if body.get("p") == self.token:
            return  # our own: the bus had it
        for type_name, values in body.get("e", ()):
            event = from_record(type_name, values)
            if event is not None:
                self.hub.on_event(event)
        for game_id in body.get("g", ()):
            self.hub.look_at(int(game_id))
        found = body.get("presence")
        if found is not None:
            games = {int(gid): users for gid, users in found.get("games", {}).items()}
            changed = presence.merge(str(body.get("p")), games, found.get("users", []))
            self.hub.presence_changed(changed)

    # --- stopping -----------------------------------------------------------------------

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def stop(self) -> None:
        self._stopping = True
        if self._presence_due is not None:
            self._presence_due.cancel()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await self._announce_presence(empty=True)
        self._unwatch()
        self._listener.close()
        self.ctx.announce = None
