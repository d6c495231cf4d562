"""The durable outbox: what is still to be told to users, kept in the database.

Two kinds of rows in one table (`OutboxItem`):

- `event`: an event whose notifications are still to be worked out, written by
  `record_events` INSIDE the transaction of the change that caused it (so a change that
  committed is never without its notifications, across kill -9 too). The notify worker
  turns each into deliveries (`take_events`, `replace_events`) in one transaction.
- `mail` / `ntfy`: one message to deliver (`queue`), written in the transaction that
  decided it (a verification code's mail with its code). A worker claims due ones for a
  lease (`claim_due`), delivers them, and marks each sent, due again later, or given up.

Delivery is at least once: a worker that dies after delivering and before marking (kill
-9) delivers again once its lease ran out. Times are naive UTC to the microsecond.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import peewee as pw

from corridorquest.store import fast
from corridorquest.store.models import OutboxItem, database

EVENT = "event"
MAIL = "mail"
NTFY = "ntfy"


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


@dataclass(frozen=True)
class Item:
    """One row: `payload` decoded."""

    id: int
    kind: str
    payload: dict[str, Any]
    attempts: int
    created_at: datetime


def _dumps(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


def queue(kind: str, payload: dict[str, Any], due_at: datetime | None = None) -> None:
    """Inside a transaction: one row to work on (`event`) or deliver (`mail`, `ntfy`)."""
    moment = now()
    fast.insert(
        OutboxItem,
        kind=kind,
        payload=_dumps(payload),
        created_at=moment,
        due_at=due_at or moment,
        attempts=0,
        failed=False,
    )


def queue_many(rows: Iterable[tuple[str, dict[str, Any]]]) -> int:
    """Inside a transaction: several rows at once; returns how many."""
    moment = now()
    data = [
        {
            "kind": kind,
            "payload": _dumps(payload),
            "created_at": moment,
            "due_at": moment,
            "attempts": 0,
            "failed": False,
        }
        for kind, payload in rows
    ]
    if data:
        OutboxItem.insert_many(data).execute()
    return len(data)


def record_event(type_name: str, fields: dict[str, Any]) -> None:
    """Inside the transaction of a change: its event, for the notify worker."""
    queue(EVENT, {"type": type_name, "fields": fields})


def _skip_locked(query: pw.ModelSelect) -> pw.ModelSelect:
    """Rows another process's transaction holds are skipped (PostgreSQL), not waited for."""
    if isinstance(database.obj, pw.PostgresqlDatabase):
        return query.for_update(skip_locked=True)
    return query


def _items(rows: Iterable[OutboxItem]) -> list[Item]:
    return [
        Item(row.id, row.kind, json.loads(row.payload), row.attempts, row.created_at)
        for row in rows
    ]


def take_events(limit: int) -> list[Item]:
    """Inside a transaction: up to `limit` recorded events, oldest first (locked on
    PostgreSQL until the transaction ends; rows another worker holds are skipped)."""
    query = (
        OutboxItem.select()
        .where((OutboxItem.kind == EVENT) & OutboxItem.done_at.is_null())
        .order_by(OutboxItem.due_at, OutboxItem.id)  # an event is due when it was made
        .limit(limit)
    )
    return _items(_skip_locked(query))


def replace_events(event_ids: Sequence[int], rows: Iterable[tuple[str, dict[str, Any]]]) -> int:
    """Inside the transaction of `take_events`: the events are worked out; their
    deliveries (`(kind, payload)`) are queued instead. Returns how many were queued."""
    if event_ids:
        OutboxItem.delete().where(OutboxItem.id.in_(list(event_ids))).execute()
    return queue_many(rows)


def claim_due(
    limit: int, lease_seconds: float, kinds: Sequence[str] = (MAIL, NTFY)
) -> list[Item]:
    """Inside a transaction: up to `limit` due rows of each of `kinds` (mail, ntfy) that
    nobody is delivering, now claimed by the caller for `lease_seconds`. (One query per
    kind: each walks the index (kind, done_at, due_at) from its first due row, however
    many events wait beside them.)"""
    moment = now()
    items: list[Item] = []
    for kind in kinds:
        query = (
            OutboxItem.select()
            .where(
                (OutboxItem.kind == kind)
                & OutboxItem.done_at.is_null()
                & (OutboxItem.due_at <= moment)
                & (OutboxItem.claimed_until.is_null() | (OutboxItem.claimed_until < moment))
            )
            .order_by(OutboxItem.due_at, OutboxItem.id)
            .limit(limit)
        )
        items += _items(_skip_locked(query))
    if items:
        until = moment + timedelta(seconds=lease_seconds)
        OutboxItem.update(claimed_until=until).where(
            OutboxItem.id.in_([item.id for item in items])
        ).execute()
    return items


def mark_sent(sent: dict[int, dict[str, Any]]) -> None:
    """Delivered: `sent` maps each row to what is kept of it (its address or topic and
    subject or title: the text itself, a code or a DM, is not kept once delivered)."""
    moment = now()
    for item_id, kept in sent.items():
        OutboxItem.update(
            done_at=moment, claimed_until=None, payload=_dumps(kept)
        ).where(OutboxItem.id == item_id).execute()


def mark_retry(item_id: int, attempts: int, due_at: datetime, error: str) -> None:
    OutboxItem.update(
        attempts=attempts, due_at=due_at, claimed_until=None, error=error[:1000]
    ).where(OutboxItem.id == item_id).execute()


def mark_failed(item_id: int, attempts: int, error: str) -> None:
    """Given up: the row keeps its text (an administrator may make it due again after an
    outage) until OUTBOX_RETENTION; a verification code in it has expired by then."""
    OutboxItem.update(
        attempts=attempts, done_at=now(), failed=True, claimed_until=None, error=error[:1000]
    ).where(OutboxItem.id == item_id).execute()


def release(item_ids: Sequence[int]) -> None:
    """Claimed rows handed back untried: due as they were, for anyone to claim again."""
    if item_ids:
        OutboxItem.update(claimed_until=None).where(OutboxItem.id.in_(list(item_ids))).execute()


def release_claims() -> int:
    """Every claim is void (SQLite at start: this process is the only one delivering)."""
    return int(
        OutboxItem.update(claimed_until=None)
        .where(OutboxItem.claimed_until.is_null(False) & OutboxItem.done_at.is_null())
        .execute()
    )


def next_due() -> datetime | None:
    """When the earliest pending row is due (None: nothing pending)."""
    found = (
        OutboxItem.select(pw.fn.MIN(OutboxItem.due_at))
        .where(OutboxItem.done_at.is_null())
        .scalar()
    )
    if isinstance(found, str):  # SQLite aggregates come back as text
        found = datetime.fromisoformat(found)
    return found  # type: ignore[no-any-return]


def pending() -> dict[str, int]:
    """How many rows of each kind wait (events not worked out, messages not delivered)."""
    rows = (
        OutboxItem.select(OutboxItem.kind, pw.fn.COUNT(OutboxItem.id))
        .where(OutboxItem.done_at.is_null())
        .group_by(OutboxItem.kind)
        .tuples()
    )
    return {kind: int(count) for kind, count in rows}


def purge_done(retention_seconds: int) -> int:
    """Delete delivered and given-up rows older than `retention_seconds` (maintenance)."""
    cutoff = now() - timedelta(seconds=retention_seconds)
    return int(
        OutboxItem.delete()
        .where(OutboxItem.done_at.is_null(False) & (OutboxItem.done_at <= cutoff))
        .execute()
    )
