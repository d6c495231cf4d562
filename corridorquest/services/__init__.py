"""Use cases, one module per domain: permissions, transactions, revisions, events.

Every service function takes a `ServiceContext` first, raises `services.errors`
exceptions for refused requests, runs its read-validate-write in ONE
`ctx.store.transaction(...)`, and publishes events after the commit. A write of a game
does all of that through the unit of work (`unit_of_work.py`): the use case states the
rule, the unit of work owns the key, the transaction, the events and what is remembered
of the game (`last_commit/`).
"""

from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import ServiceError

__all__ = ["ServiceContext", "ServiceError"]
