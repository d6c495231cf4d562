"""The look process: a helper that works out the live streams' updates for the server.

Working out what a stream has not had yet (`corridorquest.live.looks`: the game, its new
actions and messages, the view as its reader may see it, encoded) is the live streams'
cost to the server: measured with 1,000 spectators of 100 busy games, the looks on the
event loop's one core took a quarter of the moves it accepted, twice their share of a
profile (the move path ran slower beside them), while the writes to the connections and
the spectators themselves on the other core took nearly nothing of it
(benchmarks/README.md, live_load). So a helper process, forked when the server starts,
does the looks: the hub sends it each batch of looks (the games and their streams'
readers and cursors, plus who is online in those games) and gets the answers back, the
same answers `looks.work_out` gives on the event loop, in the same order; the hub then
puts the chunks to the streams as before. One batch is out at a time; the games marked
meanwhile make the next one.

The helper reads the database through a connection of its own (the same DATABASE_URL), in
a transaction that only reads, from the last commit: a look sees at least the change that
asked for it. It writes nothing. It exits when the server's end of the socket pair closes
(the server stopped or died). Should it die, stall (no answer within `ANSWER_WAIT`) or
fail to reach the database, the server does its looks itself from then on
(STREAM_LOOKER=inline does so from the start; so does a server where it cannot fork).

Messages on the socket pair (a stream socket; each message is 4 bytes of length, then
`marshal` data):

    server -> helper   (presence snapshot, [look, ...])   look at these
    helper -> server   [answer, ...]                      or None: the batch failed
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import marshal
import os
import signal
import socket
import struct
from collections import deque
from typing import Any

from corridorquest.live import looks
from corridorquest.services import presence
from corridorquest.settings import Settings

log = logging.getLogger("corridorquest.live")

_LENGTH = struct.Struct("!I")
ANSWER_WAIT = 10.0  # seconds the server waits for a batch's answer before it looks itself


class LookerProcess:
    """The server's end: sends batches of looks and reads their answers, in order
    (callbacks on the server's loop, no task of their own: under load a turn of the loop
    is long, and an answer is taken in the turn after it arrives). Several batches may be
    out at once (never two looks of one game: `LiveHub` sees to that)."""

    def __init__(self, sock: socket.socket, pid: int) -> None:
        self._sock = sock
        self.pid = pid
        self.alive = True
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unsent = b""  # what the socket did not take yet
        self._received = bytearray()
        self._waiting: deque[asyncio.Future[Any]] = deque()  # the batches out, oldest first
        self._timer: asyncio.TimerHandle | None = None  # the oldest's answer is overdue

    @classmethod
    def start(cls, settings: Settings) -> LookerProcess | None:
        """Fork the helper (None where it cannot run: the server looks itself). Before any
        thread or database connection of the server exists."""
        if not hasattr(os, "fork"):
            return None
        try:
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
            pid = os.fork()
        except OSError as error:
            log.warning("look process not started (%s): the server looks itself", error)
            return None
        if pid == 0:  # the helper
            code = 1
            try:
                ours.close()
                _helper(theirs, settings)
                code = 0
            except BaseException:  # its end: the server looks itself
                log.exception("look process failed")
            finally:
                os._exit(code)
        theirs.close()
        ours.setblocking(False)
        return cls(ours, pid)

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Read the helper's answers on `loop` (the server's)."""
        self._loop = loop
        loop.add_reader(self._sock.fileno(), self._on_readable)

    def look(
        self, batch: list[looks.Look], online: presence.Snapshot
    ) -> asyncio.Future[list[looks.Answer] | None] | None:
        """Send `batch` off; its answers come in the future returned (None in it when the
        helper is gone, stalled or failed the whole batch: the caller looks itself). None
        when the helper is gone already."""
        loop = self._loop
        if not self.alive or loop is None:
            return None
        data = marshal.dumps((online, batch))
        waiting: asyncio.Future[Any] = loop.create_future()
        self._waiting.append(waiting)
        if self._timer is None:
            self._timer = loop.call_later(ANSWER_WAIT, self._overdue)
        self._send(_LENGTH.pack(len(data)) + data)
        return waiting

    def _overdue(self) -> None:
        self._timer = None
        self._lost(TimeoutError(f"no answer within {ANSWER_WAIT:g} s"))

    def _send(self, data: bytes) -> None:
        if self._unsent:  # after what is waiting to go
            self._unsent += data
            return
        try:
            sent = self._sock.send(data)
        except BlockingIOError:
            sent = 0
        except OSError as error:
            self._lost(error)
            return
        if sent < len(data):  # a big batch: the rest when the helper has read some
            self._unsent = data[sent:]
            assert self._loop is not None
            self._loop.add_writer(self._sock.fileno(), self._send_rest)

    def _send_rest(self) -> None:
        try:
            sent = self._sock.send(self._unsent)
        except BlockingIOError:
            return
        except OSError as error:
            self._lost(error)
            return
        self._unsent = self._unsent[sent:]
        if not self._unsent:
            assert self._loop is not None
            self._loop.remove_writer(self._sock.fileno())

    def _on_readable(self) -> None:
        try:
            data = self._sock.recv(1 << 20)
        except BlockingIOError:
            return
        except OSError as error:
            self._lost(error)
            return
        if not data:
            self._lost(EOFError("it exited"))
            return
        self._received += data
        while len(self._received) >= _LENGTH.size:
            (size,) = _LENGTH.unpack_from(self._received)
            if len(self._received) < _LENGTH.size + size:
                return
            body = bytes(self._received[_LENGTH.size : _LENGTH.size + size])
            del self._received[: _LENGTH.size + size]
            answers = marshal.loads(body)  # None: the helper could not read the database
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._waiting:
                waiting = self._waiting.popleft()
                if not waiting.done():
                    waiting.set_result(answers)
            if self._waiting and self._loop is not None:
                self._timer = self._loop.call_later(ANSWER_WAIT, self._overdue)

    def _lost(self, error: BaseException) -> None:
        """The helper died or stalled: the server looks itself from now on."""
        if not self.alive:
            return
        self.alive = False
        log.error("look process gone (%s): the server works out the streams' updates itself",
                  error)
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        if self._loop is not None:
            self._loop.remove_reader(self._sock.fileno())
            if self._unsent:
                self._loop.remove_writer(self._sock.fileno())
        self._sock.close()
        self._answer_none()

    def _answer_none(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        while self._waiting:
            waiting = self._waiting.popleft()
            if not waiting.done():
                waiting.set_result(None)

    async def close(self) -> None:
        """The server stops: the helper exits (its end of the socket closes); reap it."""
        if self.alive:
            self.alive = False
            if self._loop is not None:
                self._loop.remove_reader(self._sock.fileno())
                if self._unsent:
                    self._loop.remove_writer(self._sock.fileno())
            self._sock.close()
            self._answer_none()
        for _ in range(100):
            with contextlib.suppress(ChildProcessError):
                if os.waitpid(self.pid, os.WNOHANG) == (0, 0):
                    await asyncio.sleep(0.02)
                    continue
            return
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)


