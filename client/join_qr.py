"""A waiting game's join link, and its QR code as text for a terminal (`cq game show --qr`).

The link is the server's (`join_url` in `GET /games/{id}`): the game's web page at an
address a phone in the room can open, by the same rule as the QR code on the game's page
(PUBLIC_URL, else the address this client asked at, a loopback one replaced by the
server machine's network address). A private game's link carries its invitation code,
which the server gives to its players only. The QR code is drawn with half blocks, light
squares as blocks (as a dark terminal shows a code a phone can scan).
"""

from __future__ import annotations

import io
from typing import Any

from client.errors import CqError, RefusedError


def join_link(game: dict[str, Any]) -> str:
    """The join link of `game` (the server's JSON); RefusedError when nobody can join it."""
    game_id = game["id"]
    if game.get("status") != "waiting":
        raise RefusedError(
            f"game {game_id} is {game.get('status')}: only a waiting game has a join link",
            reason="game_not_waiting",
        )
    link = game.get("join_url")
    if isinstance(link, str) and link:
        return link
    if game.get("private"):
        raise RefusedError(
            f"game {game_id} is private: only its players get its join link",
            reason="not_a_player",
        )
    raise RefusedError(
        f"the server gave no join link for game {game_id} (a server older than this cq: "
        "open the game's page in a browser, it shows the QR code)",
        reason="no_join_link",
    )


def qr_text(link: str) -> str:
    """The QR code of `link` in half-block characters (segno's compact terminal output)."""
    try:
        import segno
    except ImportError:
        raise CqError("this cq cannot draw QR codes: the segno package is not installed "
                      "(pip install segno)", reason="qr_unavailable") from None
    out = io.StringIO()
    segno.make(link).terminal(out=out, compact=True, border=2)
    return out.getvalue()
