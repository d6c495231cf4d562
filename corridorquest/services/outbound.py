"""What a write leaves for the notify worker, in the write's own transaction.

- `keep_events(ctx, events)`: the events a subscriber asked the bus to keep
  (`EventBus.keep`: notifications) are stored with the change that made them;
- `queue_mail(to, subject, body)`: one e-mail the service itself words (a verification
  code, a notice to an old address), stored with the change that decided it.

After the commit the service publishes its events as always, and `OutboxChanged` when it
queued mail alone, which wakes the worker (store/outbox.py holds the rows; nothing here
delivers anything, so a request never waits for a mail server).
"""

from __future__ import annotations

from collections.abc import Sequence

from corridorquest.events import Event, OutboxChanged, to_record
from corridorquest.services.context import ServiceContext
from corridorquest.store import outbox


def keep_events(ctx: ServiceContext, events: Sequence[Event]) -> None:
    """Inside the transaction of a change: store its events that are to be kept, and
    announce them to the other server processes (`ctx.announce`, PostgreSQL: a NOTIFY
    that goes out with the commit, for their live streams)."""
    for event in ctx.bus.kept(list(events)):
        outbox.record_event(*to_record(event))
    if ctx.announce is not None and events:
        ctx.announce(events)


def queue_mail(to: str, subject: str, body: str) -> None:
    """Inside a transaction: one plain-text e-mail to deliver after the commit."""
    outbox.queue(outbox.MAIL, {"to": to, "subject": subject, "body": body})


def wake(ctx: ServiceContext) -> None:
    """After the commit of a transaction that called `queue_mail`."""
    ctx.bus.publish(OutboxChanged())
