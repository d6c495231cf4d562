"""Who calls a handler of the api or of the web pages, and from where.

`Authorization: Bearer <token>` -> the current user (401 otherwise). The web pages log in
with a cookie (`SESSION_COOKIE`, the same session token) instead of the header. A GET
counts with the cookie alone; a write (POST, PUT, PATCH, DELETE) with the cookie counts
only when it also carries the session's write token in `X-CSRF-Token` and, when the
browser says where it comes from (`Sec-Fetch-Site`), comes from this site: the pages'
script reads the token from `GET /web/csrf`, which another site cannot read (no CORS), so
a page of another site cannot make a logged-in browser change anything: its write is 403
`cross_site_write` and changes nothing. `watcher` is who watches a public game: the
logged-in caller, or anybody (`ANONYMOUS`) when WEB_WATCH_WITHOUT_LOGIN allows it.
`client_address` is the caller's address as the trusted proxy headers give it (sign-up
and login limits, audit).

Both `api` and `web` use this module, so that the web pages import nothing of `api`.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from datetime import datetime

from sanic import Request

from corridorquest.services.auth import CurrentUser, authenticate
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Forbidden, Unauthenticated

SESSION_COOKIE = "cq_session"
CSRF_HEADER = "X-CSRF-Token"
_READS = ("GET", "HEAD", "OPTIONS")
# Somebody not logged in: no player of any game, reads what any non-player reads of a
# public game (a private game is 404 to it, as to every non-player).
ANONYMOUS = CurrentUser(
    id=0, username="", email="", is_admin=False, session_id=0, session_expires_at=datetime.max
)


def services(request: Request) -> ServiceContext:
    ctx: ServiceContext = request.app.ctx.services
    return ctx


def cookie_secure(request: Request) -> bool:
    """Whether the session cookie is sent with `Secure` (browsers then send it back over
    HTTPS only): always under REQUIRE_HTTPS (every request served arrived over HTTPS,
    directly or through a proxy, counted in PROXIES_COUNT or not), else when this request
    came over HTTPS as Sanic sees it."""
    return bool(services(request).settings.require_https) or request.scheme == "https"


def write_token(session_token: str) -> str:
    """The write token of a session (`X-CSRF-Token`): derived from the session's own
    token, which only its browser holds, so nobody else can make it."""
    key = session_token.encode()
    return hmac.new(key, b"corridorquest write token", hashlib.sha256).hexdigest()


def cookie_token(request: Request) -> str:
    """The session token of the request's cookie, "" without one. For a write, raises
    Forbidden `cross_site_write` unless the request carries the session's write token
    and does not come from another site."""
    token = str(request.cookies.get(SESSION_COOKIE, "") or "")
    if not token or request.method in _READS:
        return token
    sent = request.headers.get(CSRF_HEADER, "")
    site = request.headers.get("sec-fetch-site", "same-origin")
    if site != "same-origin" or not hmac.compare_digest(sent, write_token(token)):
        raise Forbidden(
            "cross_site_write",
            "a write with the session cookie needs the page's write token (X-CSRF-Token) "
            "and must come from this site's pages",
        )
    return token


def bearer_token(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer":
        return "" if header else cookie_token(request)
    return token.strip()


async def require_user(request: Request) -> CurrentUser:
    """The logged-in caller; raises Unauthenticated (401) without a valid session."""
    user: CurrentUser | None = vars(request.ctx).get("user")  # getattr would raise inside
    if user is None:
        user = await authenticate(services(request), bearer_token(request))
        request.ctx.user = user
    return user


async def watcher(request: Request) -> CurrentUser:
    """Who watches: the logged-in caller; without a login, ANONYMOUS when the server lets
    anybody watch its public games (WEB_WATCH_WITHOUT_LOGIN), else 401. A page's cookie
    whose session ended counts as no login (the header's token does not)."""
    anybody = services(request).settings.web_watch_without_login
    if request.headers.get("authorization") or not anybody:
        return await require_user(request)
    if request.cookies.get(SESSION_COOKIE):
        try:
            return await require_user(request)
        except Unauthenticated:
            return ANONYMOUS
    return ANONYMOUS


async def optional_user(request: Request) -> CurrentUser | None:
    """The caller when a token is sent (a bad token is still a 401), else None."""
    if not request.headers.get("authorization"):
        return None
    return await require_user(request)


def client_address(request: Request) -> str:
    """The caller's address (from the proxy headers Sanic is configured to trust); the
    peer's own address when the trusted header holds something that is not an IP address
    (a proxy that is not there, or one that passes garbage on). Sanic gives a forwarded
    IPv6 address in brackets (`[2001:db8::1]`): without them here."""
    forwarded = request.remote_addr
    if forwarded:
        try:
            return str(ipaddress.ip_address(forwarded.removeprefix("[").removesuffix("]")))
        except ValueError:
            pass
    return str(request.ip or "unknown")
