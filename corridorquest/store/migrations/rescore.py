"""Migration steps 7 and 25: the stored scores of finished games, recomputed by the engine.

Step 25 (wave 4) does again what step 7 did, for another change of the engine's
`final_scores`: progress is clamped at 0 (SPEC §6). Walls can make a player's path to
the goal longer than the board, which gave a negative progress and scores below 0
(`bot-2 -37, bot-6 -82`); every finished game is rescored the same way as below, and
only the games whose scores change are written (their revision moves on).

Until step 7 the engine divided progress and wall thrift by 100 (the manual's literal
formula), so a game was worth at most one point before rounding and a single trade
decided every score. SPEC §6 reads the weights as points; this step rescores every
finished game with the engine's `final_scores`:

- the position is the one the game's stored actions give, replayed from the start
  position of its seed with its wall trades moving walls between hands where they were
  closed: the replayer of `corridorquest check` (store/replay.py), so a game is scored from
  what was played, whatever its stored final state (`game.state`) says. When the two
  disagree (a state edited by hand, a bug of the day), a WARNING names the game and the
  fields that differ, and the replay counts; the stored state is left as it is for an
  administrator to look at (`corridorquest check` reports the game too). A game whose
  actions do not replay is scored from its stored state, with a WARNING; one with
  neither keeps its scores.
- trade balances are the players' stored `trade_balance`: wall costs, already points
  (SPEC §5), unchanged by the new scale.
- the winner's system message "alice won the game. Scores: alice 1, bob 0" gets the new
  scores, in the new order (highest first, equal scores in join order, as the server
  writes it). Its names stay as they were written (the usernames of that day). The
  names are matched to players by position: the message listed the old scores highest
  first, equal ones in join order, so the players sorted that way are the entries in
  order. A message that does not list exactly those scores (edited by hand) is left
  as it was, with a warning in the log.
- the game's revision moves on when anything changed, so that a running process (or
  client) that remembered the game reads it again (docs/administration.md).

Cancelled and unfinished games have no scores and are not touched. Highscores and
leaderboards are queries over the stored scores: they follow.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass

import peewee as pw

from corridorquest.engine import GameState, ReplayError, Seat, final_scores
from corridorquest.store.models import Game, GameMessage, GamePlayer
from corridorquest.store.replay import (
    StoredRows,
    read_rows,
    replay_stored,
    state_differences,
    stored_trades,
)

log = logging.getLogger(__name__)

BATCH = 200  # games read at a time
FINISHED_MARK = " won the game. Scores: "


@dataclass
class Scored:
    """A player of a finished game: its row id, its old and its new score."""

    player_id: int
    old: int
    new: int


def _by_old(players: Sequence[Scored]) -> list[Scored]:
    """Highest old score first; equal scores keep join order (`players` is in join order)."""
    return sorted(players, key=lambda player: -player.old)


def _by_new(players: Sequence[Scored]) -> list[Scored]:
    return sorted(players, key=lambda player: -player.new)


def rewrite_finish_text(text: str, players: Sequence[Scored]) -> str | None:
    """`text` ("alice won the game. Scores: alice 1, bob 0") with the new scores, or None
    when it does not list the old scores of `players` (players in join order)."""
    head, mark, listed = text.partition(FINISHED_MARK)
    if not mark or not head:
        return None
    entries = [entry.rpartition(" ") for entry in listed.split(", ")]
    old = _by_old(players)
    if len(entries) != len(old):
        return None
    names: dict[int, str] = {}
    for (name, space, score), player in zip(entries, old, strict=True):
        if not space or not name or score != str(player.old):
            return None
        names[player.player_id] = name
    scores = ", ".join(f"{names[p.player_id]} {p.new}" for p in _by_new(players))
    return f"{head}{mark}{scores}"


def _final_position(game: Game, stored: StoredRows) -> GameState | None:
    """The position of a finished game: its actions replayed (see the module docstring);
    its stored state when they do not replay; None when neither is there."""
    saved: dict[str, object] | None = None
    try:
        loaded = json.loads(game.state) if game.state is not None else None
        if isinstance(loaded, dict):
            GameState.from_dict(loaded)  # it loads
            saved = loaded
    except (TypeError, ValueError, KeyError) as error:
        log.warning("game %d: its stored state does not load (%s)", game.id, error)
    actions = stored.actions[game.id]
    try:
        if game.id in stored.gaps:
            raise ReplayError(
                f"its actions are not numbered 1, 2, 3...: found {stored.gaps[game.id]}"
            )
        trades = stored_trades(stored.players[game.id], stored.offers[game.id])
        replayed = replay_stored(game.size, game.players, int(game.seed), actions, trades)
    except (ReplayError, ValueError, KeyError, TypeError) as error:
        if saved is None:
            log.warning(
                "game %d: its actions do not replay (%s) and it has no usable stored "
                "state: scores kept",
                game.id,
                error,
            )
            return None
        log.warning(
            "game %d: its actions do not replay (%s): scored from its stored state", game.id, error
        )
        return GameState.from_dict(saved)
    position = replayed.to_dict()
    if saved is None:
        log.warning(
            "game %d: scored from its %d actions replayed (no usable stored state)",
            game.id,
            len(actions),
        )
    elif position != saved:
        log.warning(
            "game %d: its stored state is not what its %d actions give (%s): scored from "
            "the replay, the stored state left as it is",
            game.id,
            len(actions),
            state_differences(saved, position),
        )
    return replayed


def _new_scores(game: Game, rows: list[GamePlayer], stored: StoredRows) -> list[Scored] | None:
    """The players (join order) with their old and new scores; None: not scorable."""
    state = _final_position(game, stored)
    if state is None:
        return None
    seated = [row for row in rows if row.seat and row.score is not None]
    if state.winner is None or {Seat(row.seat) for row in seated} != set(state.seats):
        log.warning("game %d: no winner or not one scored player per seat: scores kept", game.id)
        return None
    scores = final_scores(state, {Seat(row.seat): row.trade_balance for row in seated})
    return [Scored(row.id, row.score, scores[Seat(row.seat)]) for row in seated]


def _rescore(game: Game, stored: StoredRows, messages: list[GameMessage]) -> bool:
    """Rewrite one game's scores and winner's message; True when anything changed."""
    players = _new_scores(game, stored.players[game.id], stored)
    if players is None:
        return False
    changed = False
    for player in players:
        if player.new != player.old:
            GamePlayer.update(score=player.new).where(GamePlayer.id == player.player_id).execute()
            changed = True
    for message in messages:
        text = rewrite_finish_text(message.text, players)
        if text is None:
            log.warning(
                "game %d: message %d does not list the old scores: left as it was",
                game.id,
                message.id,
            )
        elif text != message.text:
            GameMessage.update(text=text).where(GameMessage.id == message.id).execute()
            changed = True
    if changed:
        Game.update(revision=Game.revision + 1).where(Game.id == game.id).execute()
    return changed


def rescore_finished_games(db: pw.Database) -> None:
    """Migration step 7 (inside its transaction)."""
    changed = _rescore_every_finished_game(Game.status == "finished")
    log.info("rescored %d finished games: final scores on a scale of 0 to 100 points", changed)


def rescore_clamped_progress(db: pw.Database) -> None:
    """Migration step 25 (inside its transaction)."""
    # imported games (step 18) have no players, so no scores
    changed = _rescore_every_finished_game((Game.status == "finished") & Game.imported.is_null())
    log.info("rescored %d finished games: progress no longer goes below 0", changed)


def _rescore_every_finished_game(finished: pw.Expression) -> int:
    """Rescore every finished game (`finished`: which games are; the columns of a later
    step cannot be named by an earlier one) with the engine of today; how many changed."""
    changed = 0
    last_id = 0
    while True:
        games = list(
            Game.select(Game.id, Game.state, Game.revision, Game.size, Game.players, Game.seed)
            .where(finished & (Game.id > last_id))
            .order_by(Game.id)
            .limit(BATCH)
        )
        if not games:
            break
        last_id = games[-1].id
        ids = [game.id for game in games]
        stored = read_rows(ids)  # players in join order, actions, traded offers
        messages: dict[int, list[GameMessage]] = {game_id: [] for game_id in ids}
        for message in GameMessage.select().where(
            GameMessage.game.in_(ids)
            & (GameMessage.kind == "system")
            & GameMessage.sender.is_null()
            & GameMessage.text.contains(FINISHED_MARK)
        ):
            messages[message.game_id].append(message)
        for game in games:
            changed += _rescore(game, stored, messages[game.id])
    return changed
