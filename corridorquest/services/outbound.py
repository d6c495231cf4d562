"""What a write leaves for the notify worker, in the write's own transaction.

- `keep_events(ctx, events)`: the events a subscriber asked the bus to keep
  (`EventBus.keep`: notifications) are stored with the change that made them;
- `queue_mail(to, subject, body)`: one e-mail the service itself words (a verification
  code, a notice to an old address), stored with the change that decided it.

After the commit the service publishes its events as always, and `OutboxChanged` when it
kept an event or queued mail (`wake`), which alone wakes the worker (store/outbox.py
holds the rows; nothing here delivers anything, so a request never waits for a mail
server).
"""

from __future__ import annotations

from collections.abc import Sequence

from corridorquest.events import Event, OutboxChanged, to_record
from corridorquest.services.context import ServiceContext
from corridorquest.store import outbox
from corridorquest.store.models import GamePlayer


def keep_events(
    ctx: ServiceContext, events: Sequence[Event], players: Sequence[GamePlayer] | None = None
) -> bool:
    """Inside the transaction of a change: store its events that are to be kept, and
    announce them to the other server processes (`ctx.announce`, PostgreSQL: a NOTIFY
    that goes out with the commit, for their live streams). `players`: those of the game
    the change loaded, with their users (a keep rule may ask who could hear an event).
    Whether any was kept: then `wake` the worker after the commit."""
    kept = ctx.bus.kept(list(events), players)
    for event in kept:
        outbox.record_event(*to_record(event))
    if ctx.announce is not None and events:
        ctx.announce(events)
    return bool(kept)


def queue_mail(to: str, subject: str, body: str) -> None:
    """Inside a transaction: one plain-text e-mail to deliver after the commit."""
    outbox.queue(outbox.MAIL, {"to": to, "subject": subject, "body": body})


def wake(ctx: ServiceContext) -> None:
    """After the commit of a transaction that called `queue_mail`, or in which
    `keep_events` kept an event: the notify worker has rows to work on."""
    ctx.bus.publish(OutboxChanged())
