"""What every table shares: the database proxy the models are bound to, the naive UTC
clock they store (`utcnow`), and `BaseModel`."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import peewee as pw

database = pw.DatabaseProxy()

# A unique constraint lost a race (services catch it without importing peewee).
IntegrityError = pw.IntegrityError


_now_cache: tuple[int, datetime] = (-1, datetime.min)


def utcnow() -> datetime:
    """Now, as the naive UTC datetime (whole seconds) every table stores.

    One datetime per second, shared (datetimes are immutable): a move asks for the time
    several times, and building it each time cost a few microseconds.
    """
    global _now_cache
    second = int(time.time())
    cached_second, moment = _now_cache
    if second != cached_second:
        moment = datetime.fromtimestamp(second, UTC).replace(tzinfo=None)
        _now_cache = (second, moment)
    return moment


class BaseModel(pw.Model):
    class Meta:
        database = database
        legacy_table_names = False
