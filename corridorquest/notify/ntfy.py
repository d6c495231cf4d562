"""Publishing to ntfy (https://docs.ntfy.sh/publish/) with httpx.

One POST per message to `NTFY_URL/<topic>`: the body is the plain-text message; `Title`,
`Tags` (comma-separated), `Priority` (urgent, high, default, low) and, for a message about
a public game when PUBLIC_URL is set, `Click` (the game's page) are headers; a title
that is not ASCII is sent RFC 2047-encoded, which ntfy decodes. Auth: NTFY_TOKEN alone is
a Bearer token; NTFY_USER with NTFY_TOKEN is Basic auth (the token as the password,
which ntfy accepts for user + password or token). One client (a keep-alive pool) serves
every publish of the process.

NTFY_TIMEOUT bounds a publish in all, from connecting to the end of the answer (not each
read: a server that trickles a byte every few seconds would never time out then); a
publish over it raises `PublishTimeout`, a failure to retry. httpx's own INFO line per
request ("HTTP Request: POST ...") is not logged: its logger is set to WARNING here,
unless something set its level before (LOG_LEVEL=DEBUG shows the worker's own lines).
"""

from __future__ import annotations

import asyncio
import base64
import logging
from email.header import Header
from typing import Any
from urllib.parse import quote

import httpx

from corridorquest.settings import Settings

CONNECTIONS = 16  # publishes at once (each topic's one after the other)

_httpx_log = logging.getLogger("httpx")
if _httpx_log.level == logging.NOTSET:  # one INFO line per publish is noise in the log
    _httpx_log.setLevel(logging.WARNING)


class PublishRefused(Exception):
    """ntfy answered with an error that a retry will not mend (a 4xx but 408/429)."""


class PublishTimeout(Exception):
    """The publish took longer than NTFY_TIMEOUT in all (to be retried)."""


def auth_header(user: str | None, token: str | None) -> dict[str, str]:
    if token and user:
        pair = base64.b64encode(f"{user}:{token}".encode()).decode()
        return {"Authorization": f"Basic {pair}"}
    if token:
        return {"Authorization": f"Bearer {token}"}
    return {}


def header_text(text: str) -> str:
    """A header value ntfy reads back as `text` (RFC 2047 when it is not ASCII)."""
    text = " ".join(text.split())  # no line breaks in a header
    if text.isascii():
        return text
    return Header(text, "utf-8").encode(linesep=" ")  # folded: encoded words, no line break


class NtfyPublisher:
    def __init__(self, url: str, user: str | None, token: str | None, timeout: float) -> None:
        self.url = url.rstrip("/")
        self.headers = auth_header(user, token)
        self.deadline = timeout
        # httpx's own timeouts apply to each step (a read, a write); the deadline around
        # the whole publish (`publish`) is what bounds it
        self.client = httpx.AsyncClient(
            timeout=timeout,
            limits=httpx.Limits(max_connections=CONNECTIONS),
            follow_redirects=False,
        )
        self._slots = asyncio.Semaphore(CONNECTIONS)  # the deadline starts with a connection

    @classmethod
    def from_settings(cls, settings: Settings) -> NtfyPublisher | None:
        if not settings.ntfy_url:
            return None
        return cls(
            settings.ntfy_url, settings.ntfy_user, settings.ntfy_token, float(settings.ntfy_timeout)
        )

    async def publish(self, message: dict[str, Any]) -> None:
        """Publish one message (`topic`, `title`, `body`, `tags`, `priority`, `click` if
        any); raises `PublishRefused` for a refusal to give up on, `PublishTimeout` after
        NTFY_TIMEOUT in all, another error to retry."""
        headers = {
            **self.headers,
            "Title": header_text(message["title"]),
            "Tags": ",".join(message["tags"]),
            "Priority": message["priority"],
            "Content-Type": "text/plain; charset=utf-8",
        }
        if message.get("click"):
            headers["Click"] = message["click"]
        url = f"{self.url}/{quote(message['topic'], safe='')}"
        async with self._slots:
            try:
                async with asyncio.timeout(self.deadline):
                    response = await self.client.post(
                        url, content=message["body"].encode(), headers=headers
                    )
            except (TimeoutError, httpx.TimeoutException):
                raise PublishTimeout(
                    f"ntfy did not answer within {self.deadline:g} s (NTFY_TIMEOUT)"
                ) from None
        if response.status_code >= 400:
            why = f"ntfy answered {response.status_code}: {response.text[:200]}"
            if response.status_code < 500 and response.status_code not in (408, 429):
                raise PublishRefused(why)
            raise httpx.HTTPStatusError(why, request=response.request, response=response)

    async def close(self) -> None:
        await self.client.aclose()
