"""Game lifecycle (SPEC §3): new, list, show, change, join, withdraw, cancel.

Every write runs its read-validate-write in ONE transaction (the game row locked on
PostgreSQL), bumps the game's revision by one, may carry a base revision (stale: 409
`stale_revision` with the current game) and an idempotency key, and its events are
published after the commit: all of that is the unit of work's (`unit_of_work`), the
functions here state the rules. Play itself lives in `play.py`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from corridorquest.engine import PLAYER_COUNTS, SIZES, GameState, assign_seats
from corridorquest.events import (
    Event,
    GameCancelled,
    GameChanged,
    GameCreated,
    GameStarted,
    PlayerJoined,
    PlayerLeft,
    PlayersInvited,
)
from corridorquest.services import invitations, rematch_links
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Conflict, Forbidden, NotFound, Unprocessable
from corridorquest.services.game_access import (
    LoadedGame,
    check_revision,
    load_game,
    load_visible,
    require_player,
    require_status,
)

# WriteResult, run_write, run_system_write: the unit of work's, still importable from here
__all__ = ["GameOptions", "WriteResult", "run_system_write", "run_write"]
from corridorquest.services.game_views import game_view
from corridorquest.services.unit_of_work import (
    GameWrite,
    WriteResult,
    run_system_write,
    run_write,
    write_game,
)
from corridorquest.services.user_refs import ref
from corridorquest.store import transaction_lock
from corridorquest.store.game_rows import bots_only_games_of, waiting_games_of
from corridorquest.store.models import Game, GamePlayer, User, utcnow

MAX_INVITEES = 16
PURGE_BATCH = 20  # cancelled games deleted per transaction (each with all its rows)


@dataclass
class GameOptions:
    """Settings of a game; None in a change means "leave as is"."""

    players: int | None = None
    size: int | None = None
    masked: bool | None = None
    invisible: bool | None = None
    private: bool | None = None
    invite: bool = False
    invitees: list[str] = field(default_factory=list)
    rematch_of: int | None = None  # the finished game this one plays again (services/rematch.py)
    bots_only: bool = False  # the creator takes no seat: bots fill them all (bot_seats.py)


# --- helpers used inside transactions ---------------------------------------------------


def check_variant_values(players: int | None, size: int | None) -> None:
    if players is not None and players not in PLAYER_COUNTS:
        raise Unprocessable("invalid_players", f"{players} players: a game has 2 or 4 players")
    if size is not None and size not in SIZES:
        sizes = ", ".join(str(s) for s in SIZES)
        raise Unprocessable("invalid_size", f"board size {size}: choose one of {sizes}")


def new_invitation_code() -> str:
    return secrets.token_urlsafe(12)


def resolve_invitees(names: list[str], inviter: CurrentUser) -> list[User]:
    if len(names) > MAX_INVITEES:
        raise Unprocessable("too_many_invitees", f"invite at most {MAX_INVITEES} users at once")
    wanted = {name.lower(): name for name in names if name.lower() != inviter.username.lower()}
    if not wanted:
        return []
    found = list(User.select().where(User.username.in_(list(wanted.values()))))
    known = {user.username.lower() for user in found}
    missing = [name for key, name in wanted.items() if key not in known]
    if missing:
        raise NotFound("user_not_found", f"no user {', '.join(sorted(missing))}")
    return found


def check_waiting_games(user: CurrentUser, limit: int) -> None:
    """Refuse a new game while `user` already administers `limit` games waiting for
    players (MAX_WAITING_GAMES): one user must not fill the game list."""
    transaction_lock(f"waiting-games:{user.id}")
    waiting = waiting_games_of(user.id)
    if waiting >= limit:
        raise Conflict(
            "too_many_waiting_games",
            f"you have {waiting} games waiting for players (at most {limit}); "
            "start, fill or cancel one first",
        )


def check_bots_only_games(user: CurrentUser, limit: int) -> None:
    """Refuse a new game of bots only while `user` already administers `limit` of them
    waiting or being played (MAX_BOTS_ONLY_GAMES): a game of bots only starts at once and
    its bots take the server's worker time for minutes, so one user must not fill the
    bots' queue."""
    transaction_lock(f"bots-only-games:{user.id}")
    running = bots_only_games_of(user.id)
    if running >= limit:
        raise Conflict(
            "too_many_bots_only_games",
            f"you have {running} games of bots only being played (at most {limit}); "
            "wait for one to end or cancel one first",
        )


