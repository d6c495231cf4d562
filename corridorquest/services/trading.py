"""Wall trading (SPEC §5): offers to buy or sell one wall, withdrawals and trades.

- A player of a Started game has at most one open offer (409 `offer_already_open`). A
  sell offer needs a wall in hand (422 `no_wall_to_sell`). An offer with a trading
  partner (another player) is private: only the two read it and its messages.
- Another player that can read an offer trades against it: `selling` against a buy
  offer, `buying` against a sell offer, at any moment of a Started game (not only on
  its turn). One wall moves from the seller to the buyer (engine `transfer_wall`), the
  variant's wall cost moves from the buyer's trade balance to the seller's, the offer is
  closed and the game's revision goes up by one: all in ONE transaction. Making or
  withdrawing a public offer moves the revision on too; a private one does not (the other
  players must see no trace of it: `GameWrite.change_unseen` instead). Concurrent
  trades against one offer: the offer row is claimed with a conditional UPDATE (and the
  game row is locked on PostgreSQL), so exactly one succeeds; the others get 409
  `offer_taken`.
- Every offer, withdrawal and trade writes a system message in the same transaction:
  public ones for everybody, private ones for the two players only. No message states a
  wall count (SPEC §4, masked walls).
"""

from __future__ import annotations

from typing import Any

from corridorquest.engine import IllegalActionError, Seat, wall_cost
from corridorquest.engine.trading import can_sell, transfer_wall
from corridorquest.events import OfferMade, OfferWithdrawn, WallTraded
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Conflict, NotFound, Unprocessable
from corridorquest.services.game_access import (
    LoadedGame,
    check_revision,
    require_player,
    require_status,
)
from corridorquest.services.game_views import game_view
from corridorquest.services.offer_views import can_read, latest_offer_of, open_offer_of, save_offer
from corridorquest.services.system_messages import add_system
from corridorquest.services.unit_of_work import GameWrite, WriteResult, write_game
from corridorquest.services.user_refs import ref
from corridorquest.store.models import GamePlayer, User, WallOffer, utcnow

MODES = ("buying", "selling")
VERB = {"buying": "buy", "selling": "sell"}


def _check_mode(mode: str) -> None:
    if mode not in MODES:
        raise Unprocessable(
            "invalid_trading_mode", f"{mode}: the trading mode is buying or selling"
        )


def _other_player(loaded: LoadedGame, username: str, me: CurrentUser) -> User:
    user = User.find_by_name(username)
    if user is None:
        raise NotFound("user_not_found", f"no user {username}")
    if user.id == me.id:
        raise Unprocessable("invalid_trading_partner", "you cannot trade with yourself")
    if not loaded.is_player(user.id):
        raise Unprocessable(
            "invalid_trading_partner",
            f"{user.username} is not a player of game {loaded.game.id}",
        )
    return user


def _seat(loaded: LoadedGame, user_id: int) -> Seat:
    seat = loaded.seat_of(user_id)
    assert seat is not None
    return seat


def _started_for(loaded: LoadedGame, user: CurrentUser, base_revision: int | None) -> GamePlayer:
    player = require_player(loaded, user)
    check_revision(loaded, base_revision, lambda: game_view(loaded, user.id))
    require_status(loaded, "started")
    return player


def _bump(loaded: LoadedGame) -> None:
    loaded.game.revision += 1
    loaded.save_state()
    loaded.save_game("state", "revision")


async def make_offer(
    ctx: ServiceContext,
    user: CurrentUser,
    game_id: int,
    mode: str,
    partner: str | None = None,
    base_revision: int | None = None,
    key: str | None = None,
) -> WriteResult:
    """Offer to buy or sell one wall, to everybody or privately to `partner`."""
    _check_mode(mode)

    def offer(work: GameWrite) -> tuple[int, dict[str, Any]]:
        loaded = work.loaded
        _started_for(loaded, user, base_revision)
        assert loaded.state is not None
        if open_offer_of(game_id, user.id) is not None:
            raise Conflict(
                "offer_already_open",
                f"you already have an open offer in game {game_id}: withdraw it first",
            )
        if mode == "selling" and not can_sell(loaded.state, _seat(loaded, user.id)):
            raise Unprocessable("no_wall_to_sell", "you have no wall left to sell")
        other = _other_player(loaded, partner, user) if partner else None
        offer = WallOffer.create(
            game=game_id,
            user=user.id,
            mode=mode,
            partner=other.id if other else None,
            created_at=utcnow(),
        )
        if other is None:
            _bump(loaded)
        else:  # the others must not see that something happened
            work.change_unseen()
        cost = wall_cost(loaded.game.size, loaded.game.players)
        if other is None:
            text = f"{ref(user.id)} offers to {VERB[mode]} a wall (wall cost {cost})"
            add_system(game_id, loaded.game.revision, text)
        else:
            text = (
                f"{ref(user.id)} privately offers {ref(other.id)} to {VERB[mode]} "
                f"a wall (wall cost {cost})"
            )
            add_system(game_id, loaded.game.revision, text, about=user.id, to=other.id)
        work.emit(
            OfferMade(
                game_id=game_id,
                revision=loaded.game.revision,
                offer_id=offer.id,
                user_id=user.id,
                mode=mode,
                partner_id=other.id if other else None,
            )
        )
        return 201, game_view(loaded, user.id)

    return await write_game(ctx, user, key, "make an offer", game_id, offer)


