"""Live streams (server-sent events): a game's changes, and a user's own events.

- `GET /api/v1/games/{id}/events` (`?since=` or `Last-Event-ID` to resume,
  `?invitation_code=` for a private game as `GET /games/{id}` takes it)
- `GET /api/v1/users/me/events`

The hub (corridorquest/live/hub.py) decides what each stream is sent; a handler writes
the stream's chunks out as they come, a comment line when it is idle for
STREAM_KEEPALIVE seconds, and ends when the hub ends the stream (server stop, the game
gone) or the client goes away.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sanic import Blueprint, Request
from sanic.exceptions import RequestCancelled
from sanic.response import HTTPResponse

from corridorquest.api.auth import require_user, watcher
from corridorquest.api.docs import documented, query_parameters
from corridorquest.api.games import checked_id
from corridorquest.api.sessions import client_address
from corridorquest.api.validation import check_text, parse_query
from corridorquest.live import sse
from corridorquest.live.hub import LiveHub, Stream
from corridorquest.services.live_views import parse_cursor

bp = Blueprint("streams", url_prefix="/")
TAG = "live"
RETRY_MS = 2000  # a browser's EventSource waits this long before it reconnects


class StreamQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    since: str | None = Field(
        None,
        max_length=40,
        description="resume after this event id (`<revision>` or `<revision>.<messages>`); "
        "the Last-Event-ID header does the same",
    )
    invitation_code: str | None = Field(None, max_length=64, description="a private game")


def hub_of(request: Request) -> LiveHub:
    hub: LiveHub = request.app.ctx.live.hub
    return hub


async def _serve(request: Request, hub: LiveHub, stream: Stream, first: bytes) -> None:
    response = await request.respond(headers=sse.HEADERS, content_type=sse.CONTENT_TYPE)
    transport = request.transport
    stream.abort = transport.abort if transport is not None else None
    keepalive = request.app.ctx.settings.stream_keepalive
    try:
        assert response is not None
        await response.send(sse.retry(RETRY_MS) + first)
        while stream.queue:  # what came while the first chunk was on its way
            queued, stream.queue = b"".join(stream.queue), []
            await response.send(queued)
        if _chunked(request):  # from now on the hub writes each update itself
            stream.write_to(transport)
        while not stream.closed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stream.signal.wait(), keepalive)
            stream.signal.clear()
            if stream.queue:  # not handed over (not chunked): write what came
                queued, stream.queue = b"".join(stream.queue), []
                await response.send(queued)
            elif not stream.closed:
                await response.send(sse.KEEPALIVE)  # also tells Sanic the response lives
        if not stream.closed or not (transport is None or transport.is_closing()):
            with contextlib.suppress(Exception):
                await response.eof()
    except (RequestCancelled, ConnectionError, asyncio.CancelledError):
        pass  # the client went away, or was dropped for falling behind
    finally:
        hub.close_stream(stream)


def _chunked(request: Request) -> bool:
    """Whether the response goes out in HTTP/1.1 chunks (what `Stream.put` writes)."""
    http = request.stream
    return bool(http is not None and http.response_func == http.http1_response_chunked)


@bp.get("/games/<game_id:int>/events")
@documented(
    "Follow a game live (server-sent events; see docs/api.md, Live streams)",
    tag=TAG,
    ok=(200, None),
    errors=(404, 422, 429),
)
@query_parameters(StreamQuery)
async def game_events(request: Request, game_id: int) -> Any:
    user = await watcher(request)  # public games: anybody, when the server allows it
    query = parse_query(request, StreamQuery)
    last_event_id = request.headers.get("last-event-id")
    check_text(last_event_id)
    since = parse_cursor(last_event_id or query.since)
    hub = hub_of(request)
    stream, first = await hub.open_game(
        user, checked_id(game_id), query.invitation_code, since, client_address(request)
    )
    await _serve(request, hub, stream, first)
    return None


@bp.get("/users/me/events")
@documented(
    "Everything that concerns the caller across its games (server-sent events)",
    tag=TAG,
    ok=(200, None),
    errors=(429,),
)
async def user_events(request: Request) -> HTTPResponse | None:
    user = await require_user(request)
    hub = hub_of(request)
    stream, first = await hub.open_user(user)
    await _serve(request, hub, stream, first)
    return None
