"""The exceptions every service raises; the API turns them into HTTP answers in one place.

```
Exception
 └── ServiceError(reason, message, status, **extra)   -> JSON {reason, message, **extra}
      ├── BadRequest          400  bad_request (malformed input)
      ├── Unauthenticated     401  unauthenticated, session_expired
      ├── Forbidden           403  forbidden, not_game_admin, account_locked, ...
      ├── NotFound            404  user_not_found, game_not_found, ...
      ├── Conflict            409  stale_revision, not_your_turn, game_full, ...
      ├── Unprocessable       422  invalid_notation, illegal_action, invalid_username, ...
      ├── RateLimited         429  rate_limited (+ retry_after)
      └── Unavailable         503  database_busy, password_hashing_busy (+ retry_after)
```

`service_error_for` turns the exceptions of the layers below that a client should see as
such an answer (the store's `DatabaseBusy`; security's refusals: `InvalidValue` -> 422,
`HttpsRequired` -> 403, reason and message kept) into a `ServiceError`, for the API's
handler; `security_refusals_as_service_errors` does it inside a service, where callers
catch `ServiceError`.

`reason` is stable snake_case (clients switch on it); `message` is one human line.
`extra` holds additional JSON fields (`attempts_left`, `retry_after`, `game`, ...).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from corridorquest.security.errors import HttpsRequired, InvalidValue, SecurityRefusal
from corridorquest.store.lock_wait import DatabaseBusy


class ServiceError(Exception):
    """A request the service refuses; nothing was changed."""

    status: int = 400
    default_reason: str = "bad_request"

    def __init__(
        self,
        reason: str | None = None,
        message: str = "",
        status: int | None = None,
        **extra: Any,
    ) -> None:
        self.reason = reason or self.default_reason
        self.message = message or self.reason.replace("_", " ")
        if status is not None:
            self.status = status
        self.extra = extra
        super().__init__(self.message)

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "message": self.message, **self.extra}


class BadRequest(ServiceError):
    status = 400
    default_reason = "bad_request"


class Unauthenticated(ServiceError):
    status = 401
    default_reason = "unauthenticated"


class Forbidden(ServiceError):
    status = 403
    default_reason = "forbidden"


class NotFound(ServiceError):
    status = 404
    default_reason = "not_found"


class Conflict(ServiceError):
    status = 409
    default_reason = "conflict"


class Unprocessable(ServiceError):
    status = 422
    default_reason = "unprocessable"


class RateLimited(ServiceError):
    status = 429
    default_reason = "rate_limited"


class Unavailable(ServiceError):
    status = 503
    default_reason = "unavailable"


def service_error_for(error: BaseException) -> ServiceError | None:
    """The answer for an exception of the store or of security, None for anything else.

    `DatabaseBusy`: another program held SQLite's write lock for longer than
    DATABASE_BUSY_TIMEOUT; the write changed nothing and may be sent again.
    `InvalidValue` (a username, address, password... the policy refuses): 422;
    `HttpsRequired`: 403; both with security's reason and message.
    """
    if isinstance(error, InvalidValue):
        return Unprocessable(error.reason, error.message)
    if isinstance(error, HttpsRequired):
        return Forbidden(error.reason, error.message)
    if isinstance(error, DatabaseBusy):
        return Unavailable(
            "database_busy",
            "the database is locked by another program; nothing was changed, try again "
            f"in {error.retry_after} s",
            retry_after=error.retry_after,
        )
    return None


@contextmanager
def security_refusals_as_service_errors() -> Iterator[None]:
    """Inside the block, a refusal of security's rules is raised as the service error
    the API answers for it (`service_error_for`)."""
    try:
        yield
    except SecurityRefusal as error:
        answer = service_error_for(error)
        if answer is None:
            raise
        raise answer from None