async def withdraw_offer(
    ctx: ServiceContext,
    user: CurrentUser,
    game_id: int,
    base_revision: int | None = None,
    key: str | None = None,
) -> WriteResult:
    """Withdraw the caller's open offer."""

    def withdraw(work: GameWrite) -> tuple[int, dict[str, Any]]:
        loaded = work.loaded
        _started_for(loaded, user, base_revision)
        offer = open_offer_of(game_id, user.id)
        if offer is None:
            raise NotFound("no_open_offer", f"you have no open offer in game {game_id}")
        offer.status = "withdrawn"
        offer.closed_at = utcnow()
        save_offer(offer, "status", "closed_at")
        if offer.partner_id is None:
            _bump(loaded)
        else:  # a private offer: as when it was made
            work.change_unseen()
        text = f"{ref(user.id)} withdrew the offer to {VERB[offer.mode]} a wall"
        add_system(game_id, loaded.game.revision, text, about=user.id, to=offer.partner_id)
        work.emit(
            OfferWithdrawn(
                game_id=game_id,
                revision=loaded.game.revision,
                offer_id=offer.id,
                user_id=user.id,
                partner_id=offer.partner_id,
            )
        )
        return 200, game_view(loaded, user.id)

    return await write_game(ctx, user, key, "withdraw an offer", game_id, withdraw)


def _offer_to_trade(loaded: LoadedGame, offerer: User, user: CurrentUser, mode: str) -> WallOffer:
    """The offer of `offerer` the caller trades against, or why there is none."""
    game_id = loaded.game.id
    latest = latest_offer_of(game_id, offerer.id)
    offer = latest if latest is not None and can_read(latest, user.id) else None
    if offer is None:
        raise NotFound(
            "no_open_offer", f"{offerer.username} has no offer for you in game {game_id}"
        )
    if offer.status == "withdrawn":
        raise Conflict("offer_withdrawn", f"{offerer.username} withdrew the offer")
    if offer.status != "open":
        raise Conflict("offer_taken", f"{offerer.username}'s offer was already traded")
    wanted = "selling" if mode == "buying" else "buying"
    if offer.mode != wanted:
        raise Conflict(
            "offer_mismatch",
            f"{offerer.username} offers to {VERB[offer.mode]} a wall: "
            f"trade with '{wanted}' against it",
        )
    return offer


async def trade(
    ctx: ServiceContext,
    user: CurrentUser,
    game_id: int,
    mode: str,
    partner: str,
    base_revision: int | None = None,
    key: str | None = None,
) -> WriteResult:
    """Buy against `partner`'s sell offer, or sell against its buy offer."""
    _check_mode(mode)

    def trade_one(work: GameWrite) -> tuple[int, dict[str, Any]]:
        loaded = work.loaded
        me = _started_for(loaded, user, base_revision)
        state = loaded.state
        assert state is not None
        offerer = User.find_by_name(partner)
        if offerer is not None and offerer.id == user.id:
            raise Conflict("own_offer", "you cannot trade against your own offer")
        offerer = _other_player(loaded, partner, user)
        offer = _offer_to_trade(loaded, offerer, user, mode)
        them = loaded.player_of(offerer.id)
        assert them is not None
        seller, buyer = (me, them) if mode == "selling" else (them, me)
        if not can_sell(state, Seat(seller.seat)):
            if seller is me:
                raise Unprocessable("no_wall_to_sell", "you have no wall left to sell")
            raise Conflict("seller_has_no_wall", f"{offerer.username} cannot sell a wall now")
        now = utcnow()
        claimed = (
            WallOffer.update(
                status="traded",
                traded_with=user.id,
                closed_at=now,
                closed_after_action=state.ply,
            )
            .where((WallOffer.id == offer.id) & (WallOffer.status == "open"))
            .execute()
        )
        if claimed != 1:
            raise Conflict("offer_taken", f"{offerer.username}'s offer was already traded")
        try:
            transfer_wall(state, Seat(seller.seat), Seat(buyer.seat))
        except IllegalActionError as error:
            raise Conflict("trade_refused", str(error)) from None
        cost = wall_cost(loaded.game.size, loaded.game.players)
        seller.trade_balance += cost
        buyer.trade_balance -= cost
        loaded.save_player(seller, "trade_balance")
        loaded.save_player(buyer, "trade_balance")
        _bump(loaded)
        text = (  # users by id (user_refs): the message shows their names when read
            f"{ref(seller.user_id)} sold a wall to {ref(buyer.user_id)} on "
            f"{ref(offerer.id)}'s offer (wall cost {cost})"
        )
        add_system(game_id, loaded.game.revision, text, about=offerer.id, to=offer.partner_id)
        work.emit(
            WallTraded(
                game_id=game_id,
                revision=loaded.game.revision,
                offer_id=offer.id,
                seller_id=seller.user_id,
                buyer_id=buyer.user_id,
                cost=cost,
                private=offer.partner_id is not None,
            )
        )
        return 201, game_view(loaded, user.id)

    return await write_game(ctx, user, key, "trade", game_id, trade_one)
