"""Live streams: server-sent events of a game's changes and of a user's own events.

- `hub.py`: this process's open streams (`stream.py`), their bounds and sessions;
- `looks.py`: what each stream is sent after a change (through services.live_views);
- `relay.py`: PostgreSQL LISTEN/NOTIFY, so that a change made by one server process
  reaches the streams held by every other one;
- `output.py`: a stream's connection, the one way its updates leave (`Out`);
- `sse.py`: the wire format;
- `limits.py`: how many streams a process holds, and what they may hold unsent.

`start_live(ctx)` starts them with the server; `LiveService.close()` ends every stream.
"""

from __future__ import annotations

from corridorquest.live.hub import LiveHub
from corridorquest.live.relay import Relay
from corridorquest.services.context import ServiceContext


class LiveService:
    """The hub, and the relay when there are other processes to hear from."""

    def __init__(self, hub: LiveHub, relay: Relay | None) -> None:
        self.hub = hub
        self.relay = relay

    async def close(self) -> None:
        await self.hub.close()
        if self.relay is not None:
            await self.relay.stop()


async def start_live(ctx: ServiceContext) -> LiveService:
    hub = LiveHub(ctx)
    relay = None
    if not ctx.store.is_sqlite:  # SQLite: one process, the bus carries everything
        relay = Relay(ctx, hub)
        await relay.start()
    return LiveService(hub, relay)
