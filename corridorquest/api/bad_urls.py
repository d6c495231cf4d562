"""Requests whose URL does not parse (a control character, a tab, NUL, DEL, a byte above
127 in the request line), or whose method is not a token, are answered 400
`bad_request`, and log nothing.

Sanic builds its `Request` from the request line; a URL that httptools refuses raises
`BadRequest` there, and Sanic then builds a second, empty request from the same URL to
answer the error with — which raised again, out of Sanic's error handling: no answer,
and four tracebacks in the log for every such request (issue 25, item 20). The
application's request class (`Sanic(request_class=...)`, a public option) builds that
empty request from the URL with every such byte percent-encoded, so the error handler
(`api/errors.py`) answers the first error as it answers any other bad request.
"""

from __future__ import annotations

import re
from typing import Any

from sanic import Request
from sanic.compat import Header
from sanic.exceptions import BadRequest as SanicBadRequest  # Sanic answers it: 400 bad_request

MESSAGE = "the request's URL holds a character no URL may hold (a control character or a space)"
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # RFC 9110's token: a method's name
# Sanic's empty request for answering an error has this method and no head.
_ERROR_METHOD = "NONE"
_LOGGED_URL_MAX = 2048


def _escaped(url: bytes) -> bytes:
    """The URL with every byte that is not printable ASCII percent-encoded."""
    return b"".join(
        bytes([byte]) if 0x21 <= byte <= 0x7E else b"%%%02X" % byte
        for byte in url[:_LOGGED_URL_MAX]
    )


class CheckedRequest(Request):
    """Sanic's Request; an unparsable URL is a clear 400 and never breaks the answer."""

    def __init__(
        self,
        url_bytes: bytes,
        headers: Header,
        version: str,
        method: str,
        transport: Any,
        app: Any,
        head: bytes = b"",
        stream_id: int = 0,
    ) -> None:
        if not _TOKEN.fullmatch(method):
            raise SanicBadRequest("the request's method holds a character no method may hold")
        rest = (headers, version, method, transport, app, head, stream_id)
        try:
            super().__init__(url_bytes, *rest)
        except SanicBadRequest:
            if method != _ERROR_METHOD or head:
                raise SanicBadRequest(MESSAGE) from None
            super().__init__(_escaped(url_bytes), *rest)
