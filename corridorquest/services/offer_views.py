"""The open wall offers of a game that one user may read (part of the game view).

A public offer is read by everybody who sees the game; a private one by its two players.
Offers exist only while the game is Started (a finished or cancelled game shows none).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from corridorquest.services.game_access import LoadedGame
from corridorquest.store import fast
from corridorquest.store.models import User, WallOffer


def _readable(user_id: int, partner_id: int | None, viewer_id: int) -> bool:
    return partner_id is None or viewer_id in (user_id, partner_id)


def can_read(offer: WallOffer, viewer_id: int) -> bool:
    return _readable(offer.user_id, offer.partner_id, viewer_id)


def open_offer_of(game_id: int, user_id: int) -> WallOffer | None:
    """The user's open offer in the game, if it has one."""
    found = fast.select(
        WallOffer,
        't."game_id" = ? AND t."user_id" = ? AND t."status" = ?',
        (game_id, user_id, "open"),
    )
    return found[0] if found else None


def latest_offer_of(game_id: int, user_id: int) -> WallOffer | None:
    """The user's latest offer in the game (open or not), if it made one."""
    latest = fast.select(
        WallOffer,
        't."game_id" = ? AND t."user_id" = ?',
        (game_id, user_id),
        'ORDER BY t."id" DESC LIMIT 1',
    )
    return latest[0] if latest else None


def save_offer(offer: WallOffer, *fields: str) -> None:
    """Write the named fields of an offer row."""
    fast.update(offer, *fields)


# What a view shows of an open offer, read as plain rows (this runs on every game view).
_OFFER_FIELDS = tuple(
    WallOffer._meta.fields[name] for name in ("id", "user", "mode", "partner", "created_at")
)
_OPEN_OFFERS_SQL = (
    "SELECT "
    + ", ".join(f'"{field.column_name}"' for field in _OFFER_FIELDS)
    + f' FROM {fast.table(WallOffer)} WHERE "game_id" = ? AND "status" = ? ORDER BY "id"'
)
_OFFER_PLAN = fast.row_plan(_OFFER_FIELDS)


def open_offer_rows(game_id: int) -> list[list[Any]]:
    """`[id, user_id, mode, partner_id, created_at]` of the game's open offers, oldest first."""
    sql = _OPEN_OFFERS_SQL if fast.is_sqlite() else _OPEN_OFFERS_SQL.replace("?", "%s")
    return [fast.convert(_OFFER_PLAN, row) for row in fast.execute(sql, (game_id, "open"))]


def offers_view(
    loaded: LoadedGame,
    viewer_id: int,
    names: dict[int, str] | None = None,
    rows: Sequence[Sequence[Any]] | None = None,
) -> list[dict[str, Any]]:
    """`[{"username", "mode", "partner", "at"}]`, oldest first.

    No id: offer ids count every offer of the server, so a gap between two public offers'
    ids would tell the other players that a private offer was made (docs/api.md, Messages:
    what a reader may not read leaves no trace). Offers are addressed by their maker.

    `names`: the players' usernames by user id, if the caller has them (not changed).
    `rows`: the game's `open_offer_rows`, if the caller has them.
    """
    if loaded.game.status != "started":
        return []
    offers = open_offer_rows(loaded.game.id) if rows is None else rows
    if not offers:
        return []
    names = dict(
        names if names is not None else {p.user_id: p.user.username for p in loaded.players}
    )
    shown = []
    for _, user_id, mode, partner, created in offers:
        if not _readable(user_id, partner, viewer_id):
            continue
        if partner is not None and partner not in names:
            found = User.get_or_none(User.id == partner)
            names[partner] = found.username if found else "?"
        shown.append(
            {
                "username": names.get(user_id, "?"),
                "mode": mode,
                "partner": names.get(partner) if partner is not None else None,
                "at": created.strftime("%Y-%m-%dT%H:%M:%SZ") if created else None,
            }
        )
    return shown
