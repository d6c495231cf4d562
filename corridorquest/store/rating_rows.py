"""Rating rows (SPEC §14): read, lock and write `UserRating` and `GameRating`.

Every function runs inside the caller's transaction. `lock_players` serialises the
transactions that rate the same players (PostgreSQL: transaction-scoped advisory locks,
taken in user-id order so two finishes never wait for each other in a circle; SQLite: the
loop already runs one transaction at a time), so that no update is lost between two
processes, even for a player without a row yet.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import peewee as pw

from corridorquest.store import fast
from corridorquest.store.models import (
    Game,
    GamePlayer,
    GameRating,
    User,
    UserRating,
    database,
)
from corridorquest.store.row_locks import transaction_lock


@dataclass(frozen=True)
class Stored:
    """A rating as stored: `volatility` None in the 4-player pool."""

    rating: float
    deviation: float
    volatility: float | None
    games: int
    last_played_at: datetime
    row_id: int | None = None  # the `user_rating` row (read for a write)


@dataclass(frozen=True)
class Change:
    """One player's rating before (grown for inactivity) and after one game."""

    user_id: int
    before: tuple[float, float, float | None]
    after: tuple[float, float, float | None]


def lock_players(pool: str, user_ids: Iterable[int]) -> None:
    for user_id in sorted(set(user_ids)):
        transaction_lock(f"rating:{pool}:{user_id}")


# The update runs inside every finishing move: its statements go through `fast` (SQL
# built once), not peewee's query builder (about 0.5 ms a statement).

def is_rated(game_id: int) -> bool:
    sql = 'SELECT 1 FROM "game_rating" WHERE "game_id" = ? LIMIT 1'
    return fast.execute(sql if fast.is_sqlite() else sql.replace("?", "%s"),
                        (game_id,)).fetchone() is not None


def current(pool: str, user_ids: Sequence[int]) -> dict[int, Stored]:
    marks = ", ".join("?" for _ in user_ids)
    rows = fast.select(UserRating, f"t.pool = ? AND t.user_id IN ({marks})",
                       (pool, *user_ids))
    return {
        row.user_id: Stored(
            row.rating, row.deviation, row.volatility, row.games, _when(row.last_played_at),
            row.id,
        )
        for row in rows
    }


def write(
    pool: str, game_id: int, at: datetime, changes: Sequence[Change],
    stored: Mapping[int, Stored],
) -> None:
    """The game's ratings: one `GameRating` per player (unique: a second write of the same
    game fails), each player's `UserRating` (`stored`: as read by `current` under the
    lock) set to after, one more game, last played at."""
    for change in changes:
        fast.insert(
            GameRating,
            game=game_id,
            user=change.user_id,
            pool=pool,
            rating_before=change.before[0],
            deviation_before=change.before[1],
            volatility_before=change.before[2],
            rating_after=change.after[0],
            deviation_after=change.after[1],
            volatility_after=change.after[2],
            at=at,
        )
    for change in changes:
        rating, deviation, volatility = change.after
        known = stored.get(change.user_id)
        if known is not None and known.row_id is not None:
            fast.update_by_id(
                UserRating, known.row_id, rating=rating, deviation=deviation,
                volatility=volatility, games=known.games + 1, last_played_at=at,
            )
        else:
            fast.insert(
                UserRating, user=change.user_id, pool=pool, rating=rating,
                deviation=deviation, volatility=volatility, games=1, last_played_at=at,
            )


def of_user(user_id: int) -> dict[str, Stored]:
    return {
        row.pool: Stored(
            row.rating, row.deviation, row.volatility, row.games, _when(row.last_played_at)
        )
        for row in UserRating.select().where(UserRating.user == user_id)
    }


def last_changes(user_id: int) -> dict[str, float]:
    """Per pool, the rating change of the user's last rated game (the trend)."""
    found: dict[str, float] = {}
    for pool in ("2p", "4p"):
        row = (
            GameRating.select(GameRating.rating_before, GameRating.rating_after)
            .where((GameRating.user == user_id) & (GameRating.pool == pool))
            .order_by(GameRating.id.desc())
            .first()
        )
        if row is not None:
            found[pool] = round(row.rating_after) - round(row.rating_before)
    return found


