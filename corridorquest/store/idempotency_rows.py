"""The stored answers of writes that carried an Idempotency-Key: the lookup and the insert
every keyed write makes (`cq` sends a key with every move, and a bot's move carries one).

Statements whose SQL is built once (`store.fast`): built by peewee every time, the two
cost about as much as the move they guard (benchmarks/README.md, "A bot ply's cost to
the server").
"""

from __future__ import annotations

from typing import NamedTuple

from corridorquest.store import fast
from corridorquest.store.models import IdempotentResponse, utcnow


class StoredAnswer(NamedTuple):
    scope: str  # "method path", then " sha256:<hex>" of the request when it was known
    status: int
    body: str  # JSON


_SQL = {
    True: f'SELECT "scope", "status", "body" FROM {fast.table(IdempotentResponse)} '
    'WHERE "user_id" = ? AND "key" = ?',
}
_SQL[False] = _SQL[True].replace("?", "%s")  # PostgreSQL's placeholder


def stored_answer(user_id: int, key: str) -> StoredAnswer | None:
    """The answer stored for (user, key), if any (inside a transaction)."""
    row = fast.execute(_SQL[fast.is_sqlite()], (user_id, key)).fetchone()
    return None if row is None else StoredAnswer(row[0], int(row[1]), row[2])


def store_answer(user_id: int, key: str, scope: str, status: int, body: str) -> None:
    """Keep the answer of (user, key) (inside the transaction of the write it answers)."""
    fast.insert(
        IdempotentResponse,
        user=user_id, key=key, scope=scope, status=status, body=body, created_at=utcnow(),
    )
