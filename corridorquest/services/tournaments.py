"""Tournaments (SPEC §15, issue 30): create, list, show, join, leave, add a bot, remove an
entrant, start.

Any user may create a tournament and is its admin (it does not enter it by creating it:
it joins like anybody to play). Players enter and leave while it is `entering`; its admin
adds bots (by level: the bot users of `bot_users`) and starts it. From then on the server
runs it (`tournament_rounds`): it makes each round's games and starts them, the next round
when the last game of a round has ended. Leaving a started tournament is a withdrawal, and
the admin's removal of an entrant too: the player forfeits the game it is playing and
every later one (the opponent wins), and Swiss rounds pair it no more.

Every refusal is a `ServiceError` with a stable reason and changes nothing. The writes go
through `run_write` (one transaction, an idempotency key, events after the commit).
"""

from __future__ import annotations

from typing import Any

from corridorquest.engine import check_variant
from corridorquest.events import Event
from corridorquest.services.auth import CurrentUser
from corridorquest.services.bot_users import bot_by_level, check_level
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Conflict, Forbidden, NotFound, Unprocessable
from corridorquest.services.games import check_variant_values
from corridorquest.services.tournament_rounds import advance, lock, make_round
from corridorquest.services.tournament_views import (
    KINDS,
    ROUND_ROBINS,
    entrants_of,
    list_view,
    load_tournament,
    tournament_view,
)
from corridorquest.services.unit_of_work import WriteResult, run_write
from corridorquest.store import transaction_lock
from corridorquest.store.models import Tournament, TournamentEntrant, User, utcnow

MAX_NAME = 80
MAX_ROUNDS = 20
MAX_ENTRANTS = 64
MAX_OPEN = 5  # tournaments a user administers that have not finished


def _check_options(
    name: Any, kind: Any, rounds: Any, size: int | None, players: int | None
) -> tuple[str, int, int]:
    text = name.strip() if isinstance(name, str) else ""
    if not text or len(text) > MAX_NAME or any(ord(c) < 32 for c in text):
        raise Unprocessable(
            "invalid_tournament_name", f"a tournament's name has 1 to {MAX_NAME} characters"
        )
    if kind not in KINDS:
        raise Unprocessable(
            "invalid_tournament_kind", f"kind {kind!r}: choose one of {', '.join(KINDS)}"
        )
    players = 2 if players is None else players
    size = 9 if size is None else size
    check_variant_values(players, size)
    try:
        check_variant(size, players)
    except ValueError as error:
        raise Unprocessable("invalid_size", str(error)) from None
    if kind in ROUND_ROBINS:
        if rounds is not None:
            raise Unprocessable(
                "rounds_not_for_round_robin",
                "a round robin has as many rounds as it needs: give no rounds",
            )
        if players != 2:
            raise Unprocessable(
                "round_robin_needs_two_players",
                "a round robin is of 2-player games; 4-player tables play Swiss rounds",
            )
    elif isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise Unprocessable(
            "invalid_rounds", f"a Swiss tournament has 1 to {MAX_ROUNDS} rounds (rounds: n)"
        )
    return text, size, players


def _require_admin(tournament: Tournament, user: CurrentUser) -> None:
    if tournament.admin_id != user.id:
        raise Forbidden(
            "not_tournament_admin",
            f"only the admin of tournament {tournament.id} may do that",
        )


def _require_entering(tournament: Tournament) -> None:
    if tournament.status != "entering":
        raise Conflict(
            "tournament_started" if tournament.status == "started" else "tournament_finished",
            f"tournament {tournament.id} has {tournament.status}: its entrants are set",
        )


def _load_locked(tournament_id: int) -> Tournament:
    lock(tournament_id)
    return load_tournament(tournament_id)


def _enter(tournament: Tournament, user_id: int, name: str) -> None:
    _require_entering(tournament)
    entrants = entrants_of(tournament.id)
    if any(e.user_id == user_id for e in entrants):
        raise Conflict(
            "already_entered", f"{name} is already entered in tournament {tournament.id}"
        )
    if len(entrants) >= MAX_ENTRANTS:
        raise Conflict("tournament_full", f"a tournament has at most {MAX_ENTRANTS} entrants")
    TournamentEntrant.create(tournament=tournament.id, user=user_id, entered_at=utcnow())


async def create_tournament(
    ctx: ServiceContext,
    user: CurrentUser,
    name: Any,
    kind: Any,
    rounds: Any = None,
    size: int | None = None,
    players: int | None = None,
    masked: bool = False,
    invisible: bool = False,
    key: str | None = None,
) -> WriteResult:
    text, size, players = _check_options(name, kind, rounds, size, players)

    def write(events: list[Event]) -> tuple[int, dict[str, Any]]:
        transaction_lock(f"tournaments-of:{user.id}")
        open_count = (
            Tournament.select()
            .where((Tournament.admin == user.id) & (Tournament.status != "finished"))
            .count()
        )
        if open_count >= MAX_OPEN:
            raise Conflict(
                "too_many_open_tournaments",
                f"you run {open_count} tournaments that have not finished (at most {MAX_OPEN})",
            )
        tournament = Tournament.create(
            name=text, kind=kind, rounds=rounds, size=size, players=players,
            masked=bool(masked), invisible=bool(invisible), admin=user.id, created_at=utcnow(),
        )
        return 201, tournament_view(tournament, user.id)

    return await run_write(ctx, user, key, "create a tournament", write)


