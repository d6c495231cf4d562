"""How many live streams a server process holds, and how much they may keep unsent.

Each stream holds a connection, and a connection is an open file. A server whose
streams take every open file it may have answers nothing more (no move, no login; the
outbox fails with EMFILE). So, at start (`raise_open_file_limit`), the soft limit on
open files goes up to the hard one, and the streams may take half of it, less `RESERVE`
files for the listening sockets, the database, the log and mail (`stream_bound`);
STREAMS_MAX sets another bound, lowered at start to the limit less `RESERVE` when it is
higher (the log says so). A stream over the bound is answered 503
`too_many_streams_on_server` with `retry_after`, and its connection closed at once
(api/streams.py): refused clients hold no open file.

What one stream's connection holds unsent: the operating system's buffer, kept at
`SOCKET_BUFFER` (left alone, Linux grows it to 4 MB for a reader that does not read),
and what the server keeps beyond it, at most STREAM_BUFFER KiB per
stream and STREAM_BUFFER_TOTAL MiB for all of a process's streams (the streams with the
most unsent are dropped first); a stream that takes nothing of it for
STREAM_STALL_TIMEOUT seconds is dropped too. A dropped stream's client reconnects and
resumes from its last event.
"""

from __future__ import annotations

import contextlib
import logging
import socket
from typing import Any

log = logging.getLogger("corridorquest.live")

RESERVE = 100  # open files kept from the streams: listening sockets, database, log, mail
MINIMUM = 16  # streams allowed whatever the open-file limit
SOCKET_BUFFER = 32 * 1024  # SO_SNDBUF of a stream's socket (Linux reserves twice that)
RETRY_AFTER = 10  # seconds: the 503 of a stream over the bound


def raise_open_file_limit() -> int:
    """Raise the soft limit on open files to the hard one (where there is one); the soft
    limit now (0 where the platform has none)."""
    try:
        import resource
    except ImportError:  # not a Unix
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError) as error:
            log.warning("open-file limit not raised from %d to %d: %s", soft, hard, error)
    elif hard == resource.RLIM_INFINITY and soft == resource.RLIM_INFINITY:
        return 1 << 20
    return int(soft)


def stream_bound(setting: int, open_files: int) -> int:
    """How many stream connections a process holds at most: STREAMS_MAX when set (not 0)
    but never more than the open-file limit less RESERVE, else half the open-file limit
    less RESERVE (at least MINIMUM either way)."""
    if open_files <= 0:  # no limit known
        return setting if setting > 0 else 10_000
    if setting > 0:
        return min(setting, max(MINIMUM, open_files - RESERVE))
    return max(MINIMUM, open_files // 2 - RESERVE)


def bound_socket_buffer(transport: Any) -> None:
    """Keep the operating system's buffer of a stream's connection small (SO_SNDBUF)."""
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is None:
        return
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_BUFFER)
