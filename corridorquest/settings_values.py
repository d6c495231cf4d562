"""How the text of a setting becomes its value, where pydantic alone would not do it.

Durations accept seconds (`90`) or a number with a unit: `s`, `m`, `h`, `d`, `w` (`30m`,
`2d`); a few settings take fractions of a second (`2.5`, `500ms`); PUBLIC_URL is a base
URL. Each parser raises ValueError with the message the server prints, and lets other
types (numbers given in code) pass through to pydantic.
"""

from __future__ import annotations

import re
from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import BeforeValidator, Field

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_DURATION = re.compile(r"^\s*(\d+)\s*([smhdw]?)\s*$", re.IGNORECASE)


def parse_duration(value: Any) -> Any:
    """`"90"`, `"30m"`, `"2d"` -> seconds; other types pass through to pydantic."""
    if isinstance(value, str):
        match = _DURATION.match(value)
        if not match:
            raise ValueError(f"{value!r} is not a duration (examples: 90, 30m, 12h, 2d)")
        return int(match.group(1)) * _UNITS[(match.group(2) or "s").lower()]
    return value


Seconds = Annotated[int, BeforeValidator(parse_duration), Field(ge=1)]

_FRACTIONAL = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(ms|s)?\s*$", re.IGNORECASE)


def parse_fractional_seconds(value: Any) -> Any:
    """`"2.5"`, `"2.5s"`, `"500ms"` -> seconds as a float; other types pass through."""
    if isinstance(value, str):
        match = _FRACTIONAL.match(value)
        if not match:
            raise ValueError(f"{value!r} is not a number of seconds (examples: 5, 2.5, 500ms)")
        number = float(match.group(1))
        return number / 1000 if (match.group(2) or "").lower() == "ms" else number
    return value


FractionalSeconds = Annotated[float, BeforeValidator(parse_fractional_seconds)]


def lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def parse_public_url(value: Any) -> Any:
    """`https://cq.example.org/` -> `https://cq.example.org` (http or https, a host, an
    optional path; no query or fragment)."""
    if isinstance(value, str):
        text = value.strip().rstrip("/")
        parts = urlsplit(text)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"{value!r} is not an http:// or https:// URL with a host")
        if parts.query or parts.fragment or "@" in parts.netloc:
            raise ValueError(f"{value!r}: give the server's base URL, without ?, # or a login")
        if not text.isascii() or any(c.isspace() for c in text):
            raise ValueError(f"{value!r}: write it in ASCII (punycode, %-escapes), no spaces")
        return text
    return value


PublicUrl = Annotated[str | None, BeforeValidator(parse_public_url)]
