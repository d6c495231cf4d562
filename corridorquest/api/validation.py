"""Parse request bodies and query strings into pydantic models (errors: 400 bad_request).

Text containing NUL characters is refused here (400): no name, notation or code has
one, and PostgreSQL cannot store it.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel
from sanic import Request

from corridorquest.services.errors import BadRequest

M = TypeVar("M", bound=BaseModel)


def _refuse_nul(value: Any) -> None:
    if isinstance(value, str):
        if "\x00" in value:
            raise BadRequest("bad_request", "text must not contain NUL characters")
    elif isinstance(value, dict):
        for key, item in value.items():
            _refuse_nul(key)
            _refuse_nul(item)
    elif isinstance(value, list):
        for item in value:
            _refuse_nul(item)


def parse_body(request: Request, model: type[M]) -> M:
    """The JSON body as `model`; an empty body counts as `{}`."""
    data = request.json if request.body else {}
    if not isinstance(data, dict):
        raise BadRequest("bad_request", "the request body must be a JSON object")
    _refuse_nul(data)
    return model.model_validate(data)


def parse_query(request: Request, model: type[M]) -> M:
    """Query parameters as `model` (the last value of a repeated parameter wins)."""
    data = {key: values[-1] for key, values in request.args.items()}
    _refuse_nul(data)
    return model.model_validate(data)


def check_text(*values: str | None) -> None:
    """400 for path parameters or headers with NUL characters."""
    for value in values:
        _refuse_nul(value)
