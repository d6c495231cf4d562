"""Running a tournament (SPEC §15): settling the results of its games, making the next
round, finishing it.

`advance(ctx, tournament_id)` does whatever is due, and is idempotent: it settles every
table whose game has ended (the result is copied onto the table, so it outlives the game),
and when every table of the current round is settled it makes the next round, or
finishes the tournament. A round is made once: in one transaction that holds the
tournament's lock (PostgreSQL: an advisory lock; SQLite: one writer) and inserts the
round's row, unique per (tournament, number), so that a second process that tries the
same round finds it made (or fails on the key and changes nothing). Its games are created
and started in that transaction, with the server as their maker (the tournament admin is
each game's admin), the players seated in the order the pairing gives (the first moves
first); their `GameStarted` events drive the bots and notify the players.

Who calls it: the scheduler's sweep (`sweep_tournaments`, every SCHEDULER_INTERVAL: after a
restart, or an event lost), a nudge when a game ends (`advance_for_game`, from the
scheduler's subscription to `GameFinished` and `GameCancelled`), and the use cases that
start a tournament or withdraw a player.

A table's result: a finished game: its winner and scores; a cancelled one: the players who
caused it forfeit (a withdrawal, a removal for stalling: the cancel reason names them
first; a player withdrawn from the tournament), the others win if one is left; a game
cancelled by an admin, or gone: no result (nobody scores).
"""

from __future__ import annotations

import json
import logging
import secrets
from datetime import datetime
from typing import Any

from corridorquest.engine import assign_seats
from corridorquest.events import Event, GameCreated, TournamentPaired
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import NotFound
from corridorquest.services.game_access import load_game
from corridorquest.services.games import cancel_game, start_game
from corridorquest.services.ratings import by_rating
from corridorquest.services.tournament_views import (
    ROUND_ROBINS,
    current_standings,
    entrants_of,
    players_of,
    rounds_of,
    tables_of,
    tournament_of_game,
)
from corridorquest.services.unit_of_work import GameWrite, run_system_write, system_write_game
from corridorquest.services.user_refs import ref
from corridorquest.store import IntegrityError, transaction_lock
from corridorquest.store.models import (
    Game,
    GamePlayer,
    Tournament,
    TournamentGame,
    TournamentRound,
    utcnow,
)
from corridorquest.tournaments.pairing import (
    History,
    Round,
    four_player_round,
    round_robin,
    swiss_round,
)

log = logging.getLogger(__name__)


def lock(tournament_id: int) -> None:
    transaction_lock(f"tournament:{tournament_id}")


# --- settling ---------------------------------------------------------------------------------


def _withdrawn(tournament_id: int) -> set[int]:
    return {e.user_id for e in entrants_of(tournament_id) if e.withdrawn_at is not None}


def settle(tournament: Tournament) -> None:
    """Copy the result of every ended game of `tournament` onto its table."""
    withdrawn = _withdrawn(tournament.id)
    for table in tables_of(tournament.id):
        if table.settled:
            continue
        players = players_of(table)
        game = Game.get_or_none(Game.id == table.game_id) if table.game_id else None
        if game is not None and game.status == "finished":
            table.winner = game.winner_id
            scores = {
                p.user_id: p.score
                for p in GamePlayer.select().where(GamePlayer.game == game.id)
                if p.score is not None
            }
            table.scores = json.dumps({str(k): v for k, v in scores.items()})
        elif game is None or game.status == "cancelled":
            reason = (game.cancel_reason or "") if game is not None else ""
            forfeited = [p for p in players if p in withdrawn or reason.startswith(ref(p))]
            table.forfeited = json.dumps(forfeited)
        else:
            continue  # still being played
        table.settled = True
        table.save()


# --- making a round ---------------------------------------------------------------------------


def _history(tournament_id: int) -> History:
    history = History()
    for table in tables_of(tournament_id):
        history.add(Round((players_of(table),)))
    for played in rounds_of(tournament_id):
        history.add(Round((), tuple(int(p) for p in json.loads(played.byes))))
    return history


def next_round(tournament: Tournament) -> Round | None:
    """The pairings of the next round; None when the tournament is over."""
    entrants = entrants_of(tournament.id)
    if tournament.kind in ROUND_ROBINS:
        schedule = round_robin(
            [e.user_id for e in entrants], tournament.kind == "double_round_robin"
        )
        return schedule[tournament.round] if tournament.round < len(schedule) else None
    active = {e.user_id for e in entrants if e.withdrawn_at is None}
    if tournament.round >= (tournament.rounds or 0) or len(active) < tournament.players:
        return None
    ranked = [line.player for line in current_standings(tournament) if line.player in active]
    make = four_player_round if tournament.players == 4 else swiss_round
    if tournament.round == 0:  # nobody has played: the ranking is the players' ratings
        return make(by_rating(tournament.players, ranked), History(), first=True)
    return make(ranked, _history(tournament.id))


def _seed_with_first(players: int) -> int:
    """A seed whose seating makes the first player in join order move first."""
    while True:
        seed = secrets.randbits(62)
        seats, first = assign_seats(seed, players)
        if seats[0] == first:
            return seed


