"""The stream writer process itself: its loop, until the server's end of the socket pair
closes (the server's side, and why there is such a process: corridorquest/live/writer.py).
"""

from __future__ import annotations

import array
import contextlib
import marshal
import os
import select
import signal
import socket
import time

from corridorquest.live.writer_wire import ADOPT, BOUNDS, DROPPED, FINISH, IDENT, MESSAGE, WHY

STALL_CHECK = 0.25  # seconds between the helper's looks for connections that took nothing


class _Conn:
    __slots__ = ("ident", "fd", "limit", "pending", "deadline", "since")

    def __init__(self, ident: int, fd: int, limit: int) -> None:
        self.ident = ident
        self.fd = fd
        self.limit = limit
        self.pending = bytearray()  # what the connection could not take yet
        self.deadline: float | None = None  # finishing: let go when written or then
        self.since = 0.0  # when it last took something of `pending`


def run_helper(ctl: socket.socket) -> None:
    """The helper's loop, until the server's end of `ctl` closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server ends the streams first
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # and then closes the socket pair
    keep = ctl.fileno()
    os.closerange(3, keep)  # nothing of the server's: its database, its listening socket
    os.closerange(keep + 1, 1 << 16)
    with contextlib.suppress(OSError):  # what `ps` and `top` show (15 characters at most)
        with open("/proc/self/comm", "w") as comm:
            comm.write("cq-stream-write")
    ctl.setblocking(False)
    conns: dict[int, _Conn] = {}
    by_fd: dict[int, _Conn] = {}
    finishing: set[_Conn] = set()  # with a deadline
    waiting: set[_Conn] = set()  # with something pending
    bounds = {"total": 64 * 1024 * 1024, "stall": 5.0}  # until the server says (b"L")
    unsent = [0]  # what all connections hold pending
    checked = [0.0]  # when `stalled` last looked
    poller = select.poll()
    poller.register(keep, select.POLLIN)
    buffer = bytearray(2 * MESSAGE)
    view = memoryview(buffer)
    ancillary = socket.CMSG_SPACE(array.array("i").itemsize)

    def reply(kind: bytes, conn: _Conn) -> None:
        if kind in WHY:
            held = len(conn.pending)  # (what the others hold once it is dropped)
            message = kind + DROPPED.pack(conn.ident, held, unsent[0] - held)
        else:
            message = kind + IDENT.pack(conn.ident)
        with contextlib.suppress(OSError):  # the server gone: the loop ends on its own
            ctl.setblocking(True)
            ctl.send(message)
            ctl.setblocking(False)

    def drop(kind: bytes, conn: _Conn) -> None:
        # the server learns why before the connection ends (it forgets a connection
        # whose end it saw first, and would not say why it ended)
        reply(kind, conn)
        let_go(conn, shut=True)

    def forget_pending(conn: _Conn) -> None:
        if conn.pending:
            unsent[0] -= len(conn.pending)
            conn.pending.clear()
            poller.unregister(conn.fd)
        waiting.discard(conn)

    def let_go(conn: _Conn, shut: bool) -> None:
        conns.pop(conn.ident, None)
        finishing.discard(conn)
        by_fd.pop(conn.fd, None)
        forget_pending(conn)
        if shut:  # the connection itself ends (the server's own copy too)
            with contextlib.suppress(OSError):
                shutter = socket.socket(fileno=conn.fd)
                shutter.shutdown(socket.SHUT_RDWR)
                shutter.detach()
        os.close(conn.fd)

    def write(conn: _Conn, data: bytes | memoryview) -> None:
        if conn.pending:
            conn.pending += data
            unsent[0] += len(data)
            if len(conn.pending) > conn.limit:
                drop(b"D", conn)
            elif unsent[0] > bounds["total"]:
                over_total()
            return
        try:
            sent = os.write(conn.fd, data)
        except BlockingIOError:
            sent = 0
        except OSError:  # the reader went away
            let_go(conn, shut=False)
            reply(b"G", conn)
            return
        if sent < len(data):
            conn.pending += data[sent:]
            unsent[0] += len(data) - sent
            conn.since = time.monotonic()
            waiting.add(conn)
            poller.register(conn.fd, select.POLLOUT)
            if len(conn.pending) > conn.limit:
                drop(b"D", conn)
            elif unsent[0] > bounds["total"]:
                over_total()

    def over_total() -> None:
        """All connections hold more than `total`: drop those that hold the most."""
        for conn in sorted(waiting, key=lambda c: len(c.pending), reverse=True):
            if unsent[0] <= bounds["total"]:
                return
            drop(b"T", conn)

    def stalled(now: float) -> None:
        """Drop the connections that took nothing of what waits for `stall` seconds."""
        limit = now - bounds["stall"]
        for conn in [c for c in waiting if c.since < limit and c.deadline is None]:
            drop(b"S", conn)

    def drain(conn: _Conn) -> None:
        try:
            sent = os.write(conn.fd, conn.pending)
        except BlockingIOError:
            return
        except OSError:
            let_go(conn, shut=False)
            reply(b"E" if conn.deadline is not None else b"G", conn)
            return
        del conn.pending[:sent]
        unsent[0] -= sent
        conn.since = time.monotonic()
        if not conn.pending:
            waiting.discard(conn)
            poller.unregister(conn.fd)
            if conn.deadline is not None:
                let_go(conn, shut=False)
                reply(b"E", conn)

    def on_message(data: memoryview, fds: list[int]) -> None:
        kind = data[:1].tobytes()
        if kind == b"L":
            total, stall = BOUNDS.unpack_from(data, 1)
            bounds["total"], bounds["stall"] = total, stall
        elif kind == b"W":
            for chunk, idents in marshal.loads(data[1:]):
                for ident in idents:
                    conn = conns.get(ident)
                    if conn is not None:
                        write(conn, chunk)
        elif kind == b"O":
            ident, limit = ADOPT.unpack_from(data, 1)
            if fds:
                conn = _Conn(ident, fds[0], limit)
                conns[ident] = by_fd[conn.fd] = conn
        elif kind == b"E":
            ident, seconds = FINISH.unpack_from(data, 1)
            conn = conns.get(ident)
            if conn is None:
                if seconds > 0:
                    reply(b"E", _Conn(ident, -1, 0))
            elif not conn.pending or seconds <= 0:
                let_go(conn, shut=False)
                if seconds > 0:
                    reply(b"E", conn)
            else:
                conn.deadline = time.monotonic() + seconds
                finishing.add(conn)

    while True:
        timeout = None
        if finishing:
            soonest = min(c.deadline for c in finishing if c.deadline is not None)
            timeout = max(0.0, soonest - time.monotonic()) * 1000
        if waiting:
            timeout = min(timeout if timeout is not None else 1e9, STALL_CHECK * 1000)
        for fd, events in poller.poll(timeout):
            if fd == keep:
                while True:
                    try:
                        size, anc, _flags, _address = ctl.recvmsg_into([buffer], ancillary)
                    except BlockingIOError:
                        break
                    except OSError:
                        return
                    if size == 0:
                        return  # the server closed its end (stopped, or died)
                    fds: list[int] = []
                    for level, kind, payload in anc:
                        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                            fds.extend(array.array("i", payload[: len(payload) // 4 * 4]))
                    on_message(view[:size], fds)
                continue
            conn = by_fd.get(fd)
            if conn is None:
                continue
            if events & (select.POLLERR | select.POLLHUP | select.POLLNVAL):
                let_go(conn, shut=False)
                reply(b"E" if conn.deadline is not None else b"G", conn)
            else:
                drain(conn)
        if waiting:
            now = time.monotonic()
            if now >= checked[0] + STALL_CHECK:  # (not on every wake-up: `waiting` may be long)
                checked[0] = now
                stalled(now)
        if finishing:
            now = time.monotonic()
            for conn in [c for c in finishing if c.deadline is not None and c.deadline <= now]:
                let_go(conn, shut=True)  # its reader did not take the rest in time
                reply(b"E", conn)
