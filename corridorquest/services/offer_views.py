"""The open wall offers of a game that one user may read (part of the game view).

A public offer is read by everybody who sees the game; a private one by its two players.
Offers exist only while the game is Started (a finished or cancelled game shows none).
"""

from __future__ import annotations

from typing import Any

from corridorquest.services.game_access import LoadedGame
from corridorquest.store import fast
from corridorquest.store.models import User, WallOffer


def can_read(offer: WallOffer, viewer_id: int) -> bool:
    return offer.partner_id is None or viewer_id in (offer.user_id, offer.partner_id)


def open_offers(game_id: int) -> list[WallOffer]:
    return fast.select(
        WallOffer, 't."game_id" = ? AND t."status" = ?', (game_id, "open"), 'ORDER BY t."id"'
    )


def offers_view(loaded: LoadedGame, viewer_id: int) -> list[dict[str, Any]]:
    """`[{"id", "username", "mode", "partner", "at"}]`, oldest first."""
    if loaded.game.status != "started":
        return []
    names = {player.user_id: player.user.username for player in loaded.players}
    shown = []
    for offer in open_offers(loaded.game.id):
        if not can_read(offer, viewer_id):
            continue
        partner = offer.partner_id
        if partner is not None and partner not in names:
            found = User.get_or_none(User.id == partner)
            names[partner] = found.username if found else "?"
        created = offer.created_at
        shown.append(
            {
                "id": offer.id,
                "username": names.get(offer.user_id, "?"),
                "mode": offer.mode,
                "partner": names.get(partner) if partner is not None else None,
                "at": created.strftime("%Y-%m-%dT%H:%M:%SZ") if created else None,
            }
        )
    return shown
