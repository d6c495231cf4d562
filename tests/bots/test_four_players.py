"""Four players: who stops a pawn that is about to win.

Between the bot's move and a pawn's next move, the seats in between move too. The seat just
before a pawn is the last one who can wall it; the bot walls the seat after it (nobody else
can), and leaves a leader further round the table to the seat just before that leader,
keeping its own wall and tempo (the search of ``corridorquest.bots.search.ModelSearch``).
"""

from __future__ import annotations

import pytest

from corridorquest.bots import choose, evaluate
from corridorquest.bots.search import modelled_action
from corridorquest.bots.walls import scored_walls
from corridorquest.engine import GameState, PlaceWall, Seat


def _position(
    pawns: dict[str, str],
    walls: dict[str, int] | None = None,
    placed: list[list[str]] | None = None,
    ply: int = 24,
) -> GameState:
    """North (the bot) to move, everybody holding five walls (or ``walls``), with
    ``placed`` (wall, owner) on the board (none by default)."""
    return GameState.from_dict(
        {
            "size": 9,
            "players": 4,
            "first": "north",
            "turn": "north",
            "winner": None,
            "ply": ply,
            "pawns": pawns,
            "walls": placed or [],
            "walls_left": walls or dict.fromkeys(pawns, 5),
            "passes": [],
        }
    )


def _is_wall(action: str) -> bool:
    return action.endswith(("h", "v"))


@pytest.mark.parametrize("level", [2, 4, 6])
def test_the_bot_walls_the_next_seat_when_it_is_about_to_win(level: int) -> None:
    # East moves right after North and reaches column a with one step: only North can stop it
    state = _position({"north": "e6", "east": "b4", "south": "e2", "west": "b7"})
    assert state.distance(Seat.EAST) == 1 and state.distance(Seat.NORTH) == 5
    action = choose(state, level, 1)
    assert _is_wall(action), action
    after = state.copy()
    after.play_notation(action)
    assert after.distance(Seat.EAST) >= 2  # East cannot win on its move any more


@pytest.mark.parametrize("level", [2, 4, 6])
def test_the_bot_leaves_a_leader_to_the_seat_just_before_it(level: int) -> None:
    # South is one step from row 9, but East moves between North and South and holds five
    # walls: East stops South (or loses itself); North keeps its walls and its tempo for
    # the race after that
    state = _position({"north": "e6", "east": "h3", "south": "c8", "west": "b2"})
    assert state.distance(Seat.SOUTH) == 1 and state.distance(Seat.NORTH) == 5
    action = choose(state, level, 1)
    assert not _is_wall(action), action


def test_a_pawn_whose_guard_holds_walls_is_slower_in_the_race() -> None:
    # The seat just before a pawn is the only one that can still wall it on its last step
    # (West before North). North is three steps from its goal, the others five. The same
    # walls in the opponents' hands, dealt two ways: with West holding three, North's lead
    # is not safe; with West holding none and East (South's guard) three, it is
    pawns = {"north": "e4", "east": "f9", "south": "a4", "west": "d1"}
    guarded = _position(pawns, {"north": 5, "east": 0, "south": 3, "west": 3})
    unguarded = _position(pawns, {"north": 5, "east": 3, "south": 3, "west": 0})
    assert [guarded.distance(seat) for seat in guarded.seats] == [3, 5, 5, 5]
    assert evaluate(unguarded) >= evaluate(guarded) + 2


def test_two_players_race_without_a_guard_delay() -> None:
    # 2 players: the other seat's walls count as walls in hand only, not as a delay of the
    # pawn (the 2-player play of every level is what it was before the 4-player guard delay):
    # North 3 steps, South 2 and moving second, ten walls each: -0.5 rounds, -0.03
    state = GameState.from_dict(
        {
            "size": 9,
            "players": 2,
            "first": "north",
            "turn": "north",
            "winner": None,
            "ply": 8,
            "pawns": {"north": "e4", "south": "e7"},
            "walls": [],
            "walls_left": {"north": 10, "south": 10},
            "passes": [],
        }
    )
    assert evaluate(state) == pytest.approx(-0.53)


