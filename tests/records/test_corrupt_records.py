"""Corrupt records give a clear error with a machine-readable reason (issue 31)."""

from __future__ import annotations

import pytest

from corridorquest.records import MAX_RECORD_CHARS, RecordError, parse_records, replay


def error_of(text: str) -> RecordError:
    with pytest.raises(RecordError) as caught:
        for record in parse_records(text):
            replay(record)
    return caught.value


def test_an_illegal_action_is_named_with_its_number_and_the_reason() -> None:
    error = error_of('[Size "9"]\n1. e2 e8 2. e3 e7 3. e4 e6 4. e5 e5')
    assert (error.reason, error.action) == ("illegal_action", 8)
    assert "action 8" in str(error) and "e5" in str(error) and "occupied" in str(error)


def test_an_unknown_tag() -> None:
    error = error_of('[Size "9"]\n[Colour "blue"]\n1. e2')
    assert (error.reason, error.line) == ("unknown_tag", 2)


def test_a_truncated_tag_line() -> None:
    error = error_of('[Size "9"]\n[Date "2026.11')
    assert (error.reason, error.line) == ("bad_tag", 2)


def test_a_truncated_action() -> None:
    error = error_of('[Size "9"]\n1. e2 e8 2. e')
    assert (error.reason, error.action, error.line) == ("bad_notation", 3, 2)


def test_a_wall_off_the_board() -> None:
    error = error_of('[Size "5"]\n1. e2 d4h 2. d2h e4h')
    assert (error.reason, error.action) == ("bad_notation", 4)
    assert "does not fit" in str(error)


def test_ten_megabytes_of_text() -> None:
    error = error_of("e2 " * (10_000_000 // 3))
    assert error.reason == "too_long"
    assert len("x" * MAX_RECORD_CHARS) == MAX_RECORD_CHARS


def test_plain_movetext_needs_a_size_tag() -> None:
    assert error_of("1. e2 e8").reason == "missing_size"


def test_a_move_number_out_of_place() -> None:
    error = error_of('[Size "9"]\n1. e2 e8 3. e3 e7')
    assert (error.reason, error.line) == ("bad_move_number", 2)


def test_a_hidden_action_does_not_replay() -> None:
    assert error_of('[Size "9"]\n1. e2 ?').reason == "hidden_action"


def test_nothing_at_all() -> None:
    assert error_of("\n\n").reason == "empty"
