"""The one place that reaches into Sanic's private state of a connection (live streams).

Once a stream's response has started, the hub writes its updates straight to the
connection's transport (corridorquest/live/output.py), past Sanic's response object:

- `is_chunked`: whether the response goes out in HTTP/1.1 chunks (`Http.response_func`
  is `Http.http1_response_chunked`), the framing the hub writes;
- `mark_written`: Sanic ends a response it has not written to for RESPONSE_TIMEOUT,
  measured from `HttpProtocol._time` (read by `HttpProtocol.check_timeouts`): a stream
  whose updates the hub writes moves it on;
- `close_after_response`: a refused stream's connection is closed once its answer is out
  (`Http.keep_alive` False: Sanic says `Connection: close` and ends the connection),
  rather than held for the client's next request for KEEP_ALIVE_TIMEOUT (120 s): a client
  refused for want of room would otherwise keep an open file of the server all that time.

tests/live/test_sanic_connection.py fails if a Sanic upgrade renames any of them.
"""

from __future__ import annotations

import time

from sanic import Request


def is_chunked(request: Request) -> bool:
    """Whether the response goes out in HTTP/1.1 chunks (what the hub writes)."""
    http = request.stream
    return bool(http is not None and http.response_func == http.http1_response_chunked)


def mark_written(request: Request) -> None:
    """Tell Sanic the response is being written (it ends a response it has not written
    to for RESPONSE_TIMEOUT; the hub writes this one past it)."""
    protocol = getattr(request.stream, "protocol", None)
    if protocol is not None and hasattr(protocol, "_time"):
        protocol._time = time.monotonic()


def close_after_response(request: Request) -> None:
    """Answer `request` with `Connection: close` and close its connection after the
    answer (Sanic would keep it for the client's next request)."""
    http = request.stream
    if http is not None:
        http.keep_alive = False
