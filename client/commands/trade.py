"""Wall trading: ``cq game offer`` (and ``--withdraw``) and ``cq game trade``."""

from __future__ import annotations

from typing import Any

import click

from client.commands.game_group import echo_game, game
from client.commands.options import game_id_option
from client.state import AppState, pass_state

MODES = ("buying", "selling")
VERB = {"buying": "buy", "selling": "sell"}

OFFER_HELP = """Offer a wall.

This command is part of the wall trading functionality. You can either offer to buy or
offer to sell exactly one wall. You can only sell if you have walls available to sell.
This creates an in-game broadcast message. You can have one open offer per game.

You can optionally specify an opponent in the game as a trading partner. This makes the
offer private and the offering message is only visible for the trading partner (a Direct
Message). With --withdraw you take back your open offer.
"""

TRADE_HELP = """Trade a wall offer.

This command is part of the wall trading functionality. If an opponent has made an offer
to either buy or sell, you can make the trade at any moment of the game (not only on your
turn): 'buying' against a sell offer, 'selling' against a buy offer. If the offer is to
buy, you need to have a wall available to sell. TRADING_PARTNER is the player who made the
offer (also for an offer made in private to you).

Making a trade has a cost that is incorporated in the final score when the game is
finished: the seller gains the wall cost, the buyer loses it. The specific cost depends on
the game variant; 'cq game show' displays it.
"""


def _mode_choice() -> click.Choice:
    return click.Choice(MODES, case_sensitive=False)


def echo_after(state: AppState, data: dict[str, Any], line: str) -> None:
    click.echo(line)
    echo_game(state, data)


@game.command(help=OFFER_HELP, short_help="Offer a wall.")
@game_id_option("The ID of the game to offer a wall")
@click.argument("mode", metavar="<TRADING_MODE>", type=_mode_choice(), required=False)
@click.argument("partner", metavar="[TRADING_PARTNER]", required=False)
@click.option("-w", "--withdraw", is_flag=True, help="Withdraw your open offer instead")
@pass_state
def offer(
    state: AppState, game_id: int, mode: str | None, partner: str | None, withdraw: bool
) -> None:
    if withdraw:
        if mode or partner:
            raise click.UsageError("--withdraw takes no TRADING_MODE or TRADING_PARTNER")
        with state.api() as api:
            data = api.withdraw_offer(game_id)
        echo_after(state, data, f"You withdrew your offer in game {game_id}.")
        return
    if mode is None:
        raise click.UsageError("give a TRADING_MODE (buying or selling), or --withdraw")
    mode = mode.lower()
    with state.api() as api:
        data = api.offer(game_id, mode, partner)
    # one buys a wall *from* a partner and sells one *to* a partner
    to = f" {'from' if mode == 'buying' else 'to'} {partner} (private)" if partner else ""
    echo_after(
        state,
        data,
        f"You offer to {VERB[mode]} a wall{to} in game {game_id} "
        f"(wall cost {data.get('wall_cost', '?')}).",
    )


@game.command(help=TRADE_HELP, short_help="Trade a wall offer.")
@game_id_option("The ID of the game to trade a wall offer")
@click.argument("mode", metavar="<TRADING_MODE>", type=_mode_choice())
@click.argument("partner", metavar="<TRADING_PARTNER>")
@pass_state
def trade(state: AppState, game_id: int, mode: str, partner: str) -> None:
    mode = mode.lower()
    with state.api() as api:
        data = api.trade(game_id, mode, partner)
    direction = "from" if mode == "buying" else "to"
    echo_after(
        state,
        data,
        f"You {'bought' if mode == 'buying' else 'sold'} a wall "
        f"{direction} {partner} in game {game_id} "
        f"(your trade balance: {data.get('trade_balance')}).",
    )
