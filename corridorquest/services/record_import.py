"""Games imported from records (SPEC §16, docs/records.md): replayed by the engine,
stored as finished games marked imported, all or nothing.

An imported game's players are names, not accounts: the record's tags are kept as JSON in
`Game.imported`, the game has no player rows (so no scores, no ratings, no leaderboard),
its admin is the importer, and its actions are stored under the importer's account.
"""

from __future__ import annotations

import json

from corridorquest.engine import GameState, Seat, assign_seats
from corridorquest.records import Record, RecordError, parse_records, played
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Unprocessable
from corridorquest.store.models import Game, GameAction, utcnow

MAX_RECORDS = 100  # games in one import


def _refusal(error: RecordError, index: int | None) -> Unprocessable:
    message = str(error) if index is None else f"record {index}, {error}"
    return Unprocessable(error.reason, message, line=error.line, action=error.action, record=index)


def _seed_for(first: Seat, players: int) -> int:
    """A seed whose draw makes `first` the first mover (as a game played here has)."""
    seed = 0
    while assign_seats(seed, players)[1] is not first:
        seed += 1
    return seed


def checked(text: str) -> list[tuple[Record, GameState, list[tuple[Seat, str]]]]:
    """Every record of `text` replayed: (record, final position, seat and kind of each
    action). 422 with the reason, the line and the action at the first problem."""
    try:
        records = parse_records(text)
    except RecordError as error:
        raise _refusal(error, None) from None
    if len(records) > MAX_RECORDS:
        raise Unprocessable(
            "too_many_records",
            f"at most {MAX_RECORDS} games in one import ({len(records)})",
            line=None,
            action=None,
            record=None,
        )
    index_of = (lambda i: i) if len(records) > 1 else (lambda i: None)
    found = []
    for index, record in enumerate(records, start=1):
        try:
            positions, movers = played(record)
        except RecordError as error:
            raise _refusal(error, index_of(index)) from None
        final = positions[-1]
        where = f"record {index}: " if len(records) > 1 else ""
        if final.winner is None:
            raise Unprocessable(
                "unfinished_record",
                f"{where}the game has no winner after its {len(record.actions)} actions "
                "(only finished games are imported)",
                line=None,
                action=None,
                record=index_of(index),
            )
        result = record.tags.get("Result", "*").strip().lower()
        if result not in ("*", "") and result != final.winner.value:
            raise Unprocessable(
                "result_mismatch",
                f"{where}Result says {result}, but {final.winner.value} wins the game",
                line=None,
                action=None,
                record=index_of(index),
            )
        found.append((record, final, movers))
    return found


async def import_records(ctx: ServiceContext, user: CurrentUser, text: str) -> list[int]:
    """Import every game of `text` (all or none); the ids of the new games."""
    games = checked(text)

    def write() -> list[int]:
        ids = []
        now = utcnow()
        for record, final, movers in games:
            game = Game.create(
                status="finished",
                size=record.size,
                players=record.players,
                admin=user.id,
                seed=_seed_for(record.first, record.players),
                state=final.to_json(),
                created_at=now,
                started_at=now,
                finished_at=now,
                imported=json.dumps(record.tags, sort_keys=True),
                rated=False,  # its players are names, not accounts
            )
            rows = [
                {
                    "game": game.id,
                    "n": n,
                    "seat": seat.value,
                    "user": user.id,
                    "type": kind,
                    "notation": text,
                    "at": now,
                }
                for n, (text, (seat, kind)) in enumerate(
                    zip(record.actions, movers, strict=True), start=1
                )
            ]
            for start in range(0, len(rows), 200):
                GameAction.insert_many(rows[start : start + 200]).execute()
            ids.append(game.id)
        return ids

    return await ctx.store.transaction(write)