async def list_tournaments(ctx: ServiceContext, user: CurrentUser | None) -> list[dict[str, Any]]:
    return await ctx.store.transaction(list_view)


async def show_tournament(
    ctx: ServiceContext, user: CurrentUser | None, tournament_id: int
) -> dict[str, Any]:
    def read() -> dict[str, Any]:
        return tournament_view(load_tournament(tournament_id), user.id if user else None)

    return await ctx.store.transaction(read)


async def join(
    ctx: ServiceContext, user: CurrentUser, tournament_id: int, key: str | None = None
) -> WriteResult:
    def write(events: list[Event]) -> tuple[int, dict[str, Any]]:
        tournament = _load_locked(tournament_id)
        _enter(tournament, user.id, "you")
        return 201, tournament_view(tournament, user.id)

    return await run_write(ctx, user, key, f"join tournament {tournament_id}", write)


async def add_bot(
    ctx: ServiceContext, user: CurrentUser, tournament_id: int, level: Any,
    key: str | None = None,
) -> WriteResult:
    level = check_level(level)

    def write(events: list[Event]) -> tuple[int, dict[str, Any]]:
        tournament = _load_locked(tournament_id)
        _require_admin(tournament, user)
        bot = bot_by_level(level)
        if bot is None:
            raise Conflict("bot_unavailable", f"there is no bot of level {level} on this server")
        _enter(tournament, bot.id, bot.username)
        return 201, tournament_view(tournament, user.id)

    return await run_write(ctx, user, key, f"add a bot to tournament {tournament_id}", write)


def _take_out(tournament: Tournament, user_id: int, name: str) -> None:
    """Before the start: the entrant goes; after: it is withdrawn (forfeits the rest)."""
    if tournament.status == "finished":
        raise Conflict("tournament_finished", f"tournament {tournament.id} has finished")
    entrant = TournamentEntrant.get_or_none(
        (TournamentEntrant.tournament == tournament.id) & (TournamentEntrant.user == user_id)
    )
    if entrant is None or entrant.withdrawn_at is not None:
        raise Conflict("not_entered", f"{name} is not entered in tournament {tournament.id}")
    if tournament.status == "entering":
        entrant.delete_instance()
    else:
        entrant.withdrawn_at = utcnow()
        entrant.save()


async def leave(
    ctx: ServiceContext, user: CurrentUser, tournament_id: int, key: str | None = None
) -> WriteResult:
    """Leave (before the start) or withdraw (after it: the rest is forfeited)."""

    def write(events: list[Event]) -> tuple[int, dict[str, Any]]:
        tournament = _load_locked(tournament_id)
        _take_out(tournament, user.id, "you")
        return 200, tournament_view(tournament, user.id)

    result = await run_write(ctx, user, key, f"leave tournament {tournament_id}", write)
    return await _after_withdrawal(ctx, user, tournament_id, result)


async def remove(
    ctx: ServiceContext, user: CurrentUser, tournament_id: int, username: Any,
    key: str | None = None,
) -> WriteResult:
    """The admin takes an entrant out (a bot too): as if it left."""

    def write(events: list[Event]) -> tuple[int, dict[str, Any]]:
        tournament = _load_locked(tournament_id)
        _require_admin(tournament, user)
        found = User.find_by_name(username) if isinstance(username, str) else None
        if found is None:
            raise NotFound("user_not_found", f"no user {username}")
        _take_out(tournament, found.id, found.username)
        return 200, tournament_view(tournament, user.id)

    result = await run_write(ctx, user, key, f"remove from tournament {tournament_id}", write)
    return await _after_withdrawal(ctx, user, tournament_id, result)


async def _after_withdrawal(
    ctx: ServiceContext, user: CurrentUser, tournament_id: int, result: WriteResult
) -> WriteResult:
    if result.body.get("status") != "started":
        return result
    await advance(ctx, tournament_id)  # cancels the game it sat in; maybe the next round
    body = await show_tournament(ctx, user, tournament_id)
    return WriteResult(result.status, body, result.events)


async def start(
    ctx: ServiceContext, user: CurrentUser, tournament_id: int, key: str | None = None
) -> WriteResult:
    """The admin starts the tournament: the server makes and starts round 1."""

    def write(events: list[Event]) -> tuple[int, dict[str, Any]]:
        tournament = _load_locked(tournament_id)
        _require_admin(tournament, user)
        _require_entering(tournament)
        entrants = entrants_of(tournament.id)
        least = tournament.players
        if len(entrants) < least:
            raise Conflict(
                "too_few_entrants",
                f"tournament {tournament_id} has {len(entrants)} entrants; it needs {least}",
            )
        if tournament.kind in ROUND_ROBINS:
            n = len(entrants) + len(entrants) % 2
            tournament.rounds = (n - 1) * (2 if tournament.kind == "double_round_robin" else 1)
        tournament.status = "started"
        tournament.started_at = utcnow()
        tournament.save()
        make_round(tournament, events)
        return 200, tournament_view(tournament, user.id)

    return await run_write(ctx, user, key, f"start tournament {tournament_id}", write)
