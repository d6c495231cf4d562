"""The security headers of every web page answer (HTML, fragments, script, style).

The pages load nothing from outside and run no inline code: one script and one style
sheet from /web/static, the boards drawn inline as SVG (without style attributes),
fragments fetched from the same server, the live streams from /api/v1. So the policy
allows exactly that and nothing else; no page may be framed (clickjacking of /login),
and no answer is to be sniffed into another type. `board.svg` sends its own, stricter
policy (api/boards.py).
"""

from __future__ import annotations

from sanic import Request
from sanic.response import HTTPResponse

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",  # the fragments and the event streams
        "form-action 'self'",  # log in, log out
        "base-uri 'none'",
        "frame-ancestors 'none'",
    )
)

PAGE_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


async def add_page_headers(request: Request, response: HTTPResponse) -> None:
    """Response middleware of the web blueprint: the headers above on every answer
    (a handler's own value of one of them wins)."""
    for name, value in PAGE_HEADERS.items():
        if name not in response.headers:
            response.headers[name] = value
