"""The JSON encoder of every response: orjson, and the standard library where it refuses.

A move's answer (the game view) is the largest thing the server encodes on every request:
orjson writes it several times faster than Sanic's default (ujson), which was about a
twentieth of the server's instructions per move. The output is UTF-8 JSON either way
(orjson does not escape non-ASCII characters, ujson did: both are the same JSON text to a
parser). orjson refuses integers beyond 64 bits (a client may send one, and an error may
echo it back); those answers go through `json.dumps`, so nothing that encoded before
fails now. A dict key that is not text (rare) is encoded as text, as `json.dumps` does,
by orjson's OPT_NON_STR_KEYS: an answer is tried without that option first, which
encodes a move's answer in about half the time.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS  # keys that are not text become text, as json.dumps does


def dumps(value: Any, **options: Any) -> bytes | str:
    """`value` as JSON (bytes from orjson, str from the standard library)."""
    if not options:
        try:
            return orjson.dumps(value)
        except TypeError:  # orjson.JSONEncodeError: a key that is not text, ...
            pass
        try:
            return orjson.dumps(value, option=_OPTIONS)
        except TypeError:  # an integer beyond 64 bits, ...
            pass
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), **options)
