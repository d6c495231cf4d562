"""Games imported from records (SPEC §16, docs/records.md): replayed by the engine,
stored as finished games marked imported, all or nothing.

An imported game's players are names, not accounts: the record's tags are kept as JSON in
`Game.imported`, the game has no player rows (so no scores, no ratings, no leaderboard),
its admin is the importer, and its actions are stored under the importer's account.
"""

from __future__ import annotations

import json
import math
from datetime import timedelta

from corridorquest.engine import Seat, assign_seats
from corridorquest.records import worker
from corridorquest.services import replay_runs
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Conflict, Forbidden, RateLimited, Unprocessable
from corridorquest.store import fast
from corridorquest.store.imported_rows import imported_actions, imported_since
from corridorquest.store.models import Game, GameAction, utcnow

MAX_RECORDS = 100  # games in one import
# actions of all the games of one import: its rows are written in one transaction, which
# on SQLite runs on the event loop (about 50 ms for this many)
MAX_IMPORT_ACTIONS = 10_000
DAY = timedelta(days=1)


def _seed_for(first: Seat, players: int) -> int:
    """A seed whose draw makes `first` the first mover (as a game played here has)."""
    seed = 0
    while assign_seats(seed, players)[1] is not first:
        seed += 1
    return seed


def _within_limits(ctx: ServiceContext, user: CurrentUser, games: int, actions: int) -> None:
    """429 `import_limit` past IMPORTS_PER_DAY games in 24 hours; 409
    `import_quota_exceeded` past IMPORTED_ACTIONS_QUOTA actions kept."""
    settings = ctx.settings
    if settings.imports_per_day == 0:
        raise Forbidden("imports_off", "this server does not import games (IMPORTS_PER_DAY=0)")
    now = utcnow()
    recent = imported_since(user.id, now - DAY)
    if len(recent) + games > settings.imports_per_day:
        # the time until enough of the day's imports leave the window (a day when this
        # import alone is over the limit)
        freed = len(recent) + games - settings.imports_per_day
        wait = recent[freed - 1] + DAY - now if freed <= len(recent) else DAY
        raise RateLimited(
            "import_limit",
            f"you may import {settings.imports_per_day} games in 24 hours; you imported "
            f"{len(recent)} and this import holds {games}",
            retry_after=max(1, math.ceil(wait.total_seconds())),
        )
    kept = imported_actions(user.id)
    if kept + actions > settings.imported_actions_quota:
        raise Conflict(
            "import_quota_exceeded",
            f"your imported games may keep {settings.imported_actions_quota} actions on this "
            f"server; they keep {kept} and this import holds {actions}",
            quota=settings.imported_actions_quota,
            used=kept,
        )


async def import_records(ctx: ServiceContext, user: CurrentUser, text: str) -> list[int]:
    """Import every game of `text` (all or none); the ids of the new games.

    Reading and replaying run in the replay worker process (services/replay_runs.py), off
    the event loop; the limits are checked before (a quick check that nothing more may be
    imported at all) and again in the write's transaction."""
    await ctx.store.transaction(_within_limits, ctx, user, 1, 0)
    found = await replay_runs.run(
        worker.check_import, text, ctx.settings.max_game_actions, MAX_RECORDS,
        MAX_IMPORT_ACTIONS,
    )
    if isinstance(found, worker.Refusal):
        raise Unprocessable(
            found.reason, found.message, line=found.line, action=found.action,
            record=found.record,
        )
    games = [(item.record, item.final, item.movers) for item in found]
    actions = sum(len(record.actions) for record, _, _ in games)

    def write() -> list[int]:
        _within_limits(ctx, user, len(games), actions)
        ids = []
        now = utcnow()
        for record, final, movers in games:
            game = Game.create(
                status="finished",
                size=record.size,
                players=record.players,
                admin=user.id,
                seed=_seed_for(record.first, record.players),
                state=final,
                created_at=now,
                started_at=now,
                finished_at=now,
                imported=json.dumps(record.tags, sort_keys=True),
                rated=False,  # its players are names, not accounts
            )
            fast.insert_many(
                GameAction,
                ("game", "n", "seat", "user", "type", "notation", "at"),
                [
                    (game.id, n, seat, user.id, kind, action, now)
                    for n, (action, (seat, kind)) in enumerate(
                        zip(record.actions, movers, strict=True), start=1
                    )
                ],
            )
            ids.append(game.id)
        return ids

    return await ctx.store.transaction(write)
