"""Idempotency keys: a retried write (same user, same key) returns the first answer.

The stored answer is written in the SAME transaction as the write it answers, so a
write and its record commit together or not at all; concurrent requests with one key
wait for each other (`store.transaction_lock`), so the later one finds the answer.
Only successful answers are kept: a refused request changed nothing and may be retried
with the same key. A key reused for a different request (another method or path) is
refused with 422 `idempotency_key_reused`. Keys older than RETENTION are purged by maintenance.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from corridorquest.services.errors import Unprocessable
from corridorquest.store import transaction_lock
from corridorquest.store.models import IdempotentResponse, utcnow

MAX_KEY_LENGTH = 255
RETENTION = timedelta(days=1)

Answer = tuple[int, Any]  # (HTTP status, JSON body)


def check_key(key: str | None) -> str | None:
    if key is None:
        return None
    key = key.strip()
    # Printable ASCII only: a header sent as raw bytes arrives as surrogate escapes, which
    # no database can store.
    if not key or len(key) > MAX_KEY_LENGTH or not (key.isascii() and key.isprintable()):
        raise Unprocessable(
            "invalid_idempotency_key",
            f"Idempotency-Key must be 1 to {MAX_KEY_LENGTH} printable ASCII characters",
        )
    return key


def once(user_id: int, key: str | None, scope: str, write: Callable[[], Answer]) -> Answer:
    """Inside a transaction: the stored answer for (user, key), or run `write` and store it."""
    if key is None:
        return write()
    transaction_lock(f"idempotency:{user_id}:{key}")
    previous = IdempotentResponse.get_or_none(
        (IdempotentResponse.user == user_id) & (IdempotentResponse.key == key)
    )
    if previous is not None:
        if previous.scope != scope:
            raise Unprocessable(
                "idempotency_key_reused",
                "this Idempotency-Key was already used for a different request",
            )
        return int(previous.status), json.loads(previous.body)
    status, body = write()
    IdempotentResponse.create(
        user=user_id, key=key, scope=scope, status=status, body=json.dumps(body)
    )
    return status, body


def purge_expired() -> int:
    """Delete records older than RETENTION (inside a transaction); returns how many."""
    cutoff = utcnow() - RETENTION
    deleted: int = (
        IdempotentResponse.delete().where(IdempotentResponse.created_at < cutoff).execute()
    )
    return deleted
