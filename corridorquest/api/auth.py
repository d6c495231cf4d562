"""`Authorization: Bearer <token>` -> the current user (401 otherwise), the pages' session
cookie, the watcher: the api's handlers take them from corridorquest/callers.py, which the
web pages share (so that web imports nothing of api)."""

from __future__ import annotations

from corridorquest.callers import (
    ANONYMOUS,
    SESSION_COOKIE,
    bearer_token,
    cookie_secure,
    optional_user,
    require_user,
    services,
    watcher,
)

__all__ = [
    "ANONYMOUS",
    "SESSION_COOKIE",
    "bearer_token",
    "cookie_secure",
    "optional_user",
    "require_user",
    "services",
    "watcher",
]
