"""The transaction memo: a dict that lives as long as the current transaction.

And the batch memo: one that lives as long as the current group-commit batch (SQLite's
shared transaction of one loop turn, `store.group_commit`), for a value that cannot
change while one transaction stays open (SQLite's data version).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class _Memo(threading.local):
    value: dict[Any, Any] | None = None
    batch: dict[Any, Any] | None = None


_memo = _Memo()


def transaction_memo() -> dict[Any, Any]:
    """A dict that lives as long as the current transaction (empty when it starts).

    For what a transaction already read and a later step of the same transaction needs
    again (`game_access` keeps the loaded game in it). Outside `Store.run`/`transaction`
    it is a fresh dict every time, so nothing is ever remembered there.
    """
    memo = _memo.value
    return memo if memo is not None else {}


def with_memo(fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
    """`fn(*args, **kwargs)` with a fresh transaction memo."""
    previous, _memo.value = _memo.value, {}
    try:
        return fn(*args, **kwargs)
    finally:
        _memo.value = previous


def batch_memo() -> dict[Any, Any]:
    """A dict that lives as long as this thread's open group-commit batch; outside one
    a fresh dict every time, so nothing is ever remembered there."""
    memo = _memo.batch
    return memo if memo is not None else {}


def open_batch_memo() -> None:
    """A batch's BEGIN ran: its memo starts empty."""
    _memo.batch = {}


def close_batch_memo() -> None:
    """The batch is about to end (COMMIT or ROLLBACK): its memo goes."""
    _memo.batch = None
