"""Turns, passes, winning, records and replay, serialization, copies (SPEC §2)."""

from __future__ import annotations

import json

import pytest

from corridorquest.engine import (
    GameOverError,
    GameRecord,
    GameState,
    ReplayError,
    Seat,
    assign_seats,
    format_action,
)

from .engine_helpers import (
    legal,
    pawns,
    position,
    ref_snapshot,
    reference,
    setup,
    snapshot,
    turn,
)
from .reference import RefGame


def seats_to_move(players: int, turns: int) -> list[str]:
    """The seat to move at each of `turns` turns of a 9x9 game that south starts."""
    state = position(9, players, "south")
    seen = []
    for _ in range(turns):
        assert state.turn is not None
        seen.append(state.turn.value)
        state.play(state.legal_actions()[-1])
    return seen


def test_turn_order_is_clockwise_from_the_first_seat() -> None:
    assert seats_to_move(4, 8) == ["south", "west", "north", "east"] * 2


def test_two_player_turns_skip_east_and_west() -> None:
    assert seats_to_move(2, 4) == ["south", "north"] * 2


def test_unknown_or_absent_first_seat_is_refused() -> None:
    with pytest.raises(ValueError):
        GameState.new(size=9, players=2, first=Seat.EAST)
    with pytest.raises(ValueError):
        GameState.new(size=8, players=2, first=Seat.NORTH)
    with pytest.raises(ValueError):
        GameState.new(size=9, players=3, first=Seat.NORTH)


def crowded_south() -> tuple[GameState, RefGame]:
    """South on a1 hemmed in by North (a2), East (b1), West (c1) and wall a1h, no walls left;
    East to move."""
    return setup(5, 4, "east", {"south": "a1", "north": "a2", "east": "b1", "west": "c1"},
                 walls="a1h", walls_left={"south": 0})


def test_player_with_no_legal_action_passes_and_the_turn_goes_on() -> None:
    state, ref = crowded_south()
    passed = state.play(state.parse_action("c4h"))
    assert passed == [Seat.SOUTH]
    assert state.turn is Seat.WEST
    assert state.passes == [(1, Seat.SOUTH)]
    ref.play("c4h")
    assert snapshot(state) == ref_snapshot(ref)


def test_pass_ends_once_the_player_can_act_again() -> None:
    state, _ = crowded_south()
    state.play(state.parse_action("c4h"))
    state.play(state.parse_action("d1"))  # West steps away from c1
    assert state.turn is Seat.NORTH
    state.play(state.parse_action("a4h"))
    passed = state.play(state.parse_action("c1"))  # East leaves b1
    assert passed == []
    assert turn(state) == "south"
    assert legal(state) == ["b1"]


def test_no_pass_while_a_wall_can_still_be_placed() -> None:
    state, _ = setup(5, 4, "east", {"south": "a1", "north": "a2", "east": "b1", "west": "c1"},
                     walls="a1h")
    assert state.play(state.parse_action("c4h")) == []
    assert state.turn is Seat.SOUTH
    assert legal(state) and all(a.endswith(("h", "v")) for a in legal(state))


def test_win_finishes_the_game_and_no_legal_action_remains() -> None:
    state, _ = setup(9, 2, "north", {"north": "d2"})
    state.play(state.parse_action("south"))
    assert state.winner is Seat.NORTH and state.is_finished and state.turn is None
    assert state.legal_actions() == []
    final = state.to_dict()
    for action in GameState.new().legal_actions()[:5]:
        with pytest.raises(GameOverError):
            state.play(action)
    assert state.to_dict() == final


def test_first_pawn_to_arrive_wins_in_a_four_player_game() -> None:
    state, _ = setup(5, 4, "west", {"west": "d3", "east": "b3"})
    state.play(state.parse_action("east"))
    assert state.winner is Seat.WEST
    assert state.to_dict()["winner"] == "west"


@pytest.mark.parametrize("size", [5, 9, 17])
def test_distance_is_the_shortest_path_ignoring_pawns(size: int) -> None:
    state = position(size, 4, "north")
    assert {seat: state.distance(seat) for seat in state.seats} == {
        seat: size - 1 for seat in state.seats}
    state, ref = setup(5, 2, "south", {"north": "c2", "south": "c1"}, walls="b1v c1v")
    assert state.distance(Seat.SOUTH) == ref.distance("south") == 4
    assert state.distance(Seat.NORTH) == 1
    state, ref = setup(5, 2, "south", walls="b1h c2h")
    assert state.distance(Seat.SOUTH) == ref.distance("south") == 6


def test_a_copy_reports_its_own_distances_after_the_original_was_asked() -> None:
    """Distances are remembered per position (walls and pawn), so neither a copy nor the
    position after a move reports one that no longer holds."""
    state, ref = setup(5, 2, "south", walls="b1h")
    assert state.distance(Seat.SOUTH) == ref.distance("south") == 5
    blocked = state.copy()
    blocked.play(blocked.parse_action("c2h"))  # south walls itself in further
    assert blocked.distance(Seat.SOUTH) == 6
    assert state.distance(Seat.SOUTH) == 5
    moved = blocked.copy()
    moved.play(moved.parse_action("c4"))  # north steps
    moved.play(moved.parse_action("d1"))  # south steps east, towards the way round
    _, after = setup(5, 2, "south", {"north": "c4", "south": "d1"}, walls="b1h c2h")
    assert moved.distance(Seat.SOUTH) == after.distance("south") == 5
    assert blocked.distance(Seat.SOUTH) == 6


