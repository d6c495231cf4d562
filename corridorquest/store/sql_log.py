"""The SQL statements peewee logs at DEBUG level, without the values they carry.

peewee logs every statement it runs as `(sql, params)` on the "peewee" logger at DEBUG
level. The parameters are what users wrote or are: password hashes, e-mail addresses,
message texts, session token hashes. With LOG_LEVEL=DEBUG they would all end up in the
log. `RedactParameters`, installed on that logger when the store is imported, replaces
each text (and bytes) parameter with `<text: N chars>` (`<bytes: N>`) and keeps numbers,
booleans, None and timestamps, so a statement can still be read and followed, and no
secret or personal value is written.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

_KEPT = (int, float, bool, type(None), datetime, date)


def redact(value: Any) -> Any:
    """A logged parameter as it may appear in the log."""
    if isinstance(value, _KEPT):
        return value
    if isinstance(value, str):
        return f"<text: {len(value)} chars>"
    if isinstance(value, bytes | bytearray | memoryview):
        return f"<bytes: {len(value)}>"
    return f"<{type(value).__name__}>"


def redact_parameters(params: Any) -> Any:
    if isinstance(params, dict):
        return {key: redact(value) for key, value in params.items()}
    if isinstance(params, Sequence) and not isinstance(params, str | bytes):
        return tuple(redact(value) for value in params)
    return redact(params)


class RedactParameters(logging.Filter):
    """Replaces the parameters of peewee's `(sql, params)` records (never drops one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.msg
        if isinstance(message, tuple) and len(message) == 2 and isinstance(message[0], str):
            record.msg = (message[0], redact_parameters(message[1]))
        if record.args:  # a statement logged with %-style arguments
            if isinstance(record.args, dict):
                record.args = {key: redact(value) for key, value in record.args.items()}
            else:
                record.args = tuple(redact(value) for value in record.args)
        return True


_FILTER = RedactParameters()


def install() -> None:
    """Redact the "peewee" logger's records (idempotent)."""
    logger = logging.getLogger("peewee")
    if _FILTER not in logger.filters:
        logger.addFilter(_FILTER)
