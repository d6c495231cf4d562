"""How the notifications name the server and link a game (PUBLIC_URL).

With PUBLIC_URL set, e-mails name the server by it and link each public game's page,
`PUBLIC_URL/games/<id>` (the web page of corridorquest/web/pages.py), and ntfy messages
about a public game open that page when tapped (ntfy's `Click` header). A private game's
page answers 404 to everybody but the holders of its invitation code, so only the
invitation mail, which carries the code, links it: its join link
`PUBLIC_URL/games/<id>?code=<code>` (the page offers the seat). Without PUBLIC_URL the
server is named as best it is known: the host and port it listens on, the machine's
host name when it listens on every interface; nothing is linked (a guessed address may
not be the one players reach).
"""

from __future__ import annotations

import socket
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import quote

from corridorquest.settings import Settings

_EVERY_INTERFACE = ("", "0.0.0.0", "::", "[::]")


@dataclass(frozen=True)
class ServerAddress:
    name: str  # "https://cq.example.org", or "myhost:3000" without PUBLIC_URL
    url: str | None  # PUBLIC_URL (no trailing slash)

    def game_page(self, game_id: int, public: bool) -> str | None:
        """The web page of a game, when there is one to link."""
        if self.url is None or not public:
            return None
        return f"{self.url}/games/{game_id}"

    def join_link(self, game_id: int, code: str) -> str | None:
        """A game's page opened with its invitation code (its join link), to be given
        only to whom the code is given."""
        if self.url is None:
            return None
        return f"{self.url}/games/{game_id}?code={quote(code, safe='')}"


@lru_cache(maxsize=8)
def _address(public_url: str | None, host: str, port: int) -> ServerAddress:
    if public_url:
        return ServerAddress(public_url, public_url)
    if host in _EVERY_INTERFACE:
        host = socket.gethostname() or "localhost"
    elif ":" in host:  # an IPv6 address
        host = f"[{host}]"
    return ServerAddress(f"{host}:{port}" if port else host, None)


def server_address(settings: Settings) -> ServerAddress:
    return _address(settings.public_url, settings.host, settings.port)
