"""Parse request bodies and query strings into pydantic models (errors: 400 bad_request).

Text containing NUL characters is refused here (400): no name, notation or code has
one, and PostgreSQL cannot store it. So is a body nested deeper than `MAX_DEPTH` (no
request of the API nests more than a few levels) and header text that is not printable
ASCII where the API expects a token or key. A body's values must have the JSON types the
OpenAPI document gives them (strict validation); a query's are text, converted (an
empty one too: `?at=` is not a number).
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel
from sanic import Request

from corridorquest.services.errors import BadRequest

M = TypeVar("M", bound=BaseModel)


MAX_DEPTH = 16


def _refuse_nul(value: Any) -> None:
    """400 for a NUL character anywhere in `value`, or for nesting beyond MAX_DEPTH
    (walked without recursion, so no depth can exhaust the stack)."""
    pending: list[tuple[Any, int]] = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise BadRequest("bad_request", "text must not contain NUL characters")
        elif isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                raise BadRequest(
                    "bad_request", f"the JSON is nested more than {MAX_DEPTH} levels deep"
                )
            if isinstance(item, dict):
                pending.extend((key, depth + 1) for key in item)
                pending.extend((child, depth + 1) for child in item.values())
            else:
                pending.extend((child, depth + 1) for child in item)


def _plainly_allowed(body: bytes) -> bool:
    """Whether the JSON text `body` can hold neither a NUL nor nesting beyond MAX_DEPTH,
    seen from its bytes alone (most bodies: then the walk of `_refuse_nul` is not needed).
    JSON writes a NUL as the escape `\\u0000` or, invalidly, raw (and UTF-16 or UTF-32
    text has zero bytes anyway); nesting deeper than MAX_DEPTH needs more than MAX_DEPTH
    brackets. A bracket or an escape inside a string only sends the body to the walk."""
    return (
        b"\x00" not in body
        and b"\\u0000" not in body
        and body.count(b"{") + body.count(b"[") <= MAX_DEPTH
    )


def parse_body(request: Request, model: type[M]) -> M:
    """The JSON body as `model`; an empty body counts as `{}`. Strictly: a value of another
    JSON type than the field's (`0` for a boolean, `"2"` or `2.0` for an integer) is a 400,
    as the OpenAPI document says, rather than a value converted."""
    data = request.json if request.body else {}
    if not isinstance(data, dict):
        raise BadRequest("bad_request", "the request body must be a JSON object")
    if not _plainly_allowed(request.body):
        _refuse_nul(data)
    return model.model_validate(data, strict=True)


def parse_query(request: Request, model: type[M]) -> M:
    """Query parameters as `model` (the last value of a repeated parameter wins). A
    parameter given empty (`?caption=`) is the empty text, checked like any other value
    (400 where the document says a boolean or a number), not a parameter left out as
    Sanic's `request.args` would have it."""
    arguments = request.get_args(keep_blank_values=True)
    data = {key: values[-1] for key, values in arguments.items()}
    _refuse_nul(data)
    return model.model_validate(data)


def check_text(*values: str | None) -> None:
    """400 for path parameters or headers with NUL characters."""
    for value in values:
        _refuse_nul(value)


def is_printable_ascii(value: str) -> bool:
    """Whether `value` is printable ASCII (tokens, keys and addresses are; a header sent
    with raw bytes reaches us as surrogate escapes, which are not)."""
    return value.isascii() and value.isprintable()