def start_game(loaded: LoadedGame, now: Any) -> GameStarted:
    """Seat the waiting players from the stored seed and start (inside the transaction)."""
    game = loaded.game
    seats, first = assign_seats(int(game.seed), game.players)
    for player, seat in zip(loaded.players, seats, strict=True):
        player.seat = seat.value
        loaded.save_player(player, "seat")
    loaded.state = GameState.new(size=game.size, players=game.players, first=first)
    loaded.save_state()
    first_user = loaded.user_at(first)
    assert first_user is not None
    game.status = "started"
    game.started_at = now
    game.turn_user = first_user.id
    game.turn_since = now
    game.reminded_at = None
    return GameStarted(game_id=game.id, revision=game.revision, first_user_id=first_user.id)


def cancel_game(loaded: LoadedGame, by: CurrentUser | None, reason: str) -> GameCancelled:
    """`reason`: a stored text (`user_refs`: users by id), shown with current names."""
    game = loaded.game
    game.status = "cancelled"
    game.cancelled_at = utcnow()
    game.cancel_reason = reason
    game.turn_user = None
    game.turn_since = None
    return GameCancelled(
        game_id=game.id, revision=game.revision, by_user_id=by.id if by else None, reason=reason
    )


def _reload_players(loaded: LoadedGame) -> None:
    fresh = load_game(loaded.game.id)
    loaded.players = fresh.players


def purge_cancelled(retention_seconds: int, limit: int = PURGE_BATCH) -> int:
    """Delete up to `limit` games cancelled longer than `retention_seconds` ago, with their
    players, actions, markers, offers and messages (foreign keys cascade); inside a
    transaction (maintenance). Returns how many games went."""
    cutoff = utcnow() - timedelta(seconds=retention_seconds)
    ids = [
        gid
        for (gid,) in Game.select(Game.id)
        .where((Game.status == "cancelled") & (Game.cancelled_at <= cutoff))
        .order_by(Game.id)
        .limit(limit)
        .tuples()
    ]
    if not ids:
        return 0
    return int(Game.delete().where(Game.id.in_(ids)).execute())


def _invite_event(game: Game, inviter: CurrentUser, invitees: list[User]) -> PlayersInvited:
    return PlayersInvited(
        game_id=game.id,
        revision=game.revision,
        inviter_id=inviter.id,
        invitee_ids=tuple(u.id for u in invitees),
        invitation_code=str(game.invitation_code),
    )


# --- use cases ---------------------------------------------------------------------------


async def create_game(
    ctx: ServiceContext, user: CurrentUser, options: GameOptions, key: str | None = None
) -> WriteResult:
    players = 2 if options.players is None else options.players
    size = 9 if options.size is None else options.size
    check_variant_values(players, size)

    def write(events: list[Event]) -> tuple[int, dict[str, Any]]:
        check_waiting_games(user, ctx.settings.max_waiting_games)
        if options.bots_only:
            check_bots_only_games(user, ctx.settings.max_bots_only_games)
        invitees = resolve_invitees(options.invitees, user)
        if invitees:
            invitations.reserve(user.id, len(invitees), ctx.settings.invitation_mails_per_hour)
        needs_code = bool(options.private) or options.invite or bool(options.invitees)
        now = utcnow()
        game = Game.create(
            status="waiting",
            size=size,
            players=players,
            masked=bool(options.masked),
            invisible=bool(options.invisible),
            private=bool(options.private),
            invitation_code=new_invitation_code() if needs_code else None,
            admin=user.id,
            seed=secrets.randbits(62),
            revision=1,
            created_at=now,
        )
        if not options.bots_only:  # (a game of bots only: the bots take every seat)
            GamePlayer.create(game=game, user=user.id, join_order=0, joined_at=now)
        if options.rematch_of is not None:
            rematch_links.link(options.rematch_of, game.id)
        loaded = load_game(game.id)
        events.append(GameCreated(game_id=game.id, revision=game.revision, admin_id=user.id))
        if invitees:
            events.append(_invite_event(game, user, invitees))
        return 201, game_view(loaded, user.id, [])

    return await run_write(ctx, user, key, "create a game", write)


async def show_game(
    ctx: ServiceContext, user: CurrentUser, game_id: int, invitation_code: str | None = None
) -> dict[str, Any]:
    def read() -> dict[str, Any]:
        return game_view(load_visible(game_id, user, invitation_code), user.id)

    return await ctx.store.transaction(read)


