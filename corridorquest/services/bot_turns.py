"""One computation per bot move across server processes (issue 48 item 14).

Before it computes a bot's move, a bot driver claims the game's turn (`claim_turn`, a row
with a lease in the store: `store/bot_claims.py`). With several processes on one database
the first to claim a turn computes it; another that finds it claimed (its safety sweep
found the turn waiting while the first had it queued, say) leaves it. The lease is the
time cap of a search, the pace of a game of bots only and a margin: a process that dies
while computing delays the move until the lease runs out and a sweep finds it.
"""

from __future__ import annotations

from corridorquest.store.bot_claims import claim_bot_turn

LEASE_MARGIN = 10.0  # seconds beyond the time cap: to play the move once computed


def claim_turn(game_id: int, revision: int, owner: str, seconds: float) -> bool:
    """Whether the driver `owner` may compute the bot move at `revision` of `game_id`,
    which it expects to play within `seconds` (the search's cap and the pace of a game of
    bots only; inside a transaction: `ctx.store.transaction(claim_turn, ...)`)."""
    return claim_bot_turn(game_id, revision, owner, seconds + LEASE_MARGIN)
