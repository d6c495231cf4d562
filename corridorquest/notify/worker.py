"""The notify worker: works out the kept events and delivers the outbox, in the background.

Each round, in its own transactions: up to EVENT_BATCH kept events become their e-mails
and ntfy messages (`audience.deliveries`); then up to SEND_BATCH due messages are claimed
for LEASE_SECONDS, delivered (mail over up to SMTP_CONNECTIONS connections side by side;
ntfy concurrently, but the messages of one topic in order), and marked sent, due again
after a back-off (OUTBOX_RETRY_DELAY doubling up to an hour), or given up after
OUTBOX_ATTEMPTS with an ERROR log line (at once for a refusal a retry cannot mend, such as
a 4xx from ntfy).

It wakes on every event the bus publishes (after each commit; WAKE_DELAY later, so that
one round serves a burst) and otherwise polls every POLL_SECONDS (rows of other
processes on PostgreSQL, retries falling due). After a round it asks whether the event
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
from datetime import timedelta
from typing import Any

from corridorquest.events import Event, from_record
from corridorquest.mail import MailConfig, make_backend
from corridorquest.mail.backends import MailBackend, deliver_all
from corridorquest.mail.message import build_message
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


PROBE = 0.001  # seconds


async def loop_is_busy() -> bool:
    """Whether other work is waiting on this event loop: how late a short timer fires.
    (A timer, not a bare yield: the loop polls its sockets before it runs timers, so the
    requests that wait there are counted; a yield comes back before they are even seen.)"""
    loop = asyncio.get_running_loop()
    began = loop.time()
    await asyncio.sleep(PROBE)
    return loop.time() - began > PROBE + BUSY_LAG


class NotifyWorker:
    def __init__(
        self, ctx: ServiceContext, mail: MailBackend, ntfy: NtfyPublisher | None
    ) -> None:
        self.ctx = ctx
        self.mail = mail
        self.ntfy = ntfy
        self.sender = ctx.settings.mail_from
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

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
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self.ntfy is not None:
            await self.ntfy.close()

    def _on_event(self, event: Event) -> None:
        self._wake.set()

    async def _main(self) -> None:
        if self.ctx.store.is_sqlite:  # one process: no claim of an earlier run holds
            await self.ctx.store.transaction(outbox.release_claims)
        while True:
            self._wake.clear()
            started = time.thread_time()  # (waits on the network do not count)
            try:
                worked = await self.run_round()
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
                await asyncio.wait_for(self._wake.wait(), POLL_SECONDS)
            except TimeoutError:
                continue
            await asyncio.sleep(WAKE_DELAY)  # what the same burst commits comes along

    async def run_round(self) -> int:
        """Work out one batch of events and deliver one batch of due messages; how many
        rows were handled (0: nothing to do now)."""
        expanded = await self.ctx.store.transaction(self._expand)
        items = await self.ctx.store.transaction(outbox.claim_due, SEND_BATCH, LEASE_SECONDS)
        if items:
            await self._deliver(items)
        return expanded + len(items)

    async def run_until_idle(self, rounds: int = 1000) -> int:
        """Rounds until nothing is due (tests, `maintenance`); rows handled."""
        total = 0
        for _ in range(rounds):
            worked = await self.run_round()
            if not worked:
                break
            total += worked
        return total

    # -- events -> deliveries ----------------------------------------------------------------

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

    # -- delivery ------------------------------------------------------------------------------

    async def _deliver(self, items: list[outbox.Item]) -> None:
        """Deliver a batch: the mails and the ntfy messages side by side (a slow mail
        server does not hold ntfy back, nor the other way round)."""
        mails = [item for item in items if item.kind == outbox.MAIL]
        pushes = [item for item in items if item.kind == outbox.NTFY]
        mailed, published = await asyncio.gather(self._send_mails(mails), self._push(pushes))
        results = [*zip(mails, mailed, strict=True), *zip(pushes, published, strict=True)]
        await self.ctx.store.transaction(self._record, results)

    async def _send_mails(self, mails: list[outbox.Item]) -> list[Exception | None]:
        if not mails:
            return []
        messages = [
            build_message(self.sender, m.payload["to"], m.payload["subject"], m.payload["body"])
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

    async def _push(self, pushes: list[outbox.Item]) -> list[BaseException | None]:
        if not pushes:
            return []
        if self.ntfy is None:
            return [PublishRefused("NTFY_URL is not set any more") for _ in pushes]
        return await self._publish(self.ntfy, pushes)

    @staticmethod
    async def _publish(
        ntfy: NtfyPublisher, pushes: list[outbox.Item]
    ) -> list[BaseException | None]:
        """Publish `pushes`: topics concurrently, the messages of one topic one after the
        other in outbox order (a subscriber reads them in the order they happened)."""
        by_topic: dict[str, list[outbox.Item]] = {}
        for item in pushes:
            by_topic.setdefault(str(item.payload.get("topic")), []).append(item)
        outcomes: dict[int, BaseException | None] = {}

        async def in_order(items: list[outbox.Item]) -> None:
            for item in items:
                try:
                    await ntfy.publish(item.payload)
                    outcomes[item.id] = None
                except Exception as error:
                    outcomes[item.id] = error

        await asyncio.gather(*(in_order(items) for items in by_topic.values()))
        return [outcomes[item.id] for item in pushes]

    def _record(self, results: list[tuple[outbox.Item, BaseException | None]]) -> None:
        settings = self.ctx.settings
        sent: dict[int, dict[str, Any]] = {}
        for item, error in results:
            if error is None:
                sent[item.id] = _kept(item)
                continue
            attempts = item.attempts + 1
            where = _where(item)
            if isinstance(error, PublishRefused) or attempts >= settings.outbox_attempts:
                log.error(
                    "%s to %s given up after %d attempt%s: %s",
                    item.kind, where, attempts, "s" if attempts != 1 else "", error,
                )
                outbox.mark_failed(item.id, attempts, str(error) or type(error).__name__)
                continue
            delay = min(settings.outbox_retry_delay * 2 ** (attempts - 1), MAX_RETRY_DELAY)
            log.warning(
                "%s to %s failed (attempt %d of %d, again in %.0f s): %s",
                item.kind, where, attempts, settings.outbox_attempts, delay, error,
            )
            due = outbox.now() + timedelta(seconds=delay)
            outbox.mark_retry(item.id, attempts, due, str(error) or type(error).__name__)
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
