"""Live streams (server-sent events): a game's changes, and a user's own events.

- `GET /api/v1/games/{id}/events` (`?since=` or `Last-Event-ID` to resume,
  `?invitation_code=` for a private game as `GET /games/{id}` takes it)
- `GET /api/v1/users/me/events`

The hub (corridorquest/live/hub.py) decides what each stream is sent; a handler writes
the stream's chunks out as they come, a comment line when it is idle for
STREAM_KEEPALIVE seconds, and ends when the hub ends the stream (server stop, the game
gone, the session it was opened with ended) or the client goes away. A process holds at
most its bound of stream connections (corridorquest/live/limits.py): one more is 503
`too_many_streams_on_server` with `retry_after`. A refused stream (that 503, a 429 over a
per-user or per-address limit, a 404, ...) is answered with `Connection: close` and its
connection closed at once (`refusals_close`): the clients that a full server refuses must
not keep its open files for the keep-alive time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sanic import Blueprint, Request
from sanic.exceptions import RequestCancelled
from sanic.response import HTTPResponse

from corridorquest.api.auth import require_user, watcher
from corridorquest.api.docs import documented, query_parameters
from corridorquest.api.games import checked_id
from corridorquest.api.sanic_connection import close_after_response, is_chunked, mark_written
from corridorquest.api.sessions import client_address
from corridorquest.api.validation import check_text, parse_query
from corridorquest.live import sse
from corridorquest.live.hub import LiveHub
from corridorquest.live.limits import bound_socket_buffer
from corridorquest.live.output import Out
from corridorquest.live.stream import Stream
from corridorquest.services.errors import Unprocessable
from corridorquest.services.live_views import parse_cursor

bp = Blueprint("streams", url_prefix="/")
TAG = "live"
RETRY_MS = 2000  # a browser's EventSource waits this long before it reconnects
TAKEN_POLL = 0.02  # seconds between looks at a first chunk that is not out yet
STALLED = "it took nothing of its first events for a while"
log = logging.getLogger("corridorquest.live")


class StreamQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    since: str | None = Field(
        None,
        max_length=40,
        description="resume after this event id (`<revision>` or `<revision>.<messages>`); "
        "the Last-Event-ID header does the same",
    )
    invitation_code: str | None = Field(None, max_length=64, description="a private game")


@contextlib.contextmanager
def refusals_close(request: Request) -> Iterator[None]:
    """A refusal raised inside (answered by the error handlers) closes the connection."""
    try:
        yield
    except Exception:
        close_after_response(request)
        raise


def hub_of(request: Request) -> LiveHub:
    hub: LiveHub = request.app.ctx.live.hub
    return hub


async def _serve(request: Request, hub: LiveHub, streams: list[Stream], first: bytes) -> None:
    """Write the streams' updates out as they come (several: one game each, on one
    response); end when the hub ends one of them or the client goes away."""
    transport = request.transport
    bound_socket_buffer(transport)  # before the first chunk: small from the start
    response = await request.respond(headers=sse.HEADERS, content_type=sse.CONTENT_TYPE)
    signal = asyncio.Event()  # one for all: something queued, or a stream ended
    for stream in streams:
        stream.abort = transport.abort if transport is not None else None
        stream.signal = signal
    keepalive = request.app.ctx.settings.stream_keepalive
    out: Out | None = None

    async def write_queued() -> bool:
        queued = b"".join(chunk for stream in streams for chunk in stream.queue)
        for stream in streams:
            stream.queue = []
        if queued:
            await response.send(queued)
        return bool(queued)

    try:
        assert response is not None
        await response.send(sse.retry(RETRY_MS) + first)
        stall = request.app.ctx.settings.stream_stall_timeout
        while True:  # what came while the first chunk was on its way, until all is out
            while await write_queued():
                pass
            if not await _taken(transport, stall):
                log.info("live stream of %s dropped: %s", streams[0].user.username, STALLED)
                transport.abort()
                return
            if not any(stream.queue for stream in streams):
                break
        if is_chunked(request):  # from now on the hub sends each update itself
            out = hub.connect(transport, streams)
        while not any(stream.closed for stream in streams):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(signal.wait(), keepalive)
            signal.clear()
            if await write_queued() or any(s.closed for s in streams):
                continue
            if out is None:
                await response.send(sse.KEEPALIVE)
            else:
                out.put(sse.KEEPALIVE)
                mark_written(request)
        if transport is not None and not transport.is_closing():
            if out is not None:
                await out.finish()  # what was handed over is out: the end goes after it
            with contextlib.suppress(Exception):
                await response.eof()
    except (RequestCancelled, ConnectionError, asyncio.CancelledError):
        pass  # the client went away, or was dropped for falling behind
    finally:
        if out is not None:
            out.let_go()
        for stream in streams:
            stream.end()
            hub.close_stream(stream)


async def _taken(transport: Any, stall: float) -> bool:
    """Wait until the connection took everything written to it so far (the hub's writes
    then start from an empty buffer, which its bound per reader counts from); False when
    it took nothing for `stall` seconds or closed."""
    if transport is None:
        return True
    held = transport.get_write_buffer_size()
    since = time.monotonic()
    while held:
        if transport.is_closing():
            return False
        await asyncio.sleep(TAKEN_POLL)
        now_held = transport.get_write_buffer_size()
        if now_held < held:
            since = time.monotonic()
        elif time.monotonic() - since > stall:
            return False
        held = now_held
    return True


@bp.get("/games/<game_id:int>/events")
@documented(
    "Follow a game live (server-sent events; see docs/api.md, Live streams)",
    tag=TAG,
    ok=(200, None),
    errors=(404, 422, 429, 503),
    secured="optional",  # watching without login (WEB_WATCH_WITHOUT_LOGIN)
    media=("text/event-stream", "a stream of server-sent events"),
)
@query_parameters(StreamQuery)
async def game_events(request: Request, game_id: int) -> Any:
    hub = hub_of(request)
    with refusals_close(request):
        user = await watcher(request)  # public games: anybody, when the server allows it
        query = parse_query(request, StreamQuery)
        last_event_id = request.headers.get("last-event-id")
        check_text(last_event_id)
        since = parse_cursor(last_event_id or query.since)
        hub.admit_connection()
    try:
        with refusals_close(request):
            stream, first = await hub.open_game(
                user, checked_id(game_id), query.invitation_code, since,
                client_address(request),
            )
        await _serve(request, hub, [stream], first)
    finally:
        hub.release_connection()
    return None


MAX_GAMES = 16


class ManyQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ids: str | None = Field(
        None, max_length=400, description=f"game ids, comma-separated (1 to {MAX_GAMES})"
    )


@bp.get("/games/events")
@documented(
    "Follow several games on one stream (a page of boards; no resume)",
    tag=TAG,
    ok=(200, None),
    errors=(404, 422, 429, 503),
    secured="optional",  # watching without login (WEB_WATCH_WITHOUT_LOGIN)
    media=("text/event-stream", "a stream of server-sent events"),
)
@query_parameters(ManyQuery)
async def many_games_events(request: Request) -> Any:
    hub = hub_of(request)
    with refusals_close(request):
        user = await watcher(request)
        query = parse_query(request, ManyQuery)
        try:
            ids = list(dict.fromkeys(int(part) for part in (query.ids or "").split(",")))
        except ValueError:
            ids = []
        if not 1 <= len(ids) <= MAX_GAMES:
            raise Unprocessable(
                "invalid_game_ids", f"ids: 1 to {MAX_GAMES} game ids separated by commas"
            )
        hub.admit_connection()
    try:
        streams: list[Stream] = []
        chunks: list[bytes] = []
        try:
            with refusals_close(request):
                for game_id in ids:
                    stream, chunk = await hub.open_game(
                        user, checked_id(game_id), None, None, client_address(request)
                    )
                    streams.append(stream)
                    chunks.append(chunk)
        except BaseException:
            for stream in streams:
                hub.close_stream(stream)
            raise
        await _serve(request, hub, streams, b"".join(chunks))
    finally:
        hub.release_connection()
    return None


@bp.get("/users/me/events")
@documented(
    "Everything that concerns the caller across its games (server-sent events)",
    tag=TAG,
    ok=(200, None),
    errors=(429, 503),
    media=("text/event-stream", "a stream of server-sent events"),
)
async def user_events(request: Request) -> HTTPResponse | None:
    hub = hub_of(request)
    with refusals_close(request):
        user = await require_user(request)
        hub.admit_connection()
    try:
        with refusals_close(request):
            stream, first = await hub.open_user(user)
        await _serve(request, hub, [stream], first)
    finally:
        hub.release_connection()
    return None
