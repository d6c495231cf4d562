"""Claims on computing a bot's move (`bot_turn_claim`, migration 27): with several server
processes on one database, each bot move is computed by one of them (issue 48 item 14).

A claim names the game's revision and its owner (one bot driver) and runs out at `until`:
a process that dies while computing leaves a claim that another takes over once it has run
out. One upsert decides, atomically on both databases (`INSERT ... ON CONFLICT DO UPDATE
... WHERE`): the claim is taken when there is none, when it is of an earlier revision,
when it has run out, or when it is the owner's own (a retry of the same turn).
"""

from __future__ import annotations

from datetime import timedelta

from corridorquest.store.models import BotTurnClaim, utcnow


def claim_bot_turn(game_id: int, revision: int, owner: str, lease_seconds: float) -> bool:
    """Whether `owner` now holds the claim on the bot move at `revision` of `game_id`, for
    `lease_seconds` (inside a transaction)."""
    now = utcnow()
    until = now + timedelta(seconds=lease_seconds)
    (
        BotTurnClaim.insert(game=game_id, revision=revision, owner=owner, until=until)
        .on_conflict(
            conflict_target=[BotTurnClaim.game],
            update={
                BotTurnClaim.revision: revision,
                BotTurnClaim.owner: owner,
                BotTurnClaim.until: until,
            },
            where=(
                (BotTurnClaim.revision < revision)
                | (BotTurnClaim.until < now)
                | (BotTurnClaim.owner == owner)
            ),
        )
        .execute()
    )
    held = (
        BotTurnClaim.select(BotTurnClaim.revision, BotTurnClaim.owner)
        .where(BotTurnClaim.game == game_id)
        .tuples()
        .first()
    )
    return held is not None and held[0] == revision and held[1] == owner