@pytest.mark.parametrize("level", [2, 4, 6])
def test_the_bot_walls_a_leader_whose_guard_has_no_walls_left(level: int) -> None:
    # South and West are both two steps from their goals. West's guard (South, the seat
    # just before it) holds three walls and will stop West's last step; South's guard
    # (East) holds none: nobody stops South unless North walls it
    state = _position(
        {"north": "e6", "east": "g7", "south": "c7", "west": "g2"},
        {"north": 2, "east": 0, "south": 3, "west": 3},
    )
    assert state.distance(Seat.SOUTH) == 2 and state.distance(Seat.WEST) == 2
    action = choose(state, level, 1)
    assert _is_wall(action), action
    after = state.copy()
    after.play_notation(action)
    assert after.distance(Seat.SOUTH) >= 3


def _walled(pawns: dict[str, str], walls: list[list[str]], left: dict[str, int]) -> GameState:
    """North (the bot) to move, with ``walls`` (wall, owner) on the board."""
    return _position(pawns, left, walls, ply=40)


def test_a_pawn_that_no_wall_can_stop_is_not_delayed_by_its_guard() -> None:
    # South walks c7-c8-c9; the walls either side (a7h d7h a8h d8h) leave no slot for a wall
    # across column c, so East's three walls cannot stop it: South's race is two steps, not
    # five. The same pawns without those walls: East can wall South, and South is slower
    pawns = {"north": "e4", "east": "h3", "south": "c7", "west": "b2"}
    left = {"north": 3, "east": 3, "south": 3, "west": 3}
    fenced = [["a7h", "west"], ["d7h", "west"], ["a8h", "north"], ["d8h", "north"]]
    unstoppable = _walled(pawns, fenced, left)
    assert unstoppable.distance(Seat.SOUTH) == 2 and unstoppable.distance(Seat.NORTH) == 3
    open_board = _walled(pawns, [], {"north": 5, "east": 3, "south": 3, "west": 5})
    # North's lead over South: South arrives two rounds before North (-2, and walls in hand)
    assert evaluate(unstoppable) < -2.5
    assert evaluate(open_board) > evaluate(unstoppable) + 2


def test_a_race_the_successor_leads_is_lost_when_the_bot_holds_no_wall() -> None:
    # East moves right after North, two steps from column a against North's three: only
    # North could still wall East's last steps, and North has no wall left
    pawns = {"north": "e4", "east": "c5", "south": "e2", "west": "g6"}
    state = _position(pawns, {"north": 0, "east": 3, "south": 3, "west": 3})
    assert state.distance(Seat.EAST) == 2 and state.distance(Seat.NORTH) == 3
    assert evaluate(state) <= -500
    # holding a wall, North can still stop East: not decided
    assert evaluate(_position(pawns, {"north": 1, "east": 3, "south": 3, "west": 3})) > -500


def test_in_the_model_only_the_bot_walls_its_successor() -> None:
    # East (the seat after North, the bot) leads the others by three steps, and a wall at a3
    # or a4 (beside the wall b4h) would cost it two steps. The model lets South and West walk
    # on: walling East is North's job, as only North can stop East's last step (the search
    # then sees East's race as the bot's to stop)
    state = _walled(
        {"north": "e6", "east": "c4", "south": "e2", "west": "d8"},
        [["b4h", "east"]],
        {"north": 5, "east": 4, "south": 5, "west": 5},
    )
    assert [state.distance(seat) for seat in state.seats] == [5, 2, 7, 5]
    for seat in (Seat.SOUTH, Seat.WEST):
        state.turn = seat
        assert -scored_walls(state, seat, Seat.EAST)[0][0] >= 2  # a wall worth two steps
        assert not isinstance(modelled_action(state, seat, Seat.NORTH), PlaceWall)
