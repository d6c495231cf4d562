"""Play (SPEC §2, §3): a move, jump or wall by the player to move, and the history.

The engine decides legality and its message reaches the player: NotationError -> 422
`invalid_notation`, IllegalActionError -> 422 `illegal_action`. Only the player to
move may act (409 `not_your_turn`). The whole read-validate-write is one transaction;
a finished game stores every player's score (`engine.final_scores`).
"""

from __future__ import annotations

from typing import Any

from corridorquest.engine import (
    IllegalActionError,
    NotationError,
    PlaceWall,
    Seat,
    final_scores,
    format_action,
)
from corridorquest.events import ActionPlayed, GameFinished
from corridorquest.services import markers, ratings
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Conflict, Unprocessable
from corridorquest.services.game_access import (
    LoadedGame,
    check_revision,
    load_visible,
    require_player,
    require_status,
)
from corridorquest.services.game_views import game_view, history_view, visibility_for
from corridorquest.services.games import cancel_game
from corridorquest.services.unit_of_work import GameWrite, WriteResult, write_game
from corridorquest.store import game_rows
from corridorquest.store.game_rows import ActionRow
from corridorquest.store.models import utcnow

ACTION_TYPES = ("move", "jump", "wall")


def _finish(loaded: LoadedGame, now: Any) -> GameFinished:
    game = loaded.game
    state = loaded.state
    assert state is not None and state.winner is not None
    balances = {Seat(p.seat): p.trade_balance for p in loaded.players if p.seat}
    scores = final_scores(state, balances)
    by_user: dict[int, int] = {}
    for player in loaded.players:
        if player.seat:
            player.score = scores[Seat(player.seat)]
            loaded.save_player(player, "score")
            by_user[player.user_id] = player.score
    winner = loaded.user_at(state.winner)
    assert winner is not None
    game.status = "finished"
    game.finished_at = now
    game.winner = winner.id
    game.turn_user = None
    game.turn_since = None
    ratings.record_finish(game, by_user, now)  # SPEC §14: in the finish's transaction
    return GameFinished(
        game_id=game.id, revision=game.revision, winner_id=winner.id, scores=by_user
    )


def _play(
    work: GameWrite,
    user: CurrentUser,
    kind: str,
    text: str,
    base_revision: int | None,
    max_actions: int,
) -> tuple[int, dict[str, Any]]:
    """The rule: the player to move plays `text`; the engine decides the rest. A game
    that reaches `max_actions` (MAX_GAME_ACTIONS) without a winner is cancelled."""
    loaded = work.loaded
    game = loaded.game
    player = require_player(loaded, user)
    check_revision(loaded, base_revision, lambda: game_view(loaded, user.id))
    require_status(loaded, "started")
    state = loaded.state
    assert state is not None and state.turn is not None
    if player.seat != state.turn.value:
        waiting_for = loaded.user_at(state.turn)
        raise Conflict(
            "not_your_turn",
            f"it is {waiting_for.username if waiting_for else state.turn.value}'s turn "
            f"in game {game.id}",
            turn_username=waiting_for.username if waiting_for else None,
        )
    seat = state.turn
    try:
        action = state.play_notation(text, kind)
    except NotationError as error:
        raise Unprocessable("invalid_notation", str(error)) from None
    except IllegalActionError as error:
        # a bump into an invisible wall says a wall is there, never which one
        message = visibility_for(loaded, user.id).safe_message(str(error), state)
        raise Unprocessable("illegal_action", message) from None
    now = utcnow()
    action_type = "wall" if isinstance(action, PlaceWall) else ("jump" if action.jump else "move")
    notation = format_action(action)
    game.revision += 1
    loaded.add_action(
        n=state.ply, seat=seat.value, user=user.id, type=action_type, notation=notation,
        at=now, revision=game.revision, message_derived=True,
    )
    if isinstance(action, PlaceWall) and game.invisible:
        markers.remove_under_wall(game.id, user.id, action.wall, game.size)
    loaded.save_state()
    passed = [
        passed_user.id
        for ply, passed_seat in state.passes
        if ply == state.ply and (passed_user := loaded.user_at(passed_seat)) is not None
    ]
    next_user = loaded.user_at(state.turn) if state.turn is not None else None
    work.emit(
        ActionPlayed(
            game_id=game.id,
            revision=game.revision,
            n=state.ply,
            user_id=user.id,
            seat=seat.value,
            type=action_type,
            notation=notation,
            passed_user_ids=tuple(passed),
            next_user_id=next_user.id if next_user else None,
        )
    )
    if state.is_finished:
        work.emit(_finish(loaded, now))
        loaded.save_game()
    elif state.ply >= max_actions:  # MAX_GAME_ACTIONS: no game goes on for ever
        game.revision += 1
        reason = f"no winner after {state.ply} actions, the most a game may have"
        work.emit(cancel_game(loaded, None, reason))
        loaded.save_game()
    else:
        assert next_user is not None
        game.turn_user = next_user.id
        game.turn_since = now
        game.reminded_at = None
        loaded.save_game("state", "revision", "turn_user", "turn_since", "reminded_at")
    row = ActionRow(state.ply, seat.value, user.id, action_type, notation, now, True)
    return 201, work.view_after_action(user.id, row)


async def play(
    ctx: ServiceContext,
    user: CurrentUser,
    game_id: int,
    kind: str,
    text: str,
    base_revision: int | None = None,
    key: str | None = None,
) -> WriteResult:
    """Play `text` (any notation) as a `kind` action ("move", "jump", "wall")."""
    if kind not in ACTION_TYPES:
        raise Unprocessable("invalid_notation", f"{kind}: the type is move, jump or wall")
    return await write_game(
        ctx, user, key, "play", game_id,
        lambda work: _play(work, user, kind, text, base_revision, ctx.settings.max_game_actions),
    )


async def history(
    ctx: ServiceContext,
    user: CurrentUser,
    game_id: int,
    invitation_code: str | None = None,
    after: int = 0,
    limit: int | None = None,
) -> list[dict[str, Any]]:
    """Every action of the game, as the caller may see it, in play order; `after`: only
    the actions after the one numbered `after` (`n`); `limit`: at most that many."""

    def read() -> list[dict[str, Any]]:
        loaded = load_visible(game_id, user, invitation_code)
        return history_view(loaded, game_rows.actions_after(game_id, after, limit), user.id)

    return await ctx.store.transaction(read)


async def history_page(
    ctx: ServiceContext,
    user: CurrentUser,
    game_id: int,
    invitation_code: str | None,
    after: int,
    limit: int,
) -> tuple[list[dict[str, Any]], bool]:
    """`GET /games/{id}/actions`: at most `limit` actions after the one numbered `after`,
    and whether more follow."""
    found = await history(ctx, user, game_id, invitation_code, after, limit + 1)
    return found[:limit], len(found) > limit


async def action_count(
    ctx: ServiceContext, user: CurrentUser, game_id: int, invitation_code: str | None = None
) -> int:
    """How many actions the game has (a game the caller may see: else 404)."""

    def read() -> int:
        load_visible(game_id, user, invitation_code)
        return game_rows.action_count(game_id)

    return await ctx.store.transaction(read)
