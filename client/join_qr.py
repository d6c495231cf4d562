"""A waiting game's join link, and its QR code as text for a terminal (`cq game show --qr`).

The link is the game's web page, `BASE/games/ID`, where BASE is the server's PUBLIC_URL
(from `server info`) or else the URL this client reaches the server at; a private game's
link carries its invitation code (`?code=...`), which the server gives to its players
only. The QR code is drawn with half blocks, light squares as blocks (as a dark terminal
shows a code a phone can scan).
"""

from __future__ import annotations

import io
from typing import Any
from urllib.parse import quote

from client.errors import CqError, RefusedError


def join_link(base_url: str, game: dict[str, Any]) -> str:
    """The join link of `game` (the server's JSON); RefusedError when nobody can join it."""
    game_id = game["id"]
    if game.get("status") != "waiting":
        raise RefusedError(
            f"game {game_id} is {game.get('status')}: only a waiting game has a join link",
            reason="game_not_waiting",
        )
    link = f"{base_url.rstrip('/')}/games/{game_id}"
    if game.get("private"):
        code = game.get("invitation_code")
        if not code:
            raise RefusedError(
                f"game {game_id} is private: only its players get its join link",
                reason="not_a_player",
            )
        link += "?code=" + quote(str(code), safe="")
    return link


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