def start_table(
    tournament: Tournament, table: tuple[int, ...], events: list[Event], now: datetime,
    number: int,
) -> int:
    """Create and start the game of one table (inside the round's transaction)."""
    game = Game.create(
        status="waiting",
        size=tournament.size,
        players=len(table),
        masked=tournament.masked,
        invisible=tournament.invisible,
        private=False,
        invitation_code=None,
        admin=tournament.admin_id,
        seed=_seed_with_first(len(table)),
        revision=1,
        created_at=now,
    )
    for order, user_id in enumerate(table):
        GamePlayer.create(game=game.id, user=user_id, join_order=order, joined_at=now)
    events.append(GameCreated(game_id=game.id, revision=1, admin_id=tournament.admin_id))
    loaded = load_game(game.id)
    loaded.game.revision = 2
    events.append(start_game(loaded, now))
    loaded.game.save()
    events.append(TournamentPaired(
        game_id=game.id, revision=2, tournament_id=tournament.id, round=number
    ))
    return int(game.id)


def make_round(tournament: Tournament, events: list[Event]) -> bool:
    """Make the next round of `tournament` (or finish it); False when it finished."""
    pairing = next_round(tournament)
    now = utcnow()
    if pairing is None:
        tournament.status = "finished"
        tournament.finished_at = now
        tournament.save()
        return False
    withdrawn = _withdrawn(tournament.id)
    number = tournament.round + 1
    TournamentRound.create(
        tournament=tournament.id,
        number=number,
        byes=json.dumps([p for p in pairing.byes if p not in withdrawn]),
        started_at=now,
    )
    for board, table in enumerate(pairing.tables, start=1):
        out = [p for p in table if p in withdrawn]
        game_id = None if out else start_table(tournament, table, events, now, number)
        TournamentGame.create(
            tournament=tournament.id,
            round=number,
            board=board,
            game=game_id,
            players=json.dumps(list(table)),
            settled=bool(out),
            forfeited=json.dumps(out),
        )
    tournament.round = number
    tournament.save()
    return True


def _round_done(tournament: Tournament) -> bool:
    return not any(
        t.round == tournament.round and not t.settled for t in tables_of(tournament.id)
    )


def advance_in_transaction(tournament_id: int, events: list[Event]) -> None:
    lock(tournament_id)
    tournament = Tournament.get_or_none(Tournament.id == tournament_id)
    if tournament is None or tournament.status != "started":
        return
    settle(tournament)
    # a round whose every table was a forfeit is done at once: make the next one too
    while _round_done(tournament) and make_round(tournament, events):
        pass


# --- the entry points -------------------------------------------------------------------------


def _games_to_cancel(tournament_id: int) -> list[tuple[int, int]]:
    """(game id, withdrawn player) of started games a withdrawn player still sits in."""
    withdrawn = _withdrawn(tournament_id)
    found = []
    for table in tables_of(tournament_id):
        if table.settled or table.game_id is None:
            continue
        for p in players_of(table):
            if p in withdrawn:
                found.append((int(table.game_id), p))
                break
    return found


async def cancel_for_withdrawal(ctx: ServiceContext, game_id: int, user_id: int) -> None:
    """Cancel the started game `game_id` because `user_id` withdrew from its tournament
    (the reason names them first: they forfeit it)."""

    def cancel(work: GameWrite) -> None:
        game = work.loaded.game
        if game.status not in ("waiting", "started"):
            return
        game.revision += 1
        work.emit(cancel_game(work.loaded, None, f"{ref(user_id)} withdrew from the tournament"))
        game.save()

    await system_write_game(ctx, game_id, cancel, if_missing=None)


async def advance(ctx: ServiceContext, tournament_id: int) -> None:
    """Do what is due in tournament `tournament_id` (idempotent)."""
    for game_id, user_id in await ctx.store.transaction(_games_to_cancel, tournament_id):
        await cancel_for_withdrawal(ctx, game_id, user_id)
    try:
        await run_system_write(ctx, lambda events: advance_in_transaction(tournament_id, events))
    except IntegrityError:  # another process made that round first
        log.info("tournament %d: round already made by another process", tournament_id)


async def advance_for_game(ctx: ServiceContext, game_id: int) -> None:
    """A game ended: advance its tournament, if it has one."""
    tournament_id = await ctx.store.transaction(tournament_of_game, game_id)
    if tournament_id is not None:
        await advance(ctx, tournament_id)


def _started() -> list[int]:
    return [
        tid for (tid,) in Tournament.select(Tournament.id)
        .where(Tournament.status == "started").order_by(Tournament.id).tuples()
    ]


async def sweep_tournaments(ctx: ServiceContext) -> Any:
    """The scheduler's sweep: advance every started tournament; again after
    SCHEDULER_INTERVAL (None)."""
    for tournament_id in await ctx.store.transaction(_started):
        try:
            await advance(ctx, tournament_id)
        except NotFound:
            continue
    return None
