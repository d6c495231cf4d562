"""The board at an earlier action, and the legal actions a player can know of.

- `show_position`: `GET /games/{id}?at=N`, the game after its first N actions, replayed
  from the stored history and shown with the same rules of hidden information as the
  current game (during play a viewer sees only what it may see; a finished game reveals
  everything; of a masked game in play only the current position: the boards action by
  action would list the walls in the order they were placed, which tells whose each
  one is: 409 `position_hidden_during_play`). Walls left at an earlier action count the
  walls placed by then and the wall trades closed before the next action; markers are
  notes, not part of a position, and are not shown at earlier actions.
- `legal_actions`: `GET /games/{id}/legal-actions`, the moves, jumps and walls of the
  asking player computed from what that player may know (SPEC §4): a wall it cannot
  see is left out of the position, so the answer never reveals one (an action that
  bumps into it is refused when played, and the turn is not lost).
"""

from __future__ import annotations

from typing import Any

from corridorquest.engine import GameState, PlaceWall, Seat, initial_walls
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Conflict, Unprocessable
from corridorquest.services.game_access import (
    LoadedGame,
    load_visible,
    require_player,
    require_status,
)
from corridorquest.services.game_views import LAST_ACTIONS, game_view, visibility_for
from corridorquest.store.models import GameAction, WallOffer

_PLENTY = 10_000  # walls in hand while replaying (bought walls are not in the history)


def traded_walls(loaded: LoadedGame, actions: int | None) -> dict[Seat, int]:
    """Walls each seat gained (+) or sold (-) in the trades made after at most `actions`
    game actions (all trades: None)."""
    seat_of = {player.user_id: Seat(player.seat) for player in loaded.players if player.seat}
    query = WallOffer.select().where(
        (WallOffer.game == loaded.game.id) & (WallOffer.status == "traded")
    )
    if actions is not None:
        query = query.where(WallOffer.closed_after_action <= actions)
    change: dict[Seat, int] = {}
    for offer in query:
        maker, taker = seat_of.get(offer.user_id), seat_of.get(offer.traded_with_id)
        if maker is None or taker is None:
            continue
        seller, buyer = (maker, taker) if offer.mode == "selling" else (taker, maker)
        change[seller] = change.get(seller, 0) - 1
        change[buyer] = change.get(buyer, 0) + 1
    return change


def replay(loaded: LoadedGame, rows: list[GameAction]) -> GameState:
    """The position after `rows` (the game's first actions, in order)."""
    current = loaded.state
    assert current is not None
    game = loaded.game
    state = GameState.new(size=game.size, players=game.players, first=current.first)
    placed = dict.fromkeys(state.seats, 0)
    for row in rows:
        seat = Seat(row.seat)
        state.turn = seat  # passes are implied by who acted next
        state.walls_left[seat] = _PLENTY
        state.play_notation(row.notation, row.type)
        if row.type == "wall":
            placed[seat] += 1
    start = initial_walls(game.size, game.players)
    state.walls_left = {seat: max(0, start - placed[seat]) for seat in state.seats}
    return state


def _position(loaded: LoadedGame, viewer_id: int, at: int) -> dict[str, Any]:
    game = loaded.game
    if loaded.state is None:
        require_status(loaded, "started", "finished")
    rows = list(
        GameAction.select().where(GameAction.game == game.id).order_by(GameAction.n)
    )
    if at > len(rows):
        raise Unprocessable(
            "invalid_action_number",
            f"game {game.id} has {len(rows)} actions: 'at' takes 0 to {len(rows)}",
        )
    if at < len(rows) and not visibility_for(loaded, viewer_id).shows_earlier_positions:
        raise Conflict(
            "position_hidden_during_play",
            f"game {game.id} is masked: its earlier positions are shown once it is finished",
        )
    earlier = rows[:at]
    state = replay(loaded, earlier)
    trades = traded_walls(loaded, at if at < len(rows) else None)
    for seat, change in trades.items():
        state.walls_left[seat] = max(0, state.walls_left[seat] + change)
    if at < len(rows):
        state.turn = Seat(rows[at].seat)
        state.winner = None
    else:
        state.turn = loaded.state.turn if loaded.state is not None else None
    shown = LoadedGame(game=game, players=loaded.players, state=state)
    view = game_view(shown, viewer_id, earlier[-LAST_ACTIONS:])
    view["markers"] = []
    view["at"] = at
    turn_user = shown.user_at(state.turn) if state.turn is not None else None
    view["turn"] = state.turn.value if state.turn is not None else None
    view["turn_username"] = turn_user.username if turn_user is not None else None
    return view


async def show_position(
    ctx: ServiceContext,
    user: CurrentUser,
    game_id: int,
    at: int,
    invitation_code: str | None = None,
) -> dict[str, Any]:
    """The game after its first `at` actions, as the caller may see it."""

    def read() -> dict[str, Any]:
        return _position(load_visible(game_id, user, invitation_code), user.id, at)

    return await ctx.store.transaction(read)


def _legal(loaded: LoadedGame, user: CurrentUser) -> dict[str, Any]:
    player = require_player(loaded, user)
    require_status(loaded, "started")
    state = loaded.state
    assert state is not None and player.seat
    seat = Seat(player.seat)
    known = visibility_for(loaded, user.id).knowledge(state)
    known.turn = seat
    steps = known.legal_steps(seat)
    walls: list[PlaceWall] = known.legal_walls(seat)
    return {
        "seat": seat.value,
        "your_turn": state.turn is seat,
        "moves": sorted(str(step.to) for step in steps if not step.jump),
        "jumps": sorted(str(step.to) for step in steps if step.jump),
        "walls": sorted(str(wall.wall) for wall in walls),
    }


async def legal_actions(
    ctx: ServiceContext, user: CurrentUser, game_id: int
) -> dict[str, Any]:
    """The caller's legal actions as far as the caller may know (any player, any time)."""

    def read() -> dict[str, Any]:
        return _legal(load_visible(game_id, user), user)

    return await ctx.store.transaction(read)
