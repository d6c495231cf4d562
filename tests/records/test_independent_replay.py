"""A 9x9 two-player export replays in an independent Quoridor library (python-quoridor,
PyPI, MIT: first mover on e1, the same square and wall notation) to the same final
position (issue 31): the orientation rule and the notation agree with other programs."""

from __future__ import annotations

import random

import httpx
import pytest
from quoridor import Quoridor

from corridorquest.engine import GameState, Seat
from corridorquest.records import Record, format_text, parse_records, record_from_json, to_record
from tests.api.mode_helpers import best_step, play_out, start
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user


def their_end(actions: list[str]) -> Quoridor:
    """python-quoridor's game after the record's actions (record orientation)."""
    return Quoridor.init_from_pgn("/".join(actions))


def assert_same_end(record: Record, ours: GameState, theirs: Quoridor) -> None:
    second = Seat.SOUTH if record.first is Seat.NORTH else Seat.NORTH
    pawns = ours.pawns
    assert theirs.player1.pos == to_record(str(pawns[record.first]), 9, record.first)
    assert theirs.player2.pos == to_record(str(pawns[second]), 9, record.first)
    assert sorted(theirs.placed_walls) == sorted(
        to_record(str(wall), 9, record.first) for wall, _ in ours.walls
    )
    assert theirs.player1.walls == ours.walls_left[record.first]
    assert theirs.player2.walls == ours.walls_left[second]
    assert theirs.is_terminated == ours.is_finished


def a_game(seed: int, first: Seat) -> tuple[list[str], GameState]:
    """A 9x9 game: a few random walls and steps, then both run their shortest way (13
    of the 20 seeds below have a jump)."""
    rng = random.Random(seed)
    state = GameState.new(9, 2, first)
    actions = []
    while not state.is_finished and state.ply < 300:
        walls = state.legal_walls() if state.ply < 24 and rng.random() < 0.5 else []
        if walls:
            action = rng.choice(walls)
        elif state.ply < 12:
            action = rng.choice(state.legal_steps())
        else:
            action = best_step(state)
        state.play(action)
        actions.append(str(action))
    return actions, state


@pytest.mark.parametrize("seed", range(20))
def test_generated_games_end_alike_in_python_quoridor(seed: int) -> None:
    first = Seat.NORTH if seed % 2 else Seat.SOUTH
    actions, end = a_game(seed, first)
    [record] = parse_records(format_text(Record(9, 2, first, actions)))
    theirs = their_end([a for a in record.record_actions() if a is not None])
    assert_same_end(record, end, theirs)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    with running_server(tmp_path_factory.mktemp("server")) as running:
        yield running


def test_a_9x9_export_of_the_server_replays_in_python_quoridor(server: RunningServer) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("pqann", "pqbob")}
    with httpx.Client(base_url=server.api, timeout=10.0) as client:
        match = start(client, tokens, size=9)
        play_out(client, match, walls_each=2)
        body = client.get(
            f"/games/{match.id}/record", params={"format": "json"}, headers=auth(tokens["pqann"])
        ).json()
    record = record_from_json(body)
    theirs = their_end(body["actions"])
    assert theirs.is_terminated
    assert_same_end(record, match.mirror, theirs)
