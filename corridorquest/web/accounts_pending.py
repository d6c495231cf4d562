"""What the account pages keep in the browser between two steps: the verification
token of a signup or of a password reset (client-bound: the API gives it to the client
that asked, `cq` keeps it in its profile, a browser in a cookie), with the username and
e-mail address the page shows and a new code needs.

The cookie is HttpOnly (no script reads it), SameSite=Strict (no other site's form
sends it) and lives as long as the request it holds may still be completed. It holds
nothing the browser's user did not type: a changed cookie only spoils its own request
(the server checks the token and the code, never the cookie's other fields).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sanic import Request
from sanic.response import HTTPResponse

from corridorquest.callers import cookie_secure
from corridorquest.services.errors import Forbidden

SIGNUP_COOKIE = "cq_signup"
RESET_COOKIE = "cq_reset"
FIELD_MAX = 400  # characters a form field may hold here (the API's bounds are below it)


@dataclass(frozen=True)
class Pending:
    """A request waiting for its code: its token, for whom, to which address."""

    token: str
    username: str
    email: str = ""


def read(request: Request, cookie: str) -> Pending | None:
    """The pending request of this browser's `cookie`, or None (none, or unreadable)."""
    raw = str(request.cookies.get(cookie, "") or "")
    try:
        data = json.loads(base64.urlsafe_b64decode(raw.encode()))
        found = Pending(str(data["t"]), str(data["u"]), str(data.get("e", "")))
    except (ValueError, KeyError, TypeError, binascii.Error):
        return None
    return found if found.token else None


def keep(
    request: Request, response: HTTPResponse, cookie: str, pending: Pending, seconds: int
) -> None:
    """Set `cookie` on `response` to hold `pending` for `seconds`."""
    data = {"t": pending.token, "u": pending.username, "e": pending.email}
    value = base64.urlsafe_b64encode(json.dumps(data).encode()).decode()
    response.add_cookie(
        cookie, value, httponly=True, samesite="Strict", path="/", max_age=seconds,
        secure=cookie_secure(request),
    )


def forget(request: Request, response: HTTPResponse, cookie: str) -> None:
    """Let `cookie` go (expired at once, with the attributes it was set with: a browser
    keeps a cookie whose removal comes `Secure` over plain HTTP)."""
    response.add_cookie(
        cookie, "", httponly=True, samesite="Strict", path="/", max_age=0,
        secure=cookie_secure(request),
    )


def field(form: Mapping[str, Any], name: str) -> str:
    """A form field's text ("" when missing), at most FIELD_MAX characters (beyond: the
    services refuse it as too long, without the work of a longer value)."""
    return str(form.get(name) or "")[:FIELD_MAX + 1]


def same_site(request: Request) -> None:
    """Refuse (403 `cross_site_write`) a form posted from another site's page: these
    forms log a browser in, and another site must not log it into an account of its
    choosing. A browser that does not say where a request comes from is let through."""
    site = request.headers.get("sec-fetch-site", "same-origin")
    if site not in ("same-origin", "none"):
        raise Forbidden("cross_site_write", "this form may only be sent from this site's pages")
