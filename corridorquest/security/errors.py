"""The refusals of the security rules: a stable snake_case `reason` and one human line.

Security sits below the services and knows no HTTP answers: the services turn these
into their own errors (`services.errors.service_error_for`), and so the API answers
with the same status, reason and message as for any service error:

```
Exception
 └── SecurityRefusal(reason, message)
      ├── InvalidValue     -> 422 (invalid_username, invalid_email, invalid_password, ...)
      └── HttpsRequired    -> 403 https_required
```
"""

from __future__ import annotations


class SecurityRefusal(Exception):
    """A value or a request the security rules refuse; nothing was changed."""

    def __init__(self, reason: str, message: str) -> None:
        self.reason = reason
        self.message = message
        super().__init__(message)


class InvalidValue(SecurityRefusal):
    """A username, address, password, description, topic or theme the policy refuses."""


class HttpsRequired(SecurityRefusal):
    """A request that arrived over plain HTTP on a server that requires HTTPS."""

    def __init__(self) -> None:
        super().__init__(
            "https_required", "this server accepts HTTPS only: use an https:// server URL"
        )
