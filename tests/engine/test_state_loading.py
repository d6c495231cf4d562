"""GameState.from_dict refuses data that is no position instead of loading it silently."""

from __future__ import annotations

import json
from typing import Any

import pytest

from corridorquest.engine import GameState, Seat


def _position() -> dict[str, Any]:
    state = GameState.new(9, 2, Seat.NORTH)
    state.play_notation("c3h")
    return state.to_dict()


def test_a_stored_position_loads_back_exactly() -> None:
    data = _position()
    assert GameState.from_dict(data).to_dict() == data


def test_the_stored_text_is_the_compact_json_of_the_position() -> None:
    state = GameState.new(9, 4, Seat.EAST)
    for notation in ("c3h", "e4v", "a1h"):
        state.play_notation(notation)
    state.passes.append((3, Seat.SOUTH))  # a recorded pass is part of the text too
    text = state.to_json()
    assert text == json.dumps(state.to_dict(), separators=(",", ":"))
    assert GameState.from_dict(json.loads(text)).to_dict() == state.to_dict()


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d["pawns"].update(south="e9"), "two pawns on one square"),
        (lambda d: d["pawns"].update(east="i5"), "do not match the seats"),
        (lambda d: d["walls_left"].update(north=-1), "negative walls left"),
        (lambda d: d["walls"].append(["c3v", "south"]), "crosses wall c3h"),
        (lambda d: d["walls"].append(["d3h", "south"]), "overlaps wall c3h"),
        (lambda d: d.update(turn="west"), "no seat of the game"),
        (lambda d: d.pop("ply"), "malformed 'ply'"),
        (
            lambda d: d["walls"].extend([["d1v", "south"], ["e1v", "south"], ["e2h", "south"]]),
            "South has no path",
        ),
    ],
)
def test_corrupt_data_is_refused_with_the_reason(change: Any, reason: str) -> None:
    data = _position()
    data["walls"] = [list(item) for item in data["walls"]]
    change(data)
    with pytest.raises(ValueError, match=reason):
        GameState.from_dict(data)
