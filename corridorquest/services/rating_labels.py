"""The labels shown next to players' names on lists of games (the web lobby, `/tv`):
each name's rating in a pool as `cq` shows it (`1623`, `1500?` while provisional) and,
for a bot, its level. One query for every name of a page, whatever its pools.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from corridorquest.ratings.glicko2 import Glicko
from corridorquest.services.context import ServiceContext
from corridorquest.services.ratings import POOLS, deviation_now, shown
from corridorquest.store.models import User, UserRating, utcnow
from corridorquest.store.rating_rows import Stored

NEWCOMER = shown(Glicko().rating, Glicko().deviation)  # "1500?": never rated in a pool


@dataclass(frozen=True)
class Label:
    """One player's label: the rating shown in each pool, the level of a bot."""

    username: str
    bot_level: int | None = None
    guest: bool = False  # a guest (GUESTS=on): never rated, no rating shown
    ratings: dict[str, str] = field(default_factory=dict)  # pool -> "1623" / "1500?"

    def rating(self, pool: str | None) -> str | None:
        """The rating shown in `pool` (None: the game has no pool, no rating shown)."""
        if pool is None or self.guest:
            return None
        return self.ratings.get(pool, NEWCOMER)


def pool_of(players: int) -> str | None:
    """The rating pool of a game of `players` seats ('2p', '4p')."""
    return POOLS.get(int(players))


def _when(value: Any) -> datetime:
    if isinstance(value, str):  # SQLite may hand a joined datetime back as text
        return datetime.fromisoformat(value)
    return value  # type: ignore[no-any-return]


def _labels(usernames: list[str]) -> dict[str, Label]:
    if not usernames:
        return {}
    now = utcnow()
    rows = (
        User.select(
            User.username, User.bot_level, User.guest, UserRating.pool, UserRating.rating,
            UserRating.deviation, UserRating.volatility, UserRating.games,
            UserRating.last_played_at,
        )
        .join(UserRating, "LEFT OUTER JOIN", on=(UserRating.user == User.id))
        .where(User.username.in_(usernames))
        .tuples()
    )
    found: dict[str, Label] = {}
    for name, level, guest, pool, rating, deviation, volatility, games, last_played in rows:
        label = found.setdefault(name, Label(name, level, bool(guest)))
        if pool is None:
            continue  # never rated
        stored = Stored(rating, deviation, volatility, games, _when(last_played))
        label.ratings[pool] = shown(rating, deviation_now(pool, stored, now))
    return found


async def rating_labels(ctx: ServiceContext, usernames: Iterable[str | None]) -> dict[str, Label]:
    """username -> Label for every existing user among `usernames` (None skipped), with
    the ratings of both pools, read in one query."""
    wanted = sorted({name for name in usernames if name})
    return await ctx.store.transaction(_labels, wanted)
