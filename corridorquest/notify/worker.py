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

The loops wake on every event the bus publishes (after each commit; WAKE_DELAY later, so
that one round serves a burst) and otherwise poll every POLL_SECONDS (rows of other
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
import time
from collections import deque
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from corridorquest.events import Event, from_record
from corridorquest.mail import MailConfig, make_backend
from corridorquest.mail.backends import MailBackend, deliver_all
from corridorquest.mail.message import build_message
from corridorquest.notify import wording
from corridorquest.notify.address import server_address
from corridorquest.notify.audience import KEPT_EVENTS, Mail, deliveries
from corridorquest.notify.facts import FactsCache
from corridorquest.notify.ntfy import NtfyPublisher, PublishRefused
from corridorquest.services.context import ServiceContext
from corridorquest.store import (
    DatabaseBusy,
    DatabaseError,
    InterfaceError,
    OperationalError,
    outbox,
)

log = logging.getLogger("corridorquest.notify")

EVENT_BATCH = 50
SEND_BATCH = 60  # per kind (mail, ntfy)
SMTP_CONNECTIONS = 4  # a batch's mails go over up to this many connections side by side
LEASE_SECONDS = 120.0
POLL_SECONDS = 1.0
WAKE_DELAY = 0.05  # after a wake-up: one round for a burst of commits, not one per commit
SHARE = 0.05
BUSY_LAG = 0.002  # seconds: a loop that takes longer to come back has requests waiting
MAX_PAUSE = 2.0
MAX_RETRY_DELAY = 3600.0
MAX_PUBLISHING = 2 * SEND_BATCH  # ntfy messages claimed and not yet marked, at most
MAX_HELD = 1000  # topics held back after a failure, remembered before the past ones go


PROBE = 0.001  # seconds


async def loop_is_busy() -> bool:
    """Whether other work is waiting on this event loop: how late a short timer fires.
    (A timer, not a bare yield: the loop polls its sockets before it runs timers, so the
    requests that wait there are counted; a yield comes back before they are even seen.)"""
    loop = asyncio.get_running_loop()
    began = loop.time()
    await asyncio.sleep(PROBE)
    return loop.time() - began > PROBE + BUSY_LAG


# What became of a delivery (besides None: sent, and an exception: failed)
DEFERRED = "deferred"  # not tried: an earlier message of its topic failed, due with it
RELEASED = "released"  # not tried: handed back, due as it was

Outcome = BaseException | str | None
Result = tuple[outbox.Item, Outcome, datetime | None]  # the item, its outcome, due again


class NotifyWorker:
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
        for event_type in KEPT_EVENTS:
            ctx.bus.keep(event_type)
        mail = make_backend(MailConfig.from_settings(ctx.settings))
        return cls(ctx, mail, NtfyPublisher.from_settings(ctx.settings))

    def start(self) -> None:
        self.ctx.bus.subscribe(Event, self._on_event)
        self._task = asyncio.get_running_loop().create_task(self._main(), name="notify")

    async def stop(self) -> None:
        self.ctx.bus.unsubscribe(Event, self._on_event)
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

    def _on_event(self, event: Event) -> None:
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

    async def _loop(self, round_: Callable[[], Awaitable[int]], wake: asyncio.Event) -> None:
        while True:
            wake.clear()
            started = time.thread_time()  # (waits on the network do not count)
            try:
                worked = await round_()
            except asyncio.CancelledError:
                raise
            except DatabaseBusy as busy:
                log.warning("notifications put off: %s", busy)
                worked = 0
            except (OperationalError, InterfaceError) as error:  # the database went away
                # (PostgreSQL restarted, a connection cut): expected, and said without a
                # traceback; the next round, on a new connection, takes up the work
                said = str(error).strip()
                reason = said.splitlines()[0] if said else type(error).__name__
                log.warning("notifications put off: the database is away (%s)", reason)
                worked = 0
            except Exception:
                log.exception("notify worker round failed")
                worked = 0
            if worked:
                if await loop_is_busy():
                    spent = time.thread_time() - started
                    await asyncio.sleep(min(MAX_PAUSE, spent * (1 / SHARE - 1)))
                continue
            try:
                await asyncio.wait_for(wake.wait(), POLL_SECONDS)
            except TimeoutError:
                continue
            await asyncio.sleep(WAKE_DELAY)  # what the same burst commits comes along

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

    # -- mail ----------------------------------------------------------------------------------

    async def mail_round(self) -> int:
        """Claim, deliver and mark one batch of due mails; how many."""
        items = await self.ctx.store.transaction(
            outbox.claim_due, SEND_BATCH, LEASE_SECONDS, (outbox.MAIL,)
        )
        if items:
            mailed = await self._send_mails(items)
            results: list[Result] = [
                (item, error, None) for item, error in zip(items, mailed, strict=True)
            ]
            await self.ctx.store.transaction(self._record, results)
        return len(items)

    async def _send_mails(self, mails: list[outbox.Item]) -> list[Exception | None]:
        messages = [
            build_message(
                self.sender, m.payload["to"], m.payload["subject"],
                m.payload["body"].rstrip("\n") + "\n\n" + self.signature,
            )
            for m in mails
        ]
        # One connection per chunk, the chunks side by side; all the mails of one
        # recipient in one chunk, in outbox order (read in the order they happened).
        chunks: list[list[int]] = [[] for _ in range(min(SMTP_CONNECTIONS, len(messages)))]
        recipients: dict[str, int] = {}
        for index, mail in enumerate(mails):
            to = str(mail.payload["to"]).lower()
            slot = recipients.setdefault(to, len(recipients) % len(chunks))
            chunks[slot].append(index)
        chunks = [chunk for chunk in chunks if chunk]
        done = await asyncio.gather(
            *(deliver_all(self.mail, [messages[i] for i in chunk]) for chunk in chunks)
        )
        results: list[Exception | None] = [None] * len(messages)
        for chunk, outcome in zip(chunks, done, strict=True):
            for index, result in zip(chunk, outcome, strict=True):
                results[index] = result
        return results

    # -- ntfy ----------------------------------------------------------------------------------

    async def ntfy_round(self) -> int:
        """Mark what the topics' tasks published since the last round, then claim due
        messages and hand them to their topics' tasks (without waiting for them); how many
        rows were handled."""
        done, self._published = self._published, []
        if done:
            try:
                await self.ctx.store.transaction(self._record, done)
            except BaseException:
                self._published[:0] = done  # marked in a later round
                raise
            self._claimed.difference_update(item.id for item, _, _ in done)
        room = MAX_PUBLISHING - len(self._claimed)
        if room <= 0:
            return len(done)
        items = await self.ctx.store.transaction(
            outbox.claim_due, min(SEND_BATCH, room), LEASE_SECONDS, (outbox.NTFY,)
        )
        fresh = [item for item in items if item.id not in self._claimed]  # (else: its
        # claim ran out while its topic was slow, and is renewed now)
        if fresh and self.ntfy is None:
            gone = PublishRefused("NTFY_URL is not set any more")
            await self.ctx.store.transaction(
                self._record, [(item, gone, None) for item in fresh]
            )
            return len(done) + len(fresh)
        moment = outbox.now()
        if len(self._held) > MAX_HELD:
            self._held = {topic: due for topic, due in self._held.items() if due > moment}
        for item in fresh:
            self._claimed.add(item.id)
            topic = str(item.payload.get("topic"))
            held = self._held.get(topic)
            if held is not None and held > moment:
                self._published.append((item, DEFERRED, held))
                continue
            self._held.pop(topic, None)
            queue = self._topics.get(topic)
            if queue is None:
                queue = self._topics[topic] = deque()
                task = asyncio.get_running_loop().create_task(
                    self._publish_topic(topic, queue), name=f"ntfy {topic}"
                )
                self._publishing.add(task)
                task.add_done_callback(self._publishing.discard)
            queue.append(item)
        if self._published:
            self._ntfy_wake.set()  # the deferred ones are marked next round
        return len(done) + len(fresh)

    async def _publish_topic(self, topic: str, queue: deque[outbox.Item]) -> None:
        """Publish the messages of `topic` one after the other, as they are queued."""
        assert self.ntfy is not None
        loop = asyncio.get_running_loop()
        began = loop.time()
        try:
            while queue:
                if loop.time() - began > LEASE_SECONDS / 2:  # before their claims run out
                    self._published += [(item, RELEASED, None) for item in queue]
                    queue.clear()
                    break
                item = queue.popleft()
                try:
                    await self.ntfy.publish(item.payload)
                    self._published.append((item, None, None))
                except Exception as error:
                    due = None
                    if not self._gives_up(item, error):
                        due = outbox.now() + timedelta(seconds=self._retry_delay(item))
                        self._held[topic] = due  # the rest of the topic comes with it
                        self._published += [(rest, DEFERRED, due) for rest in queue]
                        queue.clear()
                    self._published.append((item, error, due))
                self._ntfy_wake.set()
        finally:
            if self._topics.get(topic) is queue:
                del self._topics[topic]
            self._ntfy_wake.set()

    # -- marking -------------------------------------------------------------------------------

    def _gives_up(self, item: outbox.Item, error: BaseException) -> bool:
        return (
            isinstance(error, PublishRefused)
            or item.attempts + 1 >= self.ctx.settings.outbox_attempts
        )

    def _retry_delay(self, item: outbox.Item) -> float:
        delay = self.ctx.settings.outbox_retry_delay * 2 ** item.attempts
        return float(min(delay, MAX_RETRY_DELAY))

    def _record(self, results: list[Result]) -> None:
        settings = self.ctx.settings
        sent: dict[int, dict[str, Any]] = {}
        released: list[int] = []
        for item, outcome, due in results:
            if outcome is None:
                sent[item.id] = _kept(item)
                continue
            if outcome == RELEASED:
                released.append(item.id)
                continue
            if outcome == DEFERRED:
                assert due is not None
                outbox.mark_retry(
                    item.id, item.attempts, due, "waits for an earlier message of its topic"
                )
                continue
            error = outcome
            attempts = item.attempts + 1
            where = _where(item)
            if isinstance(error, BaseException) and self._gives_up(item, error):
                log.error(
                    "%s to %s given up after %d attempt%s: %s",
                    item.kind, where, attempts, "s" if attempts != 1 else "", error,
                )
                outbox.mark_failed(item.id, attempts, str(error) or type(error).__name__)
                continue
            delay = self._retry_delay(item)
            log.warning(
                "%s to %s failed (attempt %d of %d, again in %.0f s): %s",
                item.kind, where, attempts, settings.outbox_attempts, delay, error,
            )
            due = due or outbox.now() + timedelta(seconds=delay)
            outbox.mark_retry(item.id, attempts, due, str(error) or type(error).__name__)
        outbox.release(released)
        outbox.mark_sent(sent)


def _where(item: outbox.Item) -> str:
    return str(item.payload.get("to") or item.payload.get("topic") or "?")


def _kept(item: outbox.Item) -> dict[str, Any]:
    """What stays of a delivered row: where it went and its subject or title."""
    payload = item.payload
    if item.kind == outbox.MAIL:
        return {"to": payload.get("to"), "subject": payload.get("subject")}
    return {
        "topic": payload.get("topic"),
        "title": payload.get("title"),
        "tags": payload.get("tags"),
    }


def start_notifications(ctx: ServiceContext) -> NotifyWorker:
    """Start this server process's notify worker."""
    worker = NotifyWorker.for_context(ctx)
    worker.start()
    return worker
