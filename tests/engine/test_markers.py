"""Markers: notation, bounds, and the edges a wall covers."""

from __future__ import annotations

import pytest

from corridorquest.engine import (
    Marker,
    NotationError,
    format_marker,
    is_under,
    markers_under,
    parse_marker,
    parse_wall,
)


def test_a_vertical_marker_is_the_edge_east_of_its_square() -> None:
    assert parse_marker("e4v", 9) == Marker(4, 3, "v")
    assert format_marker(Marker(4, 3, "v")) == "e4v"


def test_a_horizontal_marker_is_the_edge_north_of_its_square() -> None:
    assert parse_marker(" E4H ", 9) == Marker(4, 3, "h")
    assert str(parse_marker("a1h", 5)) == "a1h"


@pytest.mark.parametrize(
    ("text", "size", "says"),
    [
        ("e5v", 5, "east edge"),
        ("a5h", 5, "north edge"),
        ("f1v", 5, "not a square on a 5x5"),
        ("e4", 9, "not a marker"),
        ("e4x", 9, "not a marker"),
        ("", 9, "not a marker"),
    ],
)
def test_markers_off_the_board_or_malformed_are_refused(text: str, size: int, says: str) -> None:
    with pytest.raises(NotationError, match=says):
        parse_marker(text, size)


def test_the_last_edges_inside_the_board_are_markers() -> None:
    assert parse_marker("d5v", 5) == Marker(3, 4, "v")
    assert parse_marker("e4h", 5) == Marker(4, 3, "h")


def test_a_vertical_wall_covers_two_stacked_vertical_edges() -> None:
    assert [str(m) for m in markers_under(parse_wall("c3v", 9))] == ["c3v", "c4v"]


def test_a_horizontal_wall_covers_two_side_by_side_horizontal_edges() -> None:
    assert [str(m) for m in markers_under(parse_wall("c3h", 9))] == ["c3h", "d3h"]


def test_is_under_tells_markers_covered_by_any_of_the_walls() -> None:
    walls = [parse_wall("c3v", 9), parse_wall("e5h", 9)]
    assert is_under(parse_marker("c4v", 9), walls)
    assert is_under(parse_marker("f5h", 9), walls)
    assert not is_under(parse_marker("c5v", 9), walls)
    assert not is_under(parse_marker("c3h", 9), walls)
