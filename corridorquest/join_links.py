"""A waiting game's join link: the address a phone in the room can open.

One rule for every place that gives the link (the game page and /tv's QR codes in
web/join_qr.py, the API's `join_url` of `GET /games/{id}` that `cq game show --qr`
prints): the link is the game's page, `BASE/games/ID`. BASE is PUBLIC_URL, else the
address the request was made at; when that is this machine's loopback (a projector's
browser or a terminal on the server itself) and the server listens on every interface,
the machine's network address instead, the one a phone in the room reaches. A private
game's link carries its invitation code (`?code=...`); the views give that code to the
game's players only, so only they get the link of a private game.
"""

from __future__ import annotations

from functools import cache
from typing import Any
from urllib.parse import quote, urlsplit

from corridorquest.listening import ALL_INTERFACES, machine_addresses, url
from corridorquest.settings import Settings

_LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")


@cache
def _network_address() -> str | None:
    """This machine's first address others may reach (looked up once)."""
    found = machine_addresses(ipv6=False)
    return found[0] if found else None


def base_url(scheme: str, host: str, settings: Settings) -> str:
    """PUBLIC_URL, else `scheme://host` as the request named it (`host` with its port, as
    in the Host header), the network address instead of a loopback one."""
    if settings.public_url:
        return settings.public_url
    parts = urlsplit(f"{scheme}://{host}")
    hostname = parts.hostname or "localhost"
    if hostname in _LOOPBACK_HOSTS and settings.host in ALL_INTERFACES:
        address = _network_address()
        if address is not None:
            return url(scheme, address, parts.port or settings.port)
    return f"{scheme}://{host}"


def join_link(base: str, view: dict[str, Any]) -> str | None:
    """The join link of a waiting game as its viewer may share it; None: the game is
    not waiting, or it is private and the viewer is not one of its players."""
    if view.get("status") != "waiting":
        return None
    link = f"{base.rstrip('/')}/games/{view['id']}"
    if view.get("private"):
        code = view.get("invitation_code")
        if not code:
            return None
        link += "?code=" + quote(str(code), safe="")
    return link