def of_game(game_id: int) -> list[GameRating]:
    return list(GameRating.select().where(GameRating.game == game_id).order_by(GameRating.id))


def history(
    user_id: int, pool: str, limit: int | None = None, skip: int = 0
) -> list[tuple[GameRating, Game]]:
    """The user's rated games of `pool`, in the order they were rated, with each game;
    with `limit`, only that many of them: the newest after skipping the `skip` newest."""
    query = (
        GameRating.select(GameRating, Game)
        .join(Game)
        .where((GameRating.user == user_id) & (GameRating.pool == pool))
    )
    if limit is None:
        return [(row, row.game) for row in query.order_by(GameRating.id)]
    newest = query.order_by(GameRating.id.desc()).offset(skip).limit(limit)
    return [(row, row.game) for row in reversed(list(newest))]


def leaders(
    pool: str, min_games: int, max_deviation: float, active_since: datetime
) -> Iterator[tuple[UserRating, str]]:
    """The highest ratings of `pool` with at least `min_games`, a deviation at most
    `max_deviation` (as stored: at the user's last game) and a game since `active_since`."""
    query = (
        UserRating.select(UserRating, User.username)
        .join(User)
        .where(
            (UserRating.pool == pool)
            & (UserRating.games >= min_games)
            & (UserRating.deviation <= max_deviation)
            & (UserRating.last_played_at >= active_since)
        )
        .order_by(UserRating.rating.desc(), UserRating.user)
    )
    for row in query.iterator():
        yield row, row.user.username


# --- rerate ------------------------------------------------------------------------------

@dataclass(frozen=True)
class FinishedGame:
    id: int
    players: int
    finished_at: datetime
    scores: dict[int, int]  # user id -> final score
    rated: bool | None  # whether its finish rated it (`Game.rated`)


def finished_games() -> list[FinishedGame]:
    """Every finished game with its scores, in the order of the incremental updates:
    games rated before (by their first `GameRating`), after those finished before ratings
    existed (by finish time, then id)."""
    first_rating: dict[int, int] = dict(
        GameRating.select(GameRating.game, pw.fn.MIN(GameRating.id))
        .group_by(GameRating.game)
        .tuples()
    )
    scores: dict[int, dict[int, int]] = {}
    rows = (
        GamePlayer.select(GamePlayer.game, GamePlayer.user, GamePlayer.score)
        .join(Game)
        .where((Game.status == "finished") & GamePlayer.score.is_null(False))
        .tuples()
    )
    for game_id, user_id, score in rows:
        scores.setdefault(game_id, {})[user_id] = score
    games = [
        FinishedGame(
            game_id, players, _when(finished_at), scores.get(game_id, {}),
            None if rated is None else bool(rated),
        )
        for game_id, players, finished_at, rated in Game.select(
            Game.id, Game.players, Game.finished_at, Game.rated
        )
        .where(Game.status == "finished")
        .tuples()
    ]

    def order(game: FinishedGame) -> tuple[Any, ...]:
        if game.id in first_rating:
            return (1, first_rating[game.id], game.finished_at, game.id)
        return (0, 0, game.finished_at, game.id)

    return sorted(games, key=order)


def lock_all() -> None:
    """Before a rerate reads anything. PostgreSQL: both tables locked until the
    transaction ends, so a game finishing meanwhile on a running server waits and is then
    rated on top of the recomputed ratings (SQLite: one writer at a time already)."""
    if isinstance(database.obj, pw.PostgresqlDatabase):
        database.obj.execute_sql(
            'LOCK TABLE "user_rating", "game_rating" IN ACCESS EXCLUSIVE MODE'
        )


def forget_all() -> None:
    """Every rating gone (rerate starts from nothing)."""
    GameRating.delete().execute()
    UserRating.delete().execute()


def _when(value: Any) -> datetime:
    if isinstance(value, str):  # SQLite aggregates and raw tuples may come back as text
        return datetime.fromisoformat(value)
    return value  # type: ignore[no-any-return]