# --- the helper process ----------------------------------------------------------------


def _helper(ctl: socket.socket, settings: Settings) -> None:
    """Answer batches of looks until the server's end of `ctl` closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server stops it by closing the pair
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    keep = ctl.fileno()
    os.closerange(3, keep)  # nothing of the server's: the stream writer's socket above all
    os.closerange(keep + 1, 1 << 16)
    with contextlib.suppress(OSError):  # what `ps` and `top` show (15 characters at most)
        with open("/proc/self/comm", "w") as comm:
            comm.write("cq-stream-look")
    ctl.setblocking(True)
    store: Any = None
    while True:
        head = _receive(ctl, _LENGTH.size)
        if head is None:
            return  # the server closed its end (stopped, or died)
        body = _receive(ctl, _LENGTH.unpack(head)[0])
        if body is None:
            return
        online, batch = marshal.loads(body)
        answers: Any = None
        try:
            if store is None:  # the server has brought the schema up to date by now
                store = _open_store(settings)
            presence.adopt(online)
            answers = store.read(looks.work_out, batch)
        except Exception as error:  # the database away: the server looks itself this time
            log.warning("look process: live updates of %d games failed (%s)", len(batch), error)
        data = marshal.dumps(answers)
        try:
            ctl.sendall(_LENGTH.pack(len(data)) + data)
        except OSError:
            return


def _receive(ctl: socket.socket, size: int) -> bytes | None:
    buffer = bytearray(size)
    view = memoryview(buffer)
    got = 0
    while got < size:
        try:
            count = ctl.recv_into(view[got:])
        except OSError:
            return None
        if count == 0:
            return None
        got += count
    return bytes(buffer)


def _open_store(settings: Settings) -> Any:
    from corridorquest.store.db import SqliteOptions, Store

    sqlite = SqliteOptions(
        synchronous=settings.sqlite_synchronous,
        busy_timeout=settings.database_busy_timeout,
        wal_limit=settings.sqlite_wal_limit * 1024 * 1024,
    )
    return Store.open(settings.database_url, 1, migrate=False, sqlite=sqlite)
