"""Records round-trip (issue 31): generated games over every size and 2/4 players, with
every first mover, exported as text (and as JSON) and read back, replay to the same
positions at every ply."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from corridorquest.engine import PLAYER_COUNTS, SIZES, GameState, seats_for
from corridorquest.records import (
    Record,
    format_json,
    format_records,
    format_text,
    parse_records,
    record_from_json,
    replay,
)

# 1,000 games in every profile: the round trip is the acceptance of issue 31 (~20 s)
GAMES = settings(max_examples=1000, deadline=None)


def play_random_game(size: int, players: int, first_index: int, seed: int, plies: int):
    """(first seat, actions in server notation, positions at every ply)."""
    rng = random.Random(seed)
    first = seats_for(players)[first_index % players]
    state = GameState.new(size, players, first)
    positions = [state.to_dict()]
    actions: list[str] = []
    while len(actions) < plies and not state.is_finished:
        steps = state.legal_steps()
        walls = state.legal_walls() if rng.random() < 0.4 else []
        choices = walls or steps
        action = rng.choice(choices)
        state.play(action)
        actions.append(str(action))
        positions.append(state.to_dict())
    return first, actions, positions


@GAMES
@given(
    size=st.sampled_from(SIZES),
    players=st.sampled_from(PLAYER_COUNTS),
    first_index=st.integers(0, 3),
    seed=st.integers(0, 2**32),
    plies=st.integers(0, 80),
)
def test_generated_games_round_trip_at_every_ply(
    size: int, players: int, first_index: int, seed: int, plies: int
) -> None:
    first, actions, positions = play_random_game(size, players, first_index, seed, plies)
    record = Record(size, players, first, list(actions), {"North": "alice", "Result": "*"})
    [read] = parse_records(format_text(record))
    assert read.actions == actions
    assert [state.to_dict() for state in replay(read)] == positions
    from_json = record_from_json(json.loads(json.dumps(format_json(record))))
    assert [state.to_dict() for state in replay(from_json)] == positions


def test_the_record_puts_the_first_mover_on_e1() -> None:
    """A north-first 9x9 game is turned half round: north's e8 is written e2."""
    _, north = seats_for(2)[0], seats_for(2)[0]
    record = Record(9, 2, north, ["e8", "e2", "c3h"])
    text = format_text(record)
    assert text.splitlines()[-1] == "1. e2 e8 2. f6h"
    assert parse_records(text)[0].actions == ["e8", "e2", "c3h"]


def test_several_games_in_one_file_read_back_in_order() -> None:
    first, actions, _ = play_random_game(9, 2, 0, 7, 20)
    one = Record(9, 2, first, actions, {"Game": "1"})
    two = Record(5, 4, seats_for(4)[1], [], {"Game": "2"})
    three = Record(7, 4, seats_for(4)[3], ["a5"], {"Game": "3"})
    read = parse_records(format_records([one, two, three]))
    assert [(r.tags["Game"], r.size, r.players, r.first, r.actions) for r in read] == [
        ("1", 9, 2, first, actions),
        ("2", 5, 4, seats_for(4)[1], []),
        ("3", 7, 4, seats_for(4)[3], ["a5"]),
    ]
