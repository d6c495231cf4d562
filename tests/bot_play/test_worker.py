"""What the bot worker processes run (bot_play/worker.py): the action and its API type
from a seat's view, and a legal fallback when the search fails (a bot never stalls)."""

from __future__ import annotations

from corridorquest.bot_play.worker import choose_action, fallback, kind_of, trade_pays
from corridorquest.bots import seat_view
from corridorquest.engine import GameState, Seat, format_action


def test_the_action_comes_with_the_type_the_api_wants() -> None:
    state = GameState.new(size=5, players=2, first=Seat.NORTH)
    view = seat_view(state, Seat.NORTH)
    kind, notation, warning = choose_action(view.to_dict(), 2, seed=7)
    assert warning is None
    legal = {format_action(a): a for a in state.legal_actions()}
    assert notation in legal
    assert kind == ("wall" if notation[-1] in "hv" else "move")
    # a jump over the pawn in front is a jump
    state = GameState.from_dict({**state.to_dict(), "pawns": {"north": "c3", "south": "c2"}})
    assert kind_of(seat_view(state, Seat.NORTH), "c1") == "jump"


def test_a_failed_search_gives_a_legal_fallback_and_a_warning() -> None:
    state = GameState.new(size=5, players=2, first=Seat.SOUTH)
    # the view of a seat that is not to move: the search refuses it (IllegalActionError)
    view = seat_view(state, Seat.NORTH)
    kind, notation, warning = choose_action(view.to_dict(), 3, seed=1)
    assert warning is not None and "search failed" in warning and notation in warning
    assert (kind, notation) == ("move", fallback(view)) == ("move", "c4")


def test_the_fallback_avoids_refused_actions_and_bumped_edges() -> None:
    state = GameState.new(size=5, players=2, first=Seat.NORTH)
    view = seat_view(state, Seat.NORTH, invisible=True, blocked=["c4h"], refused=["b5"])
    assert fallback(view) == "d5"


def test_a_bot_buys_a_wall_and_does_not_sell_one() -> None:
    state = GameState.new(size=5, players=2, first=Seat.NORTH)
    data = seat_view(state, Seat.SOUTH).to_dict()
    assert trade_pays(data, +1, "north")
    assert not trade_pays(data, -1, "north")
