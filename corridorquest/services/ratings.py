"""Ratings (SPEC §14): updated with every finished game, shown, recomputed.

Pools: '2p' (Glicko-2, `ratings.glicko2`) and '4p' (openskill's Plackett-Luce fed the
final ranking by score, `ratings.multiplayer`), every size and mode in one pool each.
New players start at 1500 with a deviation of 350; above 110 a rating is provisional
(shown with `?`). Before each game a player's deviation grows back for the time since
its last rated game (one rating period a week).

Exactly once: `record_finish` runs inside the transaction that finishes the game
(`play._finish`), so the ratings commit with the finish or not at all, across kill -9
too; a retried request finds the finish done (idempotency key or the game's status) and
does not come here again; `game_rating` is unique per game and player. Two processes on
PostgreSQL: the players' rating locks (`rating_rows.lock_players`) order the two
transactions. docs/contributing/ratings.md says why not the outbox.
Cancelled games never finish, so they change nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from corridorquest.ratings import glicko2, multiplayer
from corridorquest.ratings.glicko2 import Glicko, is_provisional
from corridorquest.ratings.multiplayer import Skill
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import NotFound
from corridorquest.services.game_access import load_visible
from corridorquest.services.guests import any_guest, games_with_guests
from corridorquest.services.iso_times import iso
from corridorquest.store import rating_rows
from corridorquest.store.models import Game, GamePlayer, User, utcnow
from corridorquest.store.rating_rows import Change, Stored

POOLS = {2: "2p", 4: "4p"}
LEADERBOARD_MIN_GAMES = 5
LEADERBOARD_ACTIVE = timedelta(days=90)
LEADERBOARD_SIZE = 10
LEADERBOARD_MAX = 100


# --- the update --------------------------------------------------------------------------

def record_finish(game: Game, scores: Mapping[int, int], at: datetime) -> None:
    """Inside the finishing transaction: rate the game's players (user id -> final score)
    in its pool, once; `game.rated` says whether it did (the caller saves the game row).
    It is what `rerate_all` follows: who is a guest may change afterwards."""
    pool = POOLS.get(int(game.players))
    if pool is None or len(scores) < 2 or any_guest(scores):  # a guest: unrated for all
        game.rated = False
        return
    game.rated = True
    rating_rows.lock_players(pool, scores)
    if rating_rows.is_rated(game.id):
        return
    _rate(pool, game.id, scores, at)


def _rate(pool: str, game_id: int, scores: Mapping[int, int], at: datetime) -> None:
    stored = rating_rows.current(pool, sorted(scores))
    rating_rows.write(pool, game_id, at, _changes(pool, scores, at, stored), stored)


def _changes(
    pool: str, scores: Mapping[int, int], at: datetime, stored: Mapping[int, Stored]
) -> list[Change]:
    users = sorted(scores)
    if pool == "2p":
        first, second = (_glicko(stored.get(u), at) for u in users)
        a, b = scores[users[0]], scores[users[1]]
        result = 1.0 if a > b else 0.0 if a < b else 0.5
        after = glicko2.rate_duel(first, second, result)
        return [
            Change(u, (g.rating, g.deviation, g.volatility), (n.rating, n.deviation, n.volatility))
            for u, g, n in zip(users, (first, second), after, strict=True)
        ]
    before = [_skill(stored.get(u), at) for u in users]
    after_4p = multiplayer.rate_free_for_all(before, [scores[u] for u in users])
    return [
        Change(u, (s.rating, s.deviation, None), (n.rating, n.deviation, None))
        for u, s, n in zip(users, before, after_4p, strict=True)
    ]


def _glicko(stored: Stored | None, at: datetime) -> Glicko:
    if stored is None:
        return Glicko()
    rating = Glicko(stored.rating, stored.deviation, stored.volatility or 0.06)
    return glicko2.grown(rating, at - stored.last_played_at)


def _skill(stored: Stored | None, at: datetime) -> Skill:
    if stored is None:
        return Skill()
    return multiplayer.grown(Skill(stored.rating, stored.deviation), at - stored.last_played_at)


def by_rating(players: int, user_ids: Sequence[int]) -> list[int]:
    """`user_ids` by their rating in the pool of `players`-seat games, the highest first
    (a player without one at the initial 1500); equal ratings keep the order given.
    Inside a transaction. (A Swiss tournament's first round pairs in this order.)"""
    pool = POOLS.get(int(players))
    if pool is None or not user_ids:
        return list(user_ids)
    stored = rating_rows.current(pool, user_ids)
    return sorted(user_ids, key=lambda uid: -(stored[uid].rating if uid in stored
                                              else glicko2.INITIAL_RATING))


def deviation_now(pool: str, stored: Stored, now: datetime) -> float:
    """The deviation as grown since the last game (what a game now would start from)."""
    if pool == "2p":
        return _glicko(stored, now).deviation
    return _skill(stored, now).deviation


# --- rerate ------------------------------------------------------------------------------

def rerate_all() -> int:
    """Inside one transaction: forget every rating and rate every finished game again, in
    the order the incremental updates took. Returns how many games were rated.

    The games rated are those whose finish rated them (`game.rated`, migration 26), not
    those without a guest today: a guest converted to an account since keeps its old
    games unrated. (A finished game that does not say, which migration 26 leaves none
    of: the rule of its finish, no guest among its players.)"""
    rating_rows.lock_all()
    games = rating_rows.finished_games()
    with_guests = games_with_guests()
    rating_rows.forget_all()
    rated = 0
    for game in games:
        pool = POOLS.get(game.players)
        if pool is None or len(game.scores) < 2 or game.rated is False:
            continue
        if game.rated is None and game.id in with_guests:
            continue
        _rate(pool, game.id, game.scores, game.finished_at)
        rated += 1
    return rated


# --- views -------------------------------------------------------------------------------

def shown(rating: float, deviation: float) -> str:
    """1523, or 1523? while provisional."""
    return f"{round(rating)}{'?' if is_provisional(deviation) else ''}"


def _pool_view(pool: str, stored: Stored | None, now: datetime) -> dict[str, Any]:
    if stored is None:
        first = Glicko() if pool == "2p" else Skill()
        return {
            "pool": pool, "rating": round(first.rating), "deviation": round(first.deviation),
            "provisional": True, "shown": shown(first.rating, first.deviation), "games": 0,
            "last_played_at": None, "last_change": None,
        }
    deviation = deviation_now(pool, stored, now)
    return {
        "pool": pool,
        "rating": round(stored.rating),
        "deviation": round(deviation),
        "provisional": is_provisional(deviation),
        "shown": shown(stored.rating, deviation),
        "games": stored.games,
        "last_played_at": iso(stored.last_played_at),
        "last_change": None,
    }


def _find_user(username: str) -> User:
    user = User.find_by_name(username)
    if user is None:
        raise NotFound("user_not_found", f"no user {username}")
    return user


def _visible_game_ids(game_ids: list[int], caller: CurrentUser | None) -> set[int]:
    """Of `game_ids`, those whose id the caller may see (private: players and admins)."""
    if not game_ids:
        return set()
    private = {
        g for (g,) in Game.select(Game.id).where(Game.id.in_(game_ids) & Game.private).tuples()
    }
    if not private or (caller is not None and caller.is_admin):
        return set(game_ids)
    mine: set[int] = set()
    if caller is not None:
        mine = {
            g for (g,) in GamePlayer.select(GamePlayer.game)
            .where(GamePlayer.game.in_(list(private)) & (GamePlayer.user == caller.id))
            .tuples()
        }
    return {g for g in game_ids if g not in private or g in mine}


def _user_ratings(
    username: str, caller: CurrentUser | None, with_history: bool,
    history_page: tuple[int, int] | None,
) -> dict[str, Any]:
    user = _find_user(username)
    now = utcnow()
    stored = rating_rows.of_user(user.id)
    trend = rating_rows.last_changes(user.id)
    pools = []
    for pool in POOLS.values():
        view = _pool_view(pool, stored.get(pool), now)
        view["last_change"] = trend.get(pool)
        if with_history:
            limit, skip = history_page if history_page is not None else (None, 0)
            rows = rating_rows.history(user.id, pool, limit, skip)
            visible = _visible_game_ids([game.id for _, game in rows], caller)
            view["history"] = [
                {
                    "game_id": game.id if game.id in visible else None,
                    "private": bool(game.private),
                    "at": iso(row.at),
                    "rating": round(row.rating_after),
                    "deviation": round(row.deviation_after),
                    "change": round(row.rating_after) - round(row.rating_before),
                }
                for row, game in rows
            ]
        pools.append(view)
    return {"username": user.username, "pools": pools}


async def user_ratings(
    ctx: ServiceContext, caller: CurrentUser | None, username: str, with_history: bool = False,
    history_page: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """Both pools of a user, as of now; `with_history`: every rated game's rating after,
    or with `history_page` (limit, skip) a page of them: the `limit` newest after the
    `skip` newest (a profile page: a bot has thousands)."""
    return await ctx.store.transaction(
        _user_ratings, username, caller, with_history, history_page
    )


async def game_ratings(
    ctx: ServiceContext, caller: CurrentUser, game_id: int, invitation_code: str | None = None
) -> dict[str, Any]:
    """Each player's rating before and after a finished game (empty before the finish)."""

    def read() -> dict[str, Any]:
        loaded = load_visible(game_id, caller, invitation_code)
        rows = rating_rows.of_game(game_id)
        names = {p.user_id: p.user.username for p in loaded.players if p.user is not None}
        return {
            "game_id": game_id,
            "pool": rows[0].pool if rows else POOLS.get(int(loaded.game.players)),
            "rated": bool(rows),
            "players": [
                {
                    "username": names.get(row.user_id),
                    "before": round(row.rating_before),
                    "after": round(row.rating_after),
                    "change": round(row.rating_after) - round(row.rating_before),
                    "deviation_before": round(row.deviation_before),
                    "deviation_after": round(row.deviation_after),
                    "shown_before": shown(row.rating_before, row.deviation_before),
                    "shown_after": shown(row.rating_after, row.deviation_after),
                }
                for row in rows
            ],
        }

    return await ctx.store.transaction(read)


def _leaderboard(pool: str, limit: int) -> dict[str, Any]:
    now = utcnow()
    entries: list[dict[str, Any]] = []
    for row, username in rating_rows.leaders(
        pool, LEADERBOARD_MIN_GAMES, glicko2.PROVISIONAL_DEVIATION, now - LEADERBOARD_ACTIVE
    ):
        stored = Stored(row.rating, row.deviation, row.volatility, row.games,
                        row.last_played_at)
        deviation = deviation_now(pool, stored, now)
        if is_provisional(deviation):
            continue
        entries.append({
            "rank": len(entries) + 1,
            "username": username,
            "rating": round(row.rating),
            "deviation": round(deviation),
            "games": row.games,
            "last_played_at": iso(row.last_played_at),
        })
        if len(entries) >= limit:
            break
    return {
        "pool": pool,
        "min_games": LEADERBOARD_MIN_GAMES,
        "active_days": LEADERBOARD_ACTIVE.days,
        "entries": entries,
    }


async def leaderboard(
    ctx: ServiceContext, pool: str, limit: int = LEADERBOARD_SIZE
) -> dict[str, Any]:
    """The highest ratings of a pool: at least 5 games, not provisional, a game within 90
    days. Equal ratings: the lower user id first. `pool` ('2p', '4p') and `limit` (1 to
    LEADERBOARD_MAX) are checked by the caller (the API's query model)."""
    assert pool in POOLS.values() and 1 <= limit <= LEADERBOARD_MAX
    return await ctx.store.transaction(_leaderboard, pool, limit)
