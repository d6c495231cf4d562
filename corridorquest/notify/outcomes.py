"""What became of the deliveries a loop claimed, and how the outbox rows are marked:
sent, due again after a back-off, or given up (see worker.py)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from corridorquest.notify.ntfy import PublishRefused
from corridorquest.services.context import ServiceContext
from corridorquest.store import outbox

log = logging.getLogger("corridorquest.notify")

SEND_BATCH = 60  # per kind (mail, ntfy)
LEASE_SECONDS = 120.0
MAX_RETRY_DELAY = 3600.0

# What became of a delivery (besides None: sent, and an exception: failed)
DEFERRED = "deferred"  # not tried: an earlier message of its topic failed, due with it
RELEASED = "released"  # not tried: handed back, due as it was

Outcome = BaseException | str | None
Result = tuple[outbox.Item, Outcome, datetime | None]  # the item, its outcome, due again


class Marking:
    ctx: ServiceContext

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
