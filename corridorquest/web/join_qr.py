"""A waiting game's join link as a QR code on the web pages (the game page, /tv).

The link and its rule (PUBLIC_URL, else the address the page was asked at, a loopback
one swapped for the machine's network address) are corridorquest/join_links.py's, the
same the API gives `cq game show --qr`. A private game's link carries its invitation
code, which the views give to the game's players only, so only they are shown the QR
code of a private game (and /tv shows public games only). The SVG has no style
attribute and no script (the pages' Content-Security-Policy).
"""

from __future__ import annotations

import io
from typing import Any

import segno
from markupsafe import Markup
from sanic import Request

from corridorquest import join_links
from corridorquest.settings import Settings


def base_url(request: Request, settings: Settings) -> str:
    """The base of the links a phone opens, for this request (join_links.base_url)."""
    return join_links.base_url(request.scheme, request.host, settings)


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
    link = join_links.join_link(base_url(request, settings), view)
    return {"link": link, "svg": qr_svg(link)} if link else {}