def test_replay_gives_the_same_state_as_playing() -> None:
    seats, first = assign_seats(11, 4)
    state = GameState.new(size=7, players=4, first=first)
    actions = []
    for i in range(12):
        action = state.legal_actions()[(i * 37) % len(state.legal_actions())]
        actions.append(format_action(action))
        state.play(action)
    record = GameRecord(7, 4, 11, actions)
    assert record.replay().to_dict() == state.to_dict()
    assert GameRecord.from_dict(json.loads(json.dumps(record.to_dict()))) == record
    assert record.replay().to_dict() == record.replay().to_dict()


def test_replay_refuses_an_illegal_step_and_names_it() -> None:
    _seats, first = assign_seats(5, 2)
    opening = "e8" if first is Seat.NORTH else "e2"
    with pytest.raises(ReplayError, match=r"step 2: e5: "):
        GameRecord(9, 2, 5, [opening, "e5"]).replay()
    with pytest.raises(ReplayError, match=r"step 1: zz: "):
        GameRecord(9, 2, 5, ["zz"]).replay()
    with pytest.raises(ReplayError, match=r"step 2: "):
        GameRecord(9, 2, 5, ["a1h", "a1h"]).replay()


def test_replay_refuses_an_action_after_the_end() -> None:
    state = GameState.new(size=5, players=2, first=assign_seats(3, 2)[1])
    actions = []
    while not state.is_finished:
        steps = [a for a in state.legal_actions() if format_action(a)[-1] not in "hv"]
        best = min(steps, key=lambda a: (distance_after(state, a), format_action(a)))
        actions.append(format_action(best))
        state.play(best)
    assert GameRecord(5, 2, 3, actions).replay().winner == state.winner
    with pytest.raises(ReplayError, match=rf"step {len(actions) + 1}: "):
        GameRecord(5, 2, 3, [*actions, "a1h"]).replay()


def distance_after(state: GameState, action: object) -> int:
    child = state.copy()
    mover = state.turn
    child.play(action)  # type: ignore[arg-type]
    assert mover is not None
    return child.distance(mover)


def test_to_dict_from_dict_round_trip_is_exact_and_json_able() -> None:
    state = position(9, 4, "west", "b5 e8 h5 e2 c5 e7 g5 e3 d5 d7h f5 c2v")
    data = state.to_dict()
    again = GameState.from_dict(json.loads(json.dumps(data)))
    assert again.to_dict() == data
    assert snapshot(again) == snapshot(state)
    assert snapshot(again) == ref_snapshot(
        reference(9, 4, "west", "b5 e8 h5 e2 c5 e7 g5 e3 d5 d7h f5 c2v"))


def test_copies_share_no_mutable_state() -> None:
    state = position(9, 2, "north", "e8 e2 c3h")
    before = snapshot(state)
    twin = state.copy()
    twin.play(twin.parse_action("d4v"))
    twin.play(twin.parse_action("e7"))
    assert snapshot(state) == before
    state.play(state.parse_action("a1h"))
    assert snapshot(twin)["walls"] == [("c3h", "north"), ("d4v", "south")]
    assert pawns(twin) == {"north": "e7", "south": "e2"}


def test_from_dict_and_to_dict_share_no_mutable_state() -> None:
    state = position(9, 2, "north", "e8 e2 c3h")
    data = state.to_dict()
    frozen = json.dumps(data, sort_keys=True)
    loaded = GameState.from_dict(data)
    data["pawns"]["north"] = "a1"
    data["walls"].append(["h8h", "north"])
    data["walls_left"]["north"] = 0
    assert loaded.to_dict() == json.loads(frozen)
    out = loaded.to_dict()
    out["walls"].clear()
    out["pawns"]["south"] = "i9"
    assert loaded.to_dict() == json.loads(frozen)
    loaded.play(loaded.parse_action("e3"))
    assert json.dumps(state.to_dict(), sort_keys=True) == frozen


def test_assign_seats_is_deterministic_and_distinct() -> None:
    for players in (2, 4):
        for seed in range(200):
            seats, first = assign_seats(seed, players)
            assert assign_seats(seed, players) == (seats, first)
            assert len(seats) == players and len(set(seats)) == players
            expected = {Seat.NORTH, Seat.SOUTH} if players == 2 else set(Seat)
            assert set(seats) == expected
            assert first in expected


def test_assign_seats_covers_every_seat_and_first_player_over_many_seeds() -> None:
    for players in (2, 4):
        by_index: list[set[Seat]] = [set() for _ in range(players)]
        firsts: set[Seat] = set()
        for seed in range(400):
            seats, first = assign_seats(seed, players)
            for index, seat in enumerate(seats):
                by_index[index].add(seat)
            firsts.add(first)
        expected = {Seat.NORTH, Seat.SOUTH} if players == 2 else set(Seat)
        assert all(found == expected for found in by_index)
        assert firsts == expected
