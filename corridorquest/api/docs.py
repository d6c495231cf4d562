"""OpenAPI helpers: one decorator documents an endpoint's body, answers and errors."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeVar

from pydantic import BaseModel
from sanic_ext import openapi
from sanic_ext.extensions.openapi.builders import OperationStore
from sanic_ext.extensions.openapi.definitions import RequestBody
from sanic_ext.extensions.openapi.types import Schema

from corridorquest.api.schemas import ErrorOut

F = TypeVar("F", bound=Callable[..., Any])

_ERROR_TEXT = {
    400: "malformed body or query (bad_request)",
    401: "not logged in (unauthenticated, session_expired)",
    403: "not allowed",
    404: "not found",
    409: "conflict with the current state",
    422: "a value that parses but is not acceptable",
    429: "rate limited (retry_after, Retry-After)",
    503: "busy for now: try again (retry_after, Retry-After)",
}


def schema_ref(model: type[BaseModel]) -> dict[str, Any]:
    """Register `model` as a component (its pydantic JSON schema) and refer to it."""
    _register(model)
    return {"schema": {"$ref": f"#/components/schemas/{model.__name__}"}}


@functools.cache
def _register(model: type[BaseModel]) -> None:
    """Once per model: sanic-ext works out a definition's fields from its class's type
    hints every time one is made (about 0.5 ms each), and the endpoints refer to the same
    few models hundreds of times (ErrorOut on every error answer) at every start."""
    openapi.component(model)


def documented(
    summary: str,
    *,
    tag: str,
    ok: tuple[int, type[BaseModel] | None],
    body: type[BaseModel] | None = None,
    errors: Sequence[int] = (),
    secured: bool | Literal["optional"] = True,
    description: str | None = None,
    media: tuple[str, str] | None = None,
) -> Callable[[F], F]:
    """Document an endpoint: summary, request body model, success and error answers.

    `media`: (content type, what it is) of a success answer that is not JSON (a picture,
    an event stream); without it and without a model the success answer has no body.
    `secured="optional"`: a login is not needed but counts when given (watching a public
    game: WEB_WATCH_WITHOUT_LOGIN); a bad token is still a 401. A body whose model has no
    required field may be left out (`parse_body` reads an empty body as `{}`).
    """
    status, model = ok
    content: dict[str, Any] = {}  # no body (None would document one of any type)
    text = "success"
    if model is not None:
        content = {"application/json": schema_ref(model)}
    if media is not None:  # (with a model too: either, as the query asks)
        content[media[0]] = {"schema": {"type": "string"}}
        text = media[1]
    # (plain dicts: sanic-ext makes its own Response of each; one made here first would
    # cost as much again at every start)
    responses = [{"content": content, "status": status, "description": text}]
    codes = sorted(set(errors) | ({400, 401} if secured else {400}))
    for code in codes:
        responses.append(
            {
                "content": {"application/json": schema_ref(ErrorOut)},
                "status": code,
                "description": _ERROR_TEXT.get(code, "error"),
            }
        )
    kwargs: dict[str, Any] = {
        "summary": summary,
        "tag": tag,
        "response": responses,
        "description": description or summary,
    }
    if body is not None:
        required = bool(body.model_json_schema().get("required"))
        kwargs["body"] = RequestBody({"application/json": schema_ref(body)}, required=required)
    if secured:
        kwargs["secured"] = {"token": []}
    define = openapi.definition(**kwargs)

    def decorate(handler: F) -> F:
        handler = _unwrapped(define(handler), handler)
        if secured == "optional":  # security: [{"token": []}, {}]: the token, or nothing
            handler = openapi.secured({})(handler)
        return handler

    return decorate


def _unwrapped(documented_handler: F, handler: F) -> F:
    """`handler` itself, carrying the documentation sanic-ext gave its wrapper.

    With a request body, sanic-ext wraps the handler in a coroutine that validates the body
    only when asked to (we validate with `parse_body`) and otherwise just calls it: one
    more coroutine on every request. The documentation lives in `OperationStore` under the
    wrapper; it moves to the handler, which is what the route then serves.
    """
    if getattr(documented_handler, "__wrapped__", None) is not handler:
        return documented_handler  # not wrapped (no body), or not by that wrapper
    store = OperationStore()
    if documented_handler in store:
        store[handler] = store.pop(documented_handler)
    return handler


# The JSON-schema keywords of a query field that the OpenAPI parameter carries.
_PARAMETER_KEYWORDS = ("type", "minimum", "maximum", "minLength", "maxLength", "pattern", "enum")


def query_parameters(model: type[BaseModel]) -> Callable[[F], F]:
    """Document every field of the query model `model` (the one `parse_query` reads) as a
    query parameter, with its type, bounds and description: one source for both."""
    schema = model.model_json_schema()
    required = set(schema.get("required", ()))
    parameters = []
    for name, field in schema["properties"].items():
        # `X | None` fields: a query parameter is left out rather than sent as null.
        choices = [c for c in field.get("anyOf", [field]) if c.get("type") != "null"]
        keywords = {
            k: v
            for source in (choices[0], field)
            for k, v in source.items()
            if k in _PARAMETER_KEYWORDS
        }
        parameters.append(
            openapi.parameter(
                name,
                Schema(**keywords),
                "query",
                description=field.get("description"),
                required=name in required,
            )
        )

    def decorate(handler: F) -> F:
        for parameter in parameters:
            handler = parameter(handler)
        return handler

    return decorate
