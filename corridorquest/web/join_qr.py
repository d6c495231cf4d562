"""A waiting game's join link as a QR code on the web pages (the game page, /tv).

The link is the game's page, `BASE/games/ID`: BASE is PUBLIC_URL, else the address this
page was asked at; when that is this machine's loopback (a projector on the server
itself) and the server listens on every interface, the machine's network address
instead, the one a phone in the room reaches. A private game's link carries its
invitation code (`?code=...`); the views give that code to the game's players only, so
only they are shown the QR code of a private game (and /tv shows public games only).
The SVG has no style attribute and no script (the pages' Content-Security-Policy).
"""

from __future__ import annotations

import io
from functools import cache
from typing import Any
from urllib.parse import quote, urlsplit

import segno
from markupsafe import Markup
from sanic import Request

from corridorquest.listening import ALL_INTERFACES, machine_addresses, url
from corridorquest.settings import Settings

_LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")


@cache
def _network_address() -> str | None:
    """This machine's first address others may reach (looked up once)."""
    found = machine_addresses(ipv6=False)
    return found[0] if found else None


def base_url(request: Request, settings: Settings) -> str:
    """PUBLIC_URL, else this page's scheme://host:port (loopback: the network address)."""
    if settings.public_url:
        return settings.public_url
    parts = urlsplit(f"{request.scheme}://{request.host}")
    host = parts.hostname or "localhost"
    if host in _LOOPBACK_HOSTS and settings.host in ALL_INTERFACES:
        address = _network_address()
        if address is not None:
            return url(request.scheme, address, parts.port or settings.port)
    return f"{request.scheme}://{request.host}"


def join_link(base: str, view: dict[str, Any]) -> str | None:
    """The join link of a waiting game as its viewer may share it; None: the game is
    not waiting, or it is private and the viewer is not one of its players."""
    if view.get("status") != "waiting":
        return None
    link = f"{base}/games/{view['id']}"
    if view.get("private"):
        code = view.get("invitation_code")
        if not code:
            return None
        link += "?code=" + quote(str(code), safe="")
    return link


def qr_svg(link: str) -> Markup:
    """The QR code of `link` as an inline SVG element (dark on a light quiet zone)."""
    out = io.BytesIO()
    segno.make(link).save(
        out, kind="svg", xmldecl=False, svgns=True, omitsize=True, border=2, dark="#000",
        light="#fff", svgclass="qr", lineclass=None, title=link,
    )
    return Markup(out.getvalue().decode())  # segno escapes the title


def join_qr(request: Request, settings: Settings, view: dict[str, Any]) -> dict[str, Any]:
    """`{"link", "svg"}` for a template, or `{}` when the game has no link to show."""
    link = join_link(base_url(request, settings), view)
    return {"link": link, "svg": qr_svg(link)} if link else {}
