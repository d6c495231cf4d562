"""The notify worker: works out the kept events and delivers the outbox, in the background.

Three loops side by side, each in its own transactions, so that none waits for another:

- events: up to EVENT_BATCH kept events at a time become their e-mails and ntfy messages
  (`audience.deliveries`);
- mail: up to SEND_BATCH due mails are claimed for LEASE_SECONDS, delivered over up to
  SMTP_CONNECTIONS connections side by side, and marked;
- ntfy: due messages are claimed and handed to one task per topic, which publishes them
  one after the other in outbox order (a subscriber reads them in the order they
  happened); the topics go side by side, and the loop goes on claiming while they
  publish, so a slow topic holds nobody else: not the mail (a signup code, a password
  code), not the other topics. Each publish is bounded in all by NTFY_TIMEOUT
  (ntfy.py). When one fails and is to be retried, the messages of its topic behind it
  are not tried now: they become due with it (same order), and the topic's messages
  claimed until then too. A topic's task hands back (untried, due as they were) what it
  has not published after half the lease, so no claim runs out while it is held here.
  What was published is marked in the loop's next round (one transaction for all).

A delivery is marked sent, due again after a back-off (OUTBOX_RETRY_DELAY doubling up to
an hour), or given up after OUTBOX_ATTEMPTS with an ERROR log line (at once for a refusal
a retry cannot mend, such as a 4xx from ntfy).

The loops wake when a commit left rows in the outbox (`OutboxChanged`, published after
it: an event kept, a mail queued; WAKE_DELAY later, so that one round serves a burst; a
commit that kept nothing, such as a move nobody can hear of, wakes nobody) and otherwise
poll every POLL_SECONDS (rows of other
processes on PostgreSQL, retries falling due). After a round a loop asks whether the event
loop has other work waiting (requests: `loop_is_busy`). If so, it sleeps long enough to
take at most SHARE of the loop thread's CPU time: a burst of moves makes the
notifications late, never the moves slow. If not, the next round starts at once, so a
backlog drains at full speed when the server is quiet. (CPU time, not wall time: waiting
for a slow mail or ntfy server does not put the next round off.) Every process may run
one; rows are claimed (SKIP LOCKED on PostgreSQL), so each is delivered by one of them.
A process killed after delivering and before marking delivers again after restart (at
least once)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from datetime import datetime
from typing import Any

from corridorquest.events import OutboxChanged, from_record
from corridorquest.mail import MailConfig, make_backend
from corridorquest.mail.backends import MailBackend
from corridorquest.notify import wording
from corridorquest.notify.address import server_address
from corridorquest.notify.audience import deliveries, keep_rules
from corridorquest.notify.deliveries import Mail
from corridorquest.notify.facts import FactsCache
from corridorquest.notify.loops import Loops
from corridorquest.notify.mail_sending import MailSending
from corridorquest.notify.ntfy import NtfyPublisher
from corridorquest.notify.ntfy_topics import NtfyTopics
from corridorquest.notify.outcomes import Result
from corridorquest.services.context import ServiceContext
from corridorquest.store import DatabaseError, outbox

log = logging.getLogger("corridorquest.notify")

EVENT_BATCH = 50


class NotifyWorker(Loops, MailSending, NtfyTopics):
    def __init__(
        self, ctx: ServiceContext, mail: MailBackend, ntfy: NtfyPublisher | None
    ) -> None:
        self.ctx = ctx
        self.mail = mail
        self.ntfy = ntfy
        self.sender = ctx.settings.mail_from
        self.signature = wording.signature(server_address(ctx.settings).name)
        self._wake = asyncio.Event()  # the events loop
        self._mail_wake = asyncio.Event()
        self._ntfy_wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        # ntfy: the queue of each topic being published, the tasks publishing them, the
        # rows claimed and not yet marked, what is to be marked, the topics held back
        # after a failure (until when)
        self._topics: dict[str, deque[outbox.Item]] = {}
        self._publishing: set[asyncio.Task[None]] = set()
        self._claimed: set[int] = set()
        self._published: list[Result] = []
        self._held: dict[str, datetime] = {}

    @classmethod
    def for_context(cls, ctx: ServiceContext) -> NotifyWorker:
        """The worker of `ctx`'s settings; the writes keep the events it needs from now."""
        for event_type, when in keep_rules(ctx.settings).items():
            ctx.bus.keep(event_type, when)
        mail = make_backend(MailConfig.from_settings(ctx.settings))
        return cls(ctx, mail, NtfyPublisher.from_settings(ctx.settings))

    def start(self) -> None:
        self.ctx.bus.subscribe(OutboxChanged, self._on_event)
        self._task = asyncio.get_running_loop().create_task(self._main(), name="notify")

    async def stop(self) -> None:
        self.ctx.bus.unsubscribe(OutboxChanged, self._on_event)
        tasks = [*([self._task] if self._task is not None else []), *self._publishing]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._task = None
        if self._published:  # mark what went out (or it goes out again after a restart)
            done, self._published = self._published, []
            with contextlib.suppress(Exception):
                await self.ctx.store.transaction(self._record, done)
        if self.ntfy is not None:
            await self.ntfy.close()

    def _on_event(self, event: OutboxChanged) -> None:
        for wake in (self._wake, self._mail_wake, self._ntfy_wake):
            wake.set()

    async def _main(self) -> None:
        if self.ctx.store.is_sqlite:  # one process: no claim of an earlier run holds
            await self.ctx.store.transaction(outbox.release_claims)
        await asyncio.gather(
            self._loop(self.events_round, self._wake),
            self._loop(self.mail_round, self._mail_wake),
            self._loop(self.ntfy_round, self._ntfy_wake),
        )


    async def run_round(self) -> int:
        """One round of each loop (the ntfy messages claimed are being published when it
        returns); how many rows were handled (0: nothing to do now)."""
        return await self.events_round() + await self.mail_round() + await self.ntfy_round()

    async def run_until_idle(self, rounds: int = 1000) -> int:
        """Rounds until nothing is due or being published (tests, `maintenance`); rows
        handled."""
        total = 0
        for _ in range(rounds):
            worked = await self.run_round()
            total += worked
            if self._publishing:
                await asyncio.wait(set(self._publishing))
            elif not worked and not self._published:
                break
        return total

    # -- events -> deliveries ----------------------------------------------------------------

    async def events_round(self) -> int:
        expanded = await self.ctx.store.transaction(self._expand)
        if expanded:  # (they may have made mail and ntfy rows)
            self._mail_wake.set()
            self._ntfy_wake.set()
        return expanded

    def _expand(self) -> int:
        items = outbox.take_events(EVENT_BATCH)
        if not items:
            return 0
        cache = FactsCache()
        rows: list[tuple[str, dict[str, Any]]] = []
        for item in items:
            event = from_record(item.payload.get("type", ""), item.payload.get("fields", {}))
            if event is None:
                log.error("outbox event %d of unknown type dropped: %s", item.id, item.payload)
                continue
            try:
                made = deliveries(event, cache, self.ctx.settings)
            except DatabaseError:
                raise
            except Exception:  # a bug must not hold up every later notification
                log.exception("notifications of %r dropped", event)
                continue
            for delivery in made:
                kind = outbox.MAIL if isinstance(delivery, Mail) else outbox.NTFY
                rows.append((kind, delivery.payload()))
        outbox.replace_events([item.id for item in items], rows)
        return len(items)




def start_notifications(ctx: ServiceContext) -> NotifyWorker:
    """Start this server process's notify worker."""
    worker = NotifyWorker.for_context(ctx)
    worker.start()
    return worker
