"""Server-sent events as bytes (https://html.spec.whatwg.org/multipage/server-sent-events.html).

Each event is `event:`, `id:` (optional) and one `data:` line of compact JSON (which has
no line breaks), then a blank line. A comment line (`: ...`) keeps an idle connection open.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from corridorquest.json_encoding import dumps

KEEPALIVE = b": keepalive\n\n"
HEADERS = {
    "Cache-Control": "no-cache",
    "X-Accel-Buffering": "no",  # nginx: pass each event on at once
}
CONTENT_TYPE = "text/event-stream; charset=utf-8"


def event(name: str, data: Any, event_id: str | None = None) -> bytes:
    try:  # what every event holds (text keys only): orjson at its fastest
        body: bytes | str = orjson.dumps(data)
    except TypeError:  # keys that are not text, integers beyond 64 bits: as the API does
        body = dumps(data)
    if isinstance(body, str):
        body = body.encode()
    head = f"event: {name}\n" if event_id is None else f"event: {name}\nid: {event_id}\n"
    return head.encode() + b"data: " + body + b"\n\n"


def events(items: Iterable[tuple[str, str, Any]]) -> bytes:
    """`(name, id, data)` items as one chunk."""
    return b"".join(event(name, data, event_id) for name, event_id, data in items)


def retry(milliseconds: int) -> bytes:
    """How long a browser waits before it reconnects."""
    return f"retry: {milliseconds}\n\n".encode()
