"""Text from the server cannot act on the terminal: control characters are shown escaped."""

from __future__ import annotations

import pytest

from client.safe_text import visible, visible_json

pytestmark = pytest.mark.backend_neutral  # no database: terminal escaping


def test_control_characters_are_shown_as_escapes() -> None:
    assert visible("\x7f\x01\x1b[31m") == "\\x7f\\x01\\x1b[31m"
    assert visible("over\rwrite") == "over\\x0dwrite"
    assert visible("two\nlines") == "two\\x0alines"
    assert visible("c1 \x9b31m") == "c1 \\x9b31m"
    assert visible("abc\u202edcba") == "abc\\u202edcba"


def test_ordinary_text_is_untouched() -> None:
    text = "gg 👍 — à bientôt, ünïcödé"
    assert visible(text) == text


def test_every_string_of_an_answer_is_made_visible() -> None:
    answer = {"messages": [{"from": "e\x1bve", "text": "\x1b]0;pwned\x07"}], "n\x1b": 1}
    assert visible_json(answer) == {
        "messages": [{"from": "e\\x1bve", "text": "\\x1b]0;pwned\\x07"}],
        "n\\x1b": 1,
    }
