"""/tv shows this server's own address and its QR code in a corner (issue 30, item 4):
what a phone in the room scans to open the lobby and sign up; PUBLIC_URL when set, else
the address the screen asked at. The QR code is read back with a decoder (zxing-cpp)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from tests.support.qr import decode, svg_matrix
from tests.support.server import RunningServer, running_server

CORNER = re.compile(
    r'<div class="tv-server">(<svg .*?</svg>)\s*<p>Join at <strong>([^<]*)</strong>', re.S
)


def _corner(text: str) -> tuple[list[str], str]:
    """What a decoder reads in the corner's QR code, and the address written under it."""
    found = CORNER.search(text)
    assert found is not None, text[-2000:]
    return decode(svg_matrix(found.group(1))), found.group(2)


def test_the_corner_shows_the_address_the_screen_asked_at(server: RunningServer) -> None:
    for path in ("/tv", "/web/tv/boards"):  # the page and the fragment that refreshes it
        answer = httpx.get(server.base_url + path, headers={"Host": "party.lan:3000"},
                           timeout=10)
        assert answer.status_code == 200
        assert _corner(answer.text) == (["http://party.lan:3000/"], "http://party.lan:3000/")


def test_the_corner_shows_public_url_when_set(tmp_path: Path) -> None:
    public = "https://quest.example.org"
    with running_server(tmp_path, PUBLIC_URL=public) as server:
        for path in ("/tv", "/web/tv/boards"):
            answer = httpx.get(server.base_url + path, timeout=10)
            assert _corner(answer.text) == ([public + "/"], public + "/")
