"""services.last_commit.positions: a cached position is exactly the parsed one, never shared."""

from __future__ import annotations

import json

import pytest

from corridorquest.engine import GameState, Seat
from corridorquest.services.last_commit import positions as state_cache

pytestmark = pytest.mark.backend_neutral  # no database


def _position() -> GameState:
    state = GameState.new(size=9, players=2, first=Seat.NORTH)
    state.play_notation("e8", "move")  # north starts on e9
    state.play_notation("c3h", "wall")
    return state


def test_encode_then_parse_gives_the_same_position_as_parsing_afresh() -> None:
    text = state_cache.encode(_position())
    cached = state_cache.parse(text)
    fresh = GameState.from_dict(json.loads(text))
    assert cached.to_dict() == fresh.to_dict() == json.loads(text)
    assert cached.legal_actions() == fresh.legal_actions()


def test_a_parsed_position_is_a_copy_that_the_caller_may_change() -> None:
    text = state_cache.encode(_position())
    first = state_cache.parse(text)
    first.play_notation("e7", "move")
    again = state_cache.parse(text)
    assert again.to_dict() == json.loads(text)
    assert again.to_dict() != first.to_dict()


def test_distances_stay_those_of_the_stored_position_when_its_writer_plays_on() -> None:
    """The cached position learns the distances its writer works out after storing it;
    what its writer works out for later positions never changes the stored one's."""
    state = _position()
    text = state_cache.encode(state)
    fresh = GameState.from_dict(json.loads(text))
    expected = {seat: fresh.distance(seat) for seat in fresh.seats}
    assert {seat: state.distance(seat) for seat in state.seats} == expected  # the answer
    state.play_notation("e7", "move")  # the writer plays on: north steps, and south
    state.play_notation("e1h", "wall")  # walls its own way: it is longer
    assert state.distance(Seat.SOUTH) != expected[Seat.SOUTH]
    cached = state_cache.parse(text)
    assert {seat: cached.distance(seat) for seat in cached.seats} == expected


def test_text_that_is_not_a_position_is_refused_every_time() -> None:
    for _ in range(2):
        with pytest.raises(ValueError):
            state_cache.parse('{"size": 9}')


def test_the_cache_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state_cache, "MAX_ENTRIES", 3)
    state = GameState.new(size=9, players=2, first=Seat.NORTH)
    for step in ("e8", "e2", "e7", "e3", "e6"):
        state.play_notation(step, "move")
        state_cache.encode(state)
    assert len(state_cache._cache) <= 3
