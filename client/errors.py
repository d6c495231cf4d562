"""Errors of the clients and their exit codes.

Every expected failure is a :class:`CqError` (a ``click.ClickException``): click prints
``Error: <message>`` as one line on stderr and exits with the class's code.

```
click.ClickException            exit 1 (click: usage errors are 2)
 └── CqError                    exit 1  unexpected answer from the server (5xx, not JSON)
      ├── AuthError             exit 3  not logged in, session expired, wrong credentials
      ├── RefusedError          exit 4  the server refused the request (4xx with a reason)
      └── ConnectionFailed      exit 5  the server cannot be reached
```
"""

from __future__ import annotations

from typing import Any

import click

EXIT_OK = 0
EXIT_SERVER = 1
EXIT_USAGE = 2
EXIT_AUTH = 3
EXIT_REFUSED = 4
EXIT_CONNECTION = 5


class CqError(click.ClickException):
    """An expected failure, shown as one line."""

    exit_code = EXIT_SERVER

    def __init__(self, message: str, reason: str = "error", data: dict[str, Any] | None = None):
        super().__init__(message)
        self.reason = reason
        self.data = data or {}


class AuthError(CqError):
    """Not logged in, the session expired, or the credentials are wrong."""

    exit_code = EXIT_AUTH


class RefusedError(CqError):
    """The server understood the request and refused it (its ``message`` says why)."""

    exit_code = EXIT_REFUSED


class ConnectionFailed(CqError):
    """The server did not answer."""

    exit_code = EXIT_CONNECTION
