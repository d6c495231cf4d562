"""What a tournament shows (SPEC §15): its entrants, rounds with their games, and the
standings, computed by `corridorquest.tournaments` from the stored results (inside a
transaction). Tournaments are public: every logged-in user (and the web page) sees them."""

from __future__ import annotations

import json
from typing import Any

from corridorquest.services.errors import NotFound
from corridorquest.store import fast
from corridorquest.store.models import (
    Game,
    Tournament,
    TournamentEntrant,
    TournamentGame,
    TournamentRound,
    User,
)
from corridorquest.tournaments.standings import Line, Result, standings

ROUND_ROBINS = ("round_robin", "double_round_robin")
KINDS = (*ROUND_ROBINS, "swiss")


def load_tournament(tournament_id: int) -> Tournament:
    found = Tournament.get_or_none(Tournament.id == tournament_id)
    if found is None:
        raise NotFound("tournament_not_found", f"no tournament {tournament_id}")
    return found


def entrants_of(tournament_id: int) -> list[TournamentEntrant]:
    """The entrants in the order they entered."""
    return list(
        TournamentEntrant.select()
        .where(TournamentEntrant.tournament == tournament_id)
        .order_by(TournamentEntrant.entered_at, TournamentEntrant.id)
    )


def tables_of(tournament_id: int) -> list[TournamentGame]:
    return list(
        TournamentGame.select()
        .where(TournamentGame.tournament == tournament_id)
        .order_by(TournamentGame.round, TournamentGame.board)
    )


def rounds_of(tournament_id: int) -> list[TournamentRound]:
    return list(
        TournamentRound.select()
        .where(TournamentRound.tournament == tournament_id)
        .order_by(TournamentRound.number)
    )


def players_of(table: TournamentGame) -> tuple[int, ...]:
    return tuple(int(p) for p in json.loads(table.players))


def result_of(table: TournamentGame) -> Result | None:
    """The table's result once settled (None while its game is being played)."""
    if not table.settled:
        return None
    return Result(
        round=table.round,
        players=players_of(table),
        winner=table.winner,
        scores={int(k): int(v) for k, v in json.loads(table.scores).items()},
        forfeited=frozenset(int(p) for p in json.loads(table.forfeited)),
    )


def current_standings(tournament: Tournament) -> list[Line]:
    entrants = entrants_of(tournament.id)
    results = [r for r in (result_of(t) for t in tables_of(tournament.id)) if r is not None]
    byes = [
        (played.number, int(p)) for played in rounds_of(tournament.id)
        for p in json.loads(played.byes)
    ]
    return standings(
        [e.user_id for e in entrants],
        results,
        byes,
        buchholz=tournament.kind == "swiss",
        withdrawn=[e.user_id for e in entrants if e.withdrawn_at is not None],
    )


def _names(ids: set[int]) -> dict[int, User]:
    if not ids:
        return {}
    return {u.id: u for u in User.select().where(User.id.in_(list(ids)))}


def _at(value: Any) -> str | None:
    return None if value is None else value.isoformat() + "Z"


def summary(tournament: Tournament, admin: User | None, entrants: int) -> dict[str, Any]:
    return {
        "id": tournament.id,
        "name": tournament.name,
        "kind": tournament.kind,
        "status": tournament.status,
        "rounds": tournament.rounds,
        "round": tournament.round,
        "size": tournament.size,
        "players": tournament.players,
        "masked": bool(tournament.masked),
        "invisible": bool(tournament.invisible),
        "admin": admin.username if admin else None,
        "entrants": entrants,
        "created_at": _at(tournament.created_at),
        "started_at": _at(tournament.started_at),
        "finished_at": _at(tournament.finished_at),
    }


def tournament_view(tournament: Tournament, viewer_id: int | None = None) -> dict[str, Any]:
    entrants = entrants_of(tournament.id)
    tables = tables_of(tournament.id)
    rounds = rounds_of(tournament.id)
    ids = {tournament.admin_id, *(e.user_id for e in entrants)}
    for table in tables:
        ids.update(players_of(table))
    users = _names(ids)

    def name(uid: int | None) -> str | None:
        if uid is None:
            return None
        user = users.get(uid)
        return user.username if user else "a former player"

    game_ids = [t.game_id for t in tables if t.game_id is not None]
    games = (
        {g.id: g for g in Game.select(Game.id, Game.status, Game.winner, Game.turn_user)
         .where(Game.id.in_(game_ids))}
        if game_ids else {}
    )
    by_round: dict[int, list[dict[str, Any]]] = {}
    for table in tables:
        game = games.get(table.game_id) if table.game_id else None
        result = result_of(table)
        winner = None
        if result is not None:
            winner = result.winner if result.winner is not None else result.winner_by_forfeit()
        by_round.setdefault(table.round, []).append({
            "board": table.board,
            "game_id": table.game_id,
            "status": "settled" if table.settled else (game.status if game else "waiting"),
            "game_status": game.status if game else None,
            "players": [name(p) for p in players_of(table)],
            "turn": name(game.turn_user_id) if game is not None else None,
            "winner": name(winner),
            "forfeited": [name(p) for p in sorted(result.forfeited)] if result else [],
            "scores": {name(p): s for p, s in result.scores.items()} if result else {},
        })
    lines = current_standings(tournament)
    view = summary(tournament, users.get(tournament.admin_id), len(entrants))
    view.update({
        "you_admin": viewer_id == tournament.admin_id,
        "you_entered": any(e.user_id == viewer_id for e in entrants),
        "entrant_list": [
            {
                "username": name(e.user_id),
                "bot_level": users[e.user_id].bot_level if e.user_id in users else None,
                "withdrawn": e.withdrawn_at is not None,
            }
            for e in entrants
        ],
        "pairings": [
            {
                "round": played.number,
                "byes": [name(int(p)) for p in json.loads(played.byes)],
                "games": by_round.get(played.number, []),
            }
            for played in rounds
        ],
        "standings": [{"username": name(line.player), **line.as_dict()} for line in lines],
    })
    return view


def list_view(limit: int = 100) -> list[dict[str, Any]]:
    """The newest tournaments first."""
    found = list(Tournament.select().order_by(Tournament.id.desc()).limit(limit))
    if not found:
        return []
    ids = [t.id for t in found]
    counts: dict[int, int] = {}
    for (tid,) in (
        TournamentEntrant.select(TournamentEntrant.tournament)
        .where(TournamentEntrant.tournament.in_(ids))
        .tuples()
    ):
        counts[tid] = counts.get(tid, 0) + 1
    admins = _names({t.admin_id for t in found})
    return [summary(t, admins.get(t.admin_id), counts.get(t.id, 0)) for t in found]


def tournament_of_game(game_id: int) -> int | None:
    """The tournament whose game `game_id` is (inside a transaction)."""
    # asked after every finished game (scheduler/tournament_nudge.py): a statement built
    # once (`fast`), not peewee's query builder
    found = fast.select(TournamentGame, 't."game_id" = ?', (game_id,))
    return int(found[0].tournament_id) if found else None
