"""The messages between the server and the stream writer process (corridorquest/live/writer.py).

Messages on the socket pair (SOCK_SEQPACKET keeps them apart and in order):

    server -> helper   b"L" total stall                             the bounds of all streams
                       b"O" ident limit + the connection's socket   adopt a connection
                       b"W" marshal([(bytes, [ident, ...]), ...])   write these
                       b"E" ident seconds                           finish, then let go
    helper -> server   b"E" ident                                   finished (or gone)
                       b"D" ident unsent rest                       dropped: fell behind
                       b"S" ident unsent rest                       dropped: took nothing
                       b"T" ident unsent rest                       dropped: all too much
                       b"G" ident                                   its connection failed
"""

from __future__ import annotations

import struct

MESSAGE = 64 * 1024  # the most one message carries (a bigger update goes in pieces)
ADOPT = struct.Struct("!QQ")
FINISH = struct.Struct("!Qd")
IDENT = struct.Struct("!Q")
BOUNDS = struct.Struct("!Qd")
DROPPED = struct.Struct("!QQQ")  # ident, its unsent bytes, the other connections' unsent bytes
WHY = {
    b"D": "it fell behind",
    b"S": "it took nothing for a while",
    b"T": "the streams' unsent total is at its bound",
}
