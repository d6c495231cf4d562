"""Use cases, one module per domain: permissions, transactions, revisions, events.

Every service function takes a `ServiceContext` first, raises `services.errors`
exceptions for refused requests, runs its read-validate-write in ONE
`ctx.store.transaction(...)`, and publishes events after the commit.
"""

from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import ServiceError

__all__ = ["ServiceContext", "ServiceError"]
