"""The board at an earlier action, and the legal actions a player can know of.

- `show_position`: `GET /games/{id}?at=N`, the game after its first N actions, replayed
  from the stored history (off the event loop, from the nearest position kept by
  services/position_cache.py) and shown with the same rules of hidden information as the
  current game (during play a viewer sees only what it may see; a finished game reveals
  everything). Walls left at an earlier action count the walls placed by then and the
  wall trades closed before the next action; markers are notes, not part of a
  position, and are not shown at earlier actions.
- `legal_actions`: `GET /games/{id}/legal-actions`, the moves, jumps and walls of the
  asking player computed from what that player may know (SPEC §4): a wall it cannot
  see is left out of the position, so the answer never reveals one (an action that
  bumps into it is refused when played, and the turn is not lost).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from corridorquest.engine import GameState, PlaceWall, Seat, initial_walls
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Unprocessable
from corridorquest.services.game_access import (
    LoadedGame,
    load_visible,
    require_player,
    require_status,
)
from corridorquest.services.game_views import LAST_ACTIONS, game_view, visibility_for
from corridorquest.services.position_cache import Kept, Key, kept_positions
from corridorquest.store.models import Game, GameAction, WallOffer

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


def replay_from(start: Kept, rows: Sequence[tuple[str, str, str]], key: Key) -> Kept:
    """The position after `start` and then `rows` ((seat, type, notation) of the actions
    that follow it, in order; `start` is played on); keeps every EVERY-th position it
    passes in `kept_positions`. Blocking: up to the game's length of engine steps (run it
    off the event loop)."""
    state, placed, n = start.state, start.placed, start.n
    for seat_text, kind, notation in rows:
        seat = Seat(seat_text)
        state.turn = seat  # passes are implied by who acted next
        state.walls_left[seat] = _PLENTY
        state.play_notation(notation, kind)
        if kind == "wall":
            placed[seat] += 1
        n += 1
        kept_positions.keep(key, n, state, placed)
    return Kept(n, state, placed)


def _start(game: Game, first: Seat) -> Kept:
    state = GameState.new(size=game.size, players=game.players, first=first)
    return Kept(0, state, dict.fromkeys(state.seats, 0))


@dataclass
class _Stored:
    """What a replay at `at` reads of a game (in a transaction, on the loop)."""

    loaded: LoadedGame
    key: Key
    start: Kept
    rows: list[tuple[str, str, str]]  # the actions after `start`, up to `at`
    last: list[GameAction]  # the last LAST_ACTIONS actions up to `at`
    total: int  # the game's actions
    next_seat: str | None  # the seat of action at + 1


def _stored(game_id: int, user: CurrentUser, code: str | None, at: int) -> _Stored:
    loaded = load_visible(game_id, user, code)
    game = loaded.game
    if loaded.state is None:
        require_status(loaded, "started", "finished")
    assert loaded.state is not None
    actions = GameAction.select().where(GameAction.game == game.id)
    total = actions.count()
    if at > total:
        raise Unprocessable(
            "invalid_action_number",
            f"game {game.id} has {total} actions: 'at' takes 0 to {total}",
        )
    key = (game.id, str(game.started_at))
    start = kept_positions.nearest(key, at) or _start(game, loaded.state.first)
    rows = list(
        GameAction.select(GameAction.seat, GameAction.type, GameAction.notation)
        .where((GameAction.game == game.id) & (GameAction.n > start.n) & (GameAction.n <= at))
        .order_by(GameAction.n)
        .tuples()
    )
    last = list(
        actions.where((GameAction.n > at - LAST_ACTIONS) & (GameAction.n <= at)).order_by(
            GameAction.n
        )
    )
    following = (
        GameAction.select(GameAction.seat)
        .where((GameAction.game == game.id) & (GameAction.n == at + 1))
        .first()
    )
    next_seat = following.seat if following is not None else None
    return _Stored(loaded, key, start, rows, last, total, next_seat)


def _position(stored: _Stored, state: GameState, viewer_id: int, at: int) -> dict[str, Any]:
    loaded = stored.loaded
    game = loaded.game
    assert loaded.state is not None
    trades = traded_walls(loaded, at if at < stored.total else None)
    for seat, change in trades.items():
        state.walls_left[seat] = max(0, state.walls_left[seat] + change)
    if stored.next_seat is not None:
        state.turn = Seat(stored.next_seat)
        state.winner = None
    else:
        state.turn = loaded.state.turn
    shown = LoadedGame(game=game, players=loaded.players, state=state)
    view = game_view(shown, viewer_id, stored.last)
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
    """The game after its first `at` actions, as the caller may see it.

    Three steps: the actions are read (from the nearest position `kept_positions` holds),
    replayed off the event loop (`run_blocking`), and the view is made in a second
    transaction (it reads the players' names and offers)."""
    stored = await ctx.store.transaction(_stored, game_id, user, invitation_code, at)
    game = stored.loaded.game
    end = stored.start
    if stored.rows:
        end = await ctx.run_blocking(replay_from, stored.start, stored.rows, stored.key)
    state = end.state
    start = initial_walls(game.size, game.players)
    state.walls_left = {seat: max(0, start - end.placed[seat]) for seat in state.seats}
    return await ctx.store.transaction(_position, stored, state, user.id, at)


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