async def join_game(
    ctx: ServiceContext,
    user: CurrentUser,
    game_id: int,
    invitation_code: str | None = None,
    base_revision: int | None = None,
    key: str | None = None,
) -> WriteResult:
    def join(work: GameWrite) -> tuple[int, dict[str, Any]]:
        loaded = work.loaded
        game = loaded.game
        check_revision(loaded, base_revision, lambda: game_view(loaded, user.id))
        if loaded.is_player(user.id):
            raise Conflict("already_joined", f"you already joined game {game_id}")
        if game.status == "started" or len(loaded.players) >= game.players:
            raise Conflict("game_full", f"game {game_id} has no free seat (it has started)")
        require_status(loaded, "waiting")
        if invitation_code and game.invitation_code != invitation_code:
            raise Forbidden(
                "wrong_invitation_code", f"that is not the invitation code of game {game_id}"
            )
        order = max((p.join_order for p in loaded.players), default=-1) + 1
        GamePlayer.create(game=game.id, user=user.id, join_order=order)
        _reload_players(loaded)
        game.revision += 1
        work.emit(PlayerJoined(game_id=game.id, revision=game.revision, user_id=user.id))
        if len(loaded.players) == game.players:
            work.emit(start_game(loaded, utcnow()))
        loaded.save_game()
        return 201, game_view(loaded, user.id)

    return await write_game(
        ctx, user, key, "join", game_id, join, invitation_code=invitation_code
    )


async def change_game(
    ctx: ServiceContext,
    user: CurrentUser,
    game_id: int,
    options: GameOptions,
    base_revision: int | None = None,
    key: str | None = None,
) -> WriteResult:
    check_variant_values(options.players, options.size)

    def change(work: GameWrite) -> tuple[int, dict[str, Any]]:
        loaded = work.loaded
        game = loaded.game
        if game.admin_id != user.id:
            raise Forbidden("not_game_admin", f"only the game admin may change game {game_id}")
        check_revision(loaded, base_revision, lambda: game_view(loaded, user.id))
        require_status(loaded, "waiting")
        invitees = resolve_invitees(options.invitees, user)
        if invitees:
            invitations.reserve(user.id, len(invitees), ctx.settings.invitation_mails_per_hour)
        changed: list[str] = []
        for name in ("size", "masked", "invisible", "private"):
            value = getattr(options, name)
            if value is not None and value != getattr(game, name):
                setattr(game, name, value)
                changed.append(name)
        waiting = len(loaded.players)
        if options.players is not None and options.players != game.players:
            if options.players < waiting:
                raise Conflict(
                    "too_many_players",
                    f"{waiting} players are waiting in game {game_id}; "
                    f"it cannot become a {options.players}-player game",
                )
            game.players = options.players
            changed.append("players")
        if (game.private or invitees or options.invite) and not game.invitation_code:
            game.invitation_code = new_invitation_code()
            changed.append("invitation_code")
        if not changed and not invitees:
            return 200, game_view(loaded, user.id)
        game.revision += 1
        work.emit(GameChanged(game_id=game.id, revision=game.revision, changed=tuple(changed)))
        if invitees:
            work.emit(_invite_event(game, user, invitees))
        if waiting == game.players:
            work.emit(start_game(loaded, utcnow()))
        game.save()
        return 200, game_view(loaded, user.id)

    return await write_game(ctx, user, key, "change", game_id, change)


async def withdraw(
    ctx: ServiceContext,
    user: CurrentUser,
    game_id: int,
    base_revision: int | None = None,
    key: str | None = None,
) -> WriteResult:
    """Leave a waiting game (the game admin leaving cancels it); cancel a started one."""

    def leave(work: GameWrite) -> tuple[int, dict[str, Any]]:
        loaded = work.loaded
        game = loaded.game
        player = require_player(loaded, user)
        check_revision(loaded, base_revision, lambda: game_view(loaded, user.id))
        require_status(loaded, "waiting", "started")
        game.revision += 1
        if game.status == "waiting" and game.admin_id != user.id:
            player.delete_instance()
            _reload_players(loaded)
            work.emit(PlayerLeft(game_id=game.id, revision=game.revision, user_id=user.id))
        else:
            work.emit(cancel_game(loaded, user, f"{ref(user.id)} withdrew"))
        game.save()
        return 200, game_view(loaded, user.id)

    return await write_game(ctx, user, key, "withdraw", game_id, leave)


async def cancel(
    ctx: ServiceContext,
    user: CurrentUser,
    game_id: int,
    base_revision: int | None = None,
    key: str | None = None,
) -> WriteResult:
    """The game admin (or a system admin) cancels a waiting or started game."""

    def cancel_it(work: GameWrite) -> tuple[int, dict[str, Any]]:
        loaded = work.loaded
        game = loaded.game
        if game.admin_id != user.id and not user.is_admin:
            raise Forbidden("not_game_admin", f"only the game admin may cancel game {game_id}")
        check_revision(loaded, base_revision, lambda: game_view(loaded, user.id))
        require_status(loaded, "waiting", "started")
        game.revision += 1
        work.emit(cancel_game(loaded, user, f"cancelled by {ref(user.id)}"))
        game.save()
        return 200, game_view(loaded, user.id)

    return await write_game(ctx, user, key, "cancel", game_id, cancel_it)
