"""api.json_encoding: every response body is the JSON of its value, whatever orjson refuses."""

from __future__ import annotations

import json

from corridorquest.json_encoding import dumps


def test_a_view_encodes_to_its_json() -> None:
    value = {"username": "zoë", "walls": [{"wall": "c3h", "owner": None}], "ok": True}
    assert json.loads(dumps(value)) == value


def test_integers_beyond_64_bits_and_keys_that_are_not_text_still_encode() -> None:
    big = {"input": 2**70, "scores": {7: 3}}
    assert json.loads(dumps(big)) == {"input": 2**70, "scores": {"7": 3}}
    assert json.loads(dumps({"n": -(2**64) - 1})) == {"n": -(2**64) - 1}


def test_keys_that_are_not_text_become_text_as_the_standard_library_makes_them() -> None:
    value = {"scores": {7: 3, 8: None}, "seat": "north"}
    assert json.loads(dumps(value)) == json.loads(json.dumps(value))
    assert dumps(value) == b'{"scores":{"7":3,"8":null},"seat":"north"}'


def test_options_go_to_the_standard_library() -> None:
    assert dumps({"b": 1, "a": 2}, sort_keys=True) == '{"a":2,"b":1}'
