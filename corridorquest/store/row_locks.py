"""Locks a transaction takes on PostgreSQL (on SQLite the loop serialises transactions)."""

from __future__ import annotations

from typing import TypeVar

import peewee as pw

from corridorquest.store.models import database

M = TypeVar("M", bound=pw.Model)


def lock_for_update(query: pw.ModelSelect[M]) -> pw.ModelSelect[M]:
    """`SELECT ... FOR UPDATE` where the database has row locks (PostgreSQL).

    On SQLite the loop already serialises every transaction of the process.
    """
    if isinstance(database.obj, pw.PostgresqlDatabase):
        return query.for_update()
    return query


def transaction_lock(name: str) -> None:
    """Inside a transaction: wait for and hold a lock on `name` until it ends.

    PostgreSQL: a transaction-scoped advisory lock, so concurrent transactions about the
    same thing (one idempotency key) run one after the other and the later one sees what
    the earlier committed. SQLite: nothing to do (the loop serialises transactions).
    """
    if isinstance(database.obj, pw.PostgresqlDatabase):
        database.obj.execute_sql("SELECT pg_advisory_xact_lock(hashtext(%s))", (name,))
