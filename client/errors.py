"""Errors of the clients and their exit codes.

Every expected failure is a :class:`CqError` (a ``click.ClickException``): click prints
``Error: <message>`` as one line on stderr and exits with the class's code.

```
click.ClickException            exit 1 (click: usage errors are 2)
 └── CqError                    exit 1  unexpected answer from the server (5xx, not JSON)
      ├── InputError            exit 2  a bad value the client itself checks (no such profile,
      │                                 a server URL that is not http(s))
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


class InputError(CqError):
    """A value given to the client is wrong: a profile that does not exist, a bad URL.

    The same exit code as click's usage errors, and shown the same way.
    """

    exit_code = EXIT_USAGE


class AuthError(CqError):
    """Not logged in, the session expired, or the credentials are wrong."""

    exit_code = EXIT_AUTH


class RefusedError(CqError):
    """The server understood the request and refused it (its ``message`` says why)."""

    exit_code = EXIT_REFUSED


class ConnectionFailed(CqError):
    """The server did not answer."""

    exit_code = EXIT_CONNECTION
