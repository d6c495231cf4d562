"""Stored games read back and replayed: what `corridorquest check` (store/check.py) and
migration step 7 (store/migrations/rescore.py) share.

`read_rows` reads the players, actions and traded wall offers of a batch of games;
`stored_trades` turns the offers into wall trades by seat; `replay_stored` plays the
actions from the start position the seed gives, moving walls where trades closed, and
raises ReplayError where the stored game does not replay. Nothing is written.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from corridorquest.engine import EngineError, GameRecord, GameState, ReplayError, Seat
from corridorquest.engine.trading import transfer_wall
from corridorquest.store.models import GameAction, GamePlayer, WallOffer


@dataclass(frozen=True)
class Trade:
    """A wall that moved from `seller` to `buyer` after `after` actions (None: unknown)."""

    after: int | None
    seller: Seat
    buyer: Seat


@dataclass(frozen=True)
class StoredAction:
    seat: str
    type: str
    notation: str


def replay_stored(
    size: int, players: int, seed: int, actions: list[StoredAction], trades: list[Trade]
) -> GameState:
    """The position a game's stored actions and trades give; ReplayError says where not.

    The start position (seats and the first player from the seed) is `GameRecord`'s; a
    trade closed after N actions moves its wall before action N + 1 is played (trades of
    databases older than migration step 4 do not know when they happened: they count
    before the last action, the last moment a finished game could have had them).
    """
    state = GameRecord(size, players, seed).replay()  # the start position
    dated: dict[int, list[Trade]] = {}
    for trade in trades:
        after = max(len(actions) - 1, 0) if trade.after is None else trade.after
        dated.setdefault(after, []).append(trade)
    for number, action in enumerate(actions, start=1):
        _trade(state, dated.pop(number - 1, []))
        turn = state.turn.value if state.turn is not None else "nobody"
        if action.seat != turn:
            raise ReplayError(
                f"action {number} ({action.type} {action.notation}) is stored as {action.seat}'s,"
                f" but it was {turn}'s turn"
            )
        try:
            state.play_notation(action.notation, action.type)
        except EngineError as error:
            raise ReplayError(f"action {number}: {error}") from None
    for after in sorted(dated):
        if after > len(actions):
            raise ReplayError(f"a wall trade is stored after action {after} of {len(actions)}")
        _trade(state, dated[after])
    return state


def _trade(state: GameState, trades: Iterable[Trade]) -> None:
    for trade in trades:
        try:
            transfer_wall(state, trade.seller, trade.buyer)
        except EngineError as error:
            raise ReplayError(f"wall trade after action {trade.after}: {error}") from None


def state_differences(stored: dict[str, object], replayed: dict[str, object]) -> str:
    """The names of the fields where two `GameState.to_dict()` forms differ, comma separated."""
    names = sorted(key for key in {*stored, *replayed} if stored.get(key) != replayed.get(key))
    return ", ".join(names)


def stored_trades(players: list[GamePlayer], offers: list[WallOffer]) -> list[Trade]:
    """The wall trades of a game's traded offers, by seat; ReplayError names an offer
    traded between users who hold no seat."""
    seat_of = {player.user_id: Seat(player.seat) for player in players if player.seat}
    trades = []
    for offer in offers:
        maker = seat_of.get(offer.user_id)
        taker = seat_of.get(offer.traded_with_id) if offer.traded_with_id is not None else None
        if maker is None or taker is None:
            raise ReplayError(f"wall offer {offer.id} was traded between users who hold no seat")
        seller, buyer = (maker, taker) if offer.mode == "selling" else (taker, maker)
        trades.append(Trade(offer.closed_after_action, seller, buyer))
    return trades


@dataclass
class StoredRows:
    """What a batch of games stored besides the game rows, by game id."""

    players: dict[int, list[GamePlayer]]  # in join order
    actions: dict[int, list[StoredAction]]  # in play order
    offers: dict[int, list[WallOffer]]  # the traded ones, in the order they were traded
    gaps: dict[int, int]  # game id -> the first action number out of sequence


def read_rows(ids: list[int]) -> StoredRows:
    """The players, actions and traded wall offers of the games `ids`.

    Only the columns the replay and the scores need are read: migration step 7 replays
    games with this, before later steps add columns to these tables."""
    players: dict[int, list[GamePlayer]] = {game_id: [] for game_id in ids}
    for player in (
        GamePlayer.select(
            GamePlayer.id,
            GamePlayer.game,
            GamePlayer.user,
            GamePlayer.join_order,
            GamePlayer.seat,
            GamePlayer.score,
            GamePlayer.trade_balance,
        )
        .where(GamePlayer.game.in_(ids))
        .order_by(GamePlayer.join_order)
    ):
        players[player.game_id].append(player)
    actions: dict[int, list[StoredAction]] = {game_id: [] for game_id in ids}
    gaps: dict[int, int] = {}
    rows = cast(
        Iterable[tuple[int, int, str, str, str]],
        GameAction.select(
            GameAction.game, GameAction.n, GameAction.seat, GameAction.type, GameAction.notation
        )
        .where(GameAction.game.in_(ids))
        .order_by(GameAction.game, GameAction.n)
        .tuples(),
    )
    for game_id, n, seat, kind, notation in rows:
        played = actions[game_id]
        if n != len(played) + 1 and game_id not in gaps:
            gaps[game_id] = n
        played.append(StoredAction(seat, kind, notation))
    offers: dict[int, list[WallOffer]] = {game_id: [] for game_id in ids}
    for offer in (
        WallOffer.select(
            WallOffer.id,
            WallOffer.game,
            WallOffer.user,
            WallOffer.mode,
            WallOffer.traded_with,
            WallOffer.closed_at,
            WallOffer.closed_after_action,
        )
        .where(WallOffer.game.in_(ids) & (WallOffer.status == "traded"))
        .order_by(WallOffer.closed_at, WallOffer.id)
    ):
        offers[offer.game_id].append(offer)
    return StoredRows(players, actions, offers, gaps)
