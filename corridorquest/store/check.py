"""`corridorquest check`: the database is sound and every stored game replays.

- The database: SQLite runs `PRAGMA integrity_check` and `PRAGMA foreign_key_check`;
  PostgreSQL keeps its own pages sound, so it gets a cheap query. Either way the schema
  must be at this server's version (`corridorquest migrate` brings it there).
- Every started and finished game: its stored actions, played in order from the start
  position its seed gives (`engine.GameRecord`, the replayer of the tests), with the wall
  trades closed after each action (`WallOffer.closed_after_action`) moving walls between
  hands as they did in play, must give the stored state exactly (`game.state`); each
  action must be stored as played by the seat whose turn it was. A finished game must
  also have the stored winner and the stored scores (`engine.final_scores` with the
  players' trade balances, SPEC §6).

Nothing is written. Games are read a batch at a time, so a large database is checked in
bounded memory. The reading and replaying of stored games (`read_rows`, `stored_trades`,
`replay_stored`) live in store/replay.py, shared with migration step 7
(store/migrations/rescore.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import peewee as pw

from corridorquest.engine import GameState, ReplayError, Seat, final_scores
from corridorquest.store.migrations import current_version, latest_version
from corridorquest.store.models import Game, GamePlayer, WallOffer
from corridorquest.store.replay import (
    StoredAction,
    read_rows,
    replay_stored,
    state_differences,
    stored_trades,
)

BATCH = 200  # games read at a time
REPLAYED_STATUSES = ("started", "finished")
MAX_LISTED = 20  # database problems listed one by one (foreign keys), the rest counted


@dataclass
class CheckReport:
    """What `check_database` found: problems of the database and of single games."""

    problems: list[str] = field(default_factory=list)  # the database as a whole
    broken: dict[int, str] = field(default_factory=dict)  # game id -> what is wrong
    games: int = 0  # games replayed
    version: int = 0  # schema version found

    @property
    def ok(self) -> bool:
        return not self.problems and not self.broken


def check_game(
    game: Game, players: list[GamePlayer], actions: list[StoredAction], offers: list[WallOffer]
) -> str | None:
    """What is wrong with one started or finished game (None: nothing)."""
    if game.state is None:
        return f"{game.status} without a stored state"
    try:
        trades = stored_trades(players, offers)
    except ReplayError as error:
        return str(error)
    try:
        stored = json.loads(game.state)
    except ValueError as error:
        return f"its stored state is not JSON ({error})"
    try:
        replayed = replay_stored(game.size, game.players, int(game.seed), actions, trades)
    except (ReplayError, ValueError) as error:
        return f"its actions do not replay: {error}"
    if replayed.to_dict() != stored:
        differing = ""
        if isinstance(stored, dict):
            differing = state_differences(stored, replayed.to_dict())
        return f"its stored state is not what its {len(actions)} actions give ({differing})"
    if game.status == "finished":
        return _check_finish(game, players, replayed)
    if replayed.winner is not None:
        return "stored as started, but its actions finish it"
    return None


def _check_finish(game: Game, players: list[GamePlayer], state: GameState) -> str | None:
    if state.winner is None:
        return "stored as finished, but its actions do not finish it"
    by_seat = {Seat(player.seat): player for player in players if player.seat}
    winner = by_seat.get(state.winner)
    if winner is None or game.winner_id != winner.user_id:
        return f"its stored winner (user {game.winner_id}) is not the {state.winner.value} player"
    if set(by_seat) != set(state.seats):
        return "its players do not hold one seat each"
    scores = final_scores(state, {seat: player.trade_balance for seat, player in by_seat.items()})
    wrong = [
        f"{seat.value} {by_seat[seat].score} (should be {score})"
        for seat, score in scores.items()
        if by_seat[seat].score != score
    ]
    if wrong:
        return "its stored scores are not the replayed ones: " + ", ".join(wrong)
    return None


def _check_batch(games: list[Game], report: CheckReport) -> None:
    stored = read_rows([game.id for game in games])
    for game in games:
        report.games += 1
        if game.id in stored.gaps:
            found = stored.gaps[game.id]
            report.broken[game.id] = f"its actions are not numbered 1, 2, 3...: found {found}"
            continue
        try:
            problem = check_game(
                game, stored.players[game.id], stored.actions[game.id], stored.offers[game.id]
            )
        except (ValueError, KeyError, TypeError) as error:  # a row no server wrote
            problem = f"its rows cannot be read: {error}"
        if problem is not None:
            report.broken[game.id] = problem


def check_games(report: CheckReport) -> None:
    """Replay every started and finished game (inside a transaction: one snapshot)."""
    last_id = 0
    while True:
        games = list(
            Game.select()
            .where(Game.status.in_(REPLAYED_STATUSES) & (Game.id > last_id))
            .order_by(Game.id)
            .limit(BATCH)
        )
        if not games:
            return
        last_id = games[-1].id
        _check_batch(games, report)


def check_structure(db: pw.Database, report: CheckReport) -> None:
    """The database's own soundness (SQLite pages and foreign keys; PostgreSQL: a query)."""
    if isinstance(db, pw.SqliteDatabase):
        rows = [row[0] for row in db.execute_sql("PRAGMA integrity_check").fetchall()]
        if rows != ["ok"]:
            report.problems.extend(f"integrity_check: {row}" for row in rows[:MAX_LISTED])
        missing = db.execute_sql("PRAGMA foreign_key_check").fetchall()
        for table, rowid, parent, _ in missing[:MAX_LISTED]:
            report.problems.append(
                f"foreign_key_check: {table} row {rowid} refers to a missing {parent} row"
            )
        if len(missing) > MAX_LISTED:
            report.problems.append(f"foreign_key_check: {len(missing) - MAX_LISTED} more rows")
    else:
        db.execute_sql("SELECT 1").fetchall()


def check_database(db: pw.Database) -> CheckReport:
    """Check the database `database` is bound to (`db`): see the module docstring."""
    report = CheckReport()
    with db.connection_context():
        check_structure(db, report)
        report.version = current_version(db)
        if report.version != latest_version():
            report.problems.append(
                f"schema version {report.version}, this server's is {latest_version()}"
                + (": run `corridorquest migrate`" if report.version < latest_version() else "")
            )
            return report
        with db.atomic():
            check_games(report)
    return report
