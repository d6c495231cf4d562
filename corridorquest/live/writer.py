"""The stream writer: a helper process that writes the live streams' updates out.

A spectator's update is one socket write, and on a TCP connection a write costs the
kernel far more than the server spends deciding what to write (about 14 µs on
loopback): a thousand spectators of a hundred busy games are over ten thousand writes a
second, a good part of the event loop's only core (benchmarks/README.md, live_load).
The server hands each stream's connection to this process once (the socket itself, by
SCM_RIGHTS on a local socket pair) and from then on sends it one message per loop turn:
each update once, with the streams it goes to. The helper writes them, in order for
each connection, keeps what a slow reader's connection cannot take yet, and shuts the
connection of a reader that falls more than its limit behind (telling the server, which
ends the stream). Everything else about a stream (its response head, its first chunk,
the end of the response) stays with the server; `ConnectionOut.finish` lets the server
know that everything handed over is out before it writes the end.

The helper is forked when the server starts, before any other thread or connection
exists; it ignores Ctrl-C (the server ends the streams first, through it) and exits as
soon as the server's end of the socket pair closes, so a server that stops or is
killed takes it along. It runs with STREAM_WRITER=process (the default); with
STREAM_WRITER=inline, where it cannot run (no fork, no SOCK_SEQPACKET: not Linux), or
should it die, the server writes the updates itself (`corridorquest.live.output.InlineOut`).

Messages on the socket pair: corridorquest/live/writer_wire.py. The helper process's own
loop: corridorquest/live/writer_helper.py.

What the helper keeps unsent is bounded (corridorquest/live/limits.py): `limit` bytes per
connection, `total` bytes for all of them (the connections with the most are dropped
first), and a connection that takes nothing of what waits for `stall` seconds is dropped.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import itertools
import logging
import marshal
import os
import signal
import socket
from collections.abc import Callable
from typing import Any

from corridorquest.live.limits import raise_open_file_limit
from corridorquest.live.writer_helper import run_helper
from corridorquest.live.writer_wire import ADOPT, BOUNDS, DROPPED, FINISH, IDENT, MESSAGE, WHY

log = logging.getLogger("corridorquest.live")

FINISH_WAIT = 5.0  # seconds a finishing stream's reader gets to take what is left
BACKLOG_LIMIT = 64 * 1024 * 1024  # bytes for a helper that stopped reading: then it is lost


def frame(chunk: bytes) -> bytes:
    """One HTTP/1.1 chunk (the streams' responses are chunked)."""
    return b"%x\r\n%b\r\n" % (len(chunk), chunk)


# --- the server's side ----------------------------------------------------------------


class WriterProcess:
    """The server's end: hands connections over and sends them their updates."""

    def __init__(self, sock: socket.socket, pid: int) -> None:
        self._sock = sock
        self.pid = pid
        self._ids = itertools.count(1)
        self._outs: dict[int, ConnectionOut] = {}
        # id(chunk) -> (chunk, framed, idents); holding the chunk keeps its id its own
        self._batch: dict[int, tuple[bytes, bytes, list[int]]] = {}
        self._scheduled = False
        self._backlog: list[bytes] = []  # messages the socket could not take yet
        self._backlog_size = 0
        self.alive = True
        self._loop: asyncio.AbstractEventLoop | None = None

    @classmethod
    def start(cls) -> WriterProcess | None:
        """Fork the helper (None where it cannot run: the server writes itself)."""
        if not hasattr(os, "fork") or not hasattr(socket, "SOCK_SEQPACKET"):
            return None
        raise_open_file_limit()  # first: the helper holds a copy of every stream's socket
        try:
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            pid = os.fork()
        except OSError as error:
            log.warning("stream writer not started (%s): the server writes the streams", error)
            return None
        if pid == 0:  # the helper
            code = 1
            try:
                ours.close()
                run_helper(theirs)
                code = 0
            finally:
                os._exit(code)
        theirs.close()
        ours.setblocking(False)
        return cls(ours, pid)

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Listen to the helper's replies on `loop` (the server's)."""
        self._loop = loop
        loop.add_reader(self._sock.fileno(), self._on_reply)

    def configure(self, total: int, stall: float) -> None:
        """What all the connections may hold unsent (bytes), and how long one may take
        nothing of what waits for it (seconds)."""
        self._send(b"L" + BOUNDS.pack(total, stall))

    def adopt(
        self,
        transport: Any,
        limit: int,
        dropped: Callable[[str], None],
        gone: Callable[[], None],
    ) -> ConnectionOut | None:
        """Hand `transport`'s connection over; None when the helper cannot take it."""
        sock = transport.get_extra_info("socket")
        if not self.alive or self._loop is None or sock is None or transport.is_closing():
            return None
        if transport.get_write_buffer_size():  # the server's own writes are not all out:
            return None  # the helper's would overtake them
        self._flush()  # what was put before goes first
        if self._backlog:  # the helper is behind: a socket is passed now or not at all
            return None  # (a number kept for later could name another connection by then)
        ident = next(self._ids)
        fds = array.array("i", [sock.fileno()])
        try:
            self._sock.sendmsg(
                [b"O" + ADOPT.pack(ident, limit)],
                [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)],
            )
        except OSError:  # full, or the connection's socket already closed: write inline
            return None
        out = ConnectionOut(self, ident, dropped, gone)
        self._outs[ident] = out
        return out

    def put(self, ident: int, chunk: bytes) -> None:
        """Write `chunk` to the connection (at the end of this loop turn, with the rest)."""
        self.put_many([ident], chunk)

    def put_many(self, idents: list[int], chunk: bytes) -> None:
        """Write `chunk` to each of the connections (a game's spectators share updates)."""
        found = self._batch.get(id(chunk))
        if found is None:
            self._batch[id(chunk)] = (chunk, frame(chunk), list(idents))
        else:
            found[2].extend(idents)
        if not self._scheduled and self._loop is not None:
            self._scheduled = True
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._scheduled = False
        if not self._batch:
            return
        entries = list(self._batch.values())
        self._batch.clear()
        message: list[tuple[bytes, list[int]]] = []
        size = 0
        for _chunk, data, idents in entries:
            for start in range(0, len(data), MESSAGE):
                piece = data[start : start + MESSAGE] if len(data) > MESSAGE else data
                cost = len(piece) + 9 * len(idents) + 16
                if message and size + cost > MESSAGE:
                    self._send(b"W" + marshal.dumps(message))
                    message, size = [], 0
                message.append((piece, idents))
                size += cost
        if message:
            self._send(b"W" + marshal.dumps(message))

    def finish(self, ident: int) -> asyncio.Future[None]:
        """Ask the helper to write out what it holds for `ident` and let it go."""
        assert self._loop is not None
        out = self._outs.get(ident)
        done: asyncio.Future[None] = self._loop.create_future()
        if out is None or not self.alive:
            done.set_result(None)
            return done
        out.finished = done
        self._flush()
        self._send(b"E" + FINISH.pack(ident, FINISH_WAIT))
        return done

    def _send(self, data: bytes) -> None:
        if not self.alive:
            return
        if self._backlog:
            self._backlog.append(data)
            self._backlog_size += len(data)
            if self._backlog_size > BACKLOG_LIMIT:
                self._lost(None, "stopped reading")
            return
        try:
            self._sock.send(data)
        except BlockingIOError:  # the helper is behind: keep the order, send when it can
            self._backlog.append(data)
            self._backlog_size = len(data)
            assert self._loop is not None
            self._loop.add_writer(self._sock.fileno(), self._send_backlog)
        except OSError as error:
            self._lost(error)

    def _send_backlog(self) -> None:
        while self._backlog:
            try:
                self._sock.send(self._backlog[0])
            except BlockingIOError:
                return
            except OSError as error:
                self._lost(error)
                return
            self._backlog_size -= len(self._backlog.pop(0))
        assert self._loop is not None
        self._loop.remove_writer(self._sock.fileno())

    def _on_reply(self) -> None:
        while True:
            try:
                data = self._sock.recv(64)
            except BlockingIOError:
                return
            except OSError as error:
                self._lost(error)
                return
            if not data:
                self._lost(None)
                return
            kind = data[:1]
            (ident,) = IDENT.unpack_from(data, 1)
            out = self._outs.pop(ident, None) if kind == b"E" else self._outs.get(ident)
            if out is None:
                continue
            if kind == b"E":
                if out.finished is not None and not out.finished.done():
                    out.finished.set_result(None)
            elif kind in WHY:  # dropped (the helper shut the connection)
                self._outs.pop(ident, None)
                _ident, unsent, total = DROPPED.unpack_from(data, 1)
                out.dropped(
                    f"{WHY[kind]} ({unsent // 1024} KiB unsent; "
                    f"{total // 1024} KiB on the writer's other streams)"
                )
            else:  # b"G": the connection failed (its reader went away)
                self._outs.pop(ident, None)
                out.gone()

    def forget(self, ident: int) -> None:
        """The connection ended on the server's side: the helper lets it go."""
        if self._outs.pop(ident, None) is not None and self.alive:
            self._flush()
            self._send(b"E" + FINISH.pack(ident, 0.0))

    def _lost(self, error: OSError | None, why: str = "exited") -> None:
        """The helper died or stopped reading: drop what it held (the clients resume);
        the server writes the streams itself from now on."""
        if not self.alive:
            return
        self.alive = False
        log.error("stream writer process gone (%s): its streams are dropped", error or why)
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)  # and the connections it holds with it
        if self._loop is not None:
            self._loop.remove_reader(self._sock.fileno())
            if self._backlog:
                self._loop.remove_writer(self._sock.fileno())
        self._backlog.clear()
        self._backlog_size = 0
        self._batch.clear()
        outs, self._outs = list(self._outs.values()), {}
        for out in outs:
            if out.finished is not None and not out.finished.done():
                out.finished.set_result(None)
            out.dropped("the stream writer process is gone")
        self._sock.close()

    async def close(self) -> None:
        """The server stops (its streams have ended): the helper exits; reap it."""
        self._flush()
        if self._loop is not None and self.alive:
            self._loop.remove_reader(self._sock.fileno())
            if self._backlog:
                self._loop.remove_writer(self._sock.fileno())
        self.alive = False
        self._sock.close()
        for _ in range(100):
            with contextlib.suppress(ChildProcessError):
                if os.waitpid(self.pid, os.WNOHANG) == (0, 0):
                    await asyncio.sleep(0.02)
                    continue
            return
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)


class ConnectionOut:
    """A connection the helper writes to (what `Stream.put` hands its updates)."""

    __slots__ = ("writer", "ident", "dropped", "gone", "finished")

    def __init__(
        self,
        writer: WriterProcess,
        ident: int,
        dropped: Callable[[str], None],
        gone: Callable[[], None],
    ) -> None:
        self.writer = writer
        self.ident = ident
        self.dropped = dropped  # the helper shut the connection: the reader fell behind
        self.gone = gone  # the connection failed: the stream ends
        self.finished: asyncio.Future[None] | None = None

    def put(self, chunk: bytes) -> None:
        self.writer.put(self.ident, chunk)

    async def finish(self) -> None:
        """Everything put so far is written (or given up): the end may follow."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.writer.finish(self.ident), FINISH_WAIT + 5.0)

    def let_go(self) -> None:
        self.writer.forget(self.ident)
