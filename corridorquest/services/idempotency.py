"""Idempotency keys: a retried write (same user, same key) returns the first answer.

The stored answer is written in the SAME transaction as the write it answers, so a
write and its record commit together or not at all; concurrent requests with one key
wait for each other (`store.transaction_lock`), so the later one finds the answer.
Only successful answers are kept: a refused request changed nothing and may be retried
with the same key. A key reused for a different request (another method or path, or
another body or query: the API passes a `RequestKey` that carries a hash of them, kept
with the answer) is refused with 422 `idempotency_key_reused`. Keys older than RETENTION
are purged by maintenance.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from corridorquest.services.errors import Unprocessable
from corridorquest.store import transaction_lock
from corridorquest.store.idempotency_rows import store_answer, stored_answer
from corridorquest.store.models import IdempotentResponse, utcnow

MAX_KEY_LENGTH = 255
RETENTION = timedelta(days=1)

Answer = tuple[int, Any]  # (HTTP status, JSON body)
_HASHED = " sha256:"  # in a stored scope: "play game 4 sha256:<hex>"


class RequestKey(str):
    """An Idempotency-Key's value that also knows the request it came with: the hex
    SHA-256 of its method, path, query and body (`api.games.idempotency_key`). A plain
    str key (a caller without a request) is compared by method and path only."""

    request_hash: str

    def __new__(cls, value: str, request_hash: str) -> RequestKey:
        key = super().__new__(cls, value)
        key.request_hash = request_hash
        return key


def check_key(key: str | None) -> str | None:
    """The key, stripped (still a `RequestKey` if it was one); 422 if it is not valid."""
    if key is None:
        return None
    original, key = key, key.strip()
    # Printable ASCII only: a header sent as raw bytes arrives as surrogate escapes, which
    # no database can store.
    if not key or len(key) > MAX_KEY_LENGTH or not (key.isascii() and key.isprintable()):
        raise Unprocessable(
            "invalid_idempotency_key",
            f"Idempotency-Key must be 1 to {MAX_KEY_LENGTH} printable ASCII characters",
        )
    return RequestKey(key, hashed) if (hashed := _request_hash(original)) else key


def _request_hash(key: str | None) -> str:
    return getattr(key, "request_hash", "")


def _same_request(stored: str, scope: str, request_hash: str) -> bool:
    """Whether a stored scope (method and path, then the request's hash if it had one:
    answers stored before hashes were kept have none) names this request."""
    stored_scope, _, stored_hash = stored.partition(_HASHED)
    if stored_scope != scope:
        return False
    return not (stored_hash and request_hash) or stored_hash == request_hash


def once(user_id: int, key: str | None, scope: str, write: Callable[[], Answer]) -> Answer:
    """Inside a transaction: the stored answer for (user, key), or run `write` and store it."""
    if key is None:
        return write()
    transaction_lock(f"idempotency:{user_id}:{key}")
    previous = stored_answer(user_id, key)
    request_hash = _request_hash(key)
    if previous is not None:
        if not _same_request(previous.scope, scope, request_hash):
            raise Unprocessable(
                "idempotency_key_reused",
                "this Idempotency-Key was already used for a different request "
                "(another method, path or body)",
            )
        return previous.status, json.loads(previous.body)
    status, body = write()
    stored = f"{scope}{_HASHED}{request_hash}" if request_hash else scope
    store_answer(user_id, str(key), stored, status, json.dumps(body))
    return status, body


def purge_expired() -> int:
    """Delete records older than RETENTION (inside a transaction); returns how many."""
    cutoff = utcnow() - RETENTION
    deleted: int = (
        IdempotentResponse.delete().where(IdempotentResponse.created_at < cutoff).execute()
    )
    return deleted
