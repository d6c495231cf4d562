"""What the request checks enforce everywhere, declared in the served OpenAPI document.

`api/validation.py` refuses a NUL character in every text of a body, query or path, and
`services/idempotency.py` takes only printable ASCII as an Idempotency-Key. Those rules
hold for every operation, so they are added to the document sanic-ext builds as it is
served, rather than repeated on every pydantic field: every string schema without a
pattern, format or enum of its own gets NO_NUL, the Idempotency-Key header its pattern.
"""

from __future__ import annotations

import functools
from typing import Any

import orjson
from sanic import Request, Sanic
from sanic.response import HTTPResponse, json

from corridorquest.services.idempotency import MAX_KEY_LENGTH

SPEC_PATH = "api-docs/openapi.json"  # as Sanic's router stores it (no leading slash)
NO_NUL = "^[^\\u0000]*$"
IDEMPOTENCY_KEY = "^[ -~]*[!-~][ -~]*$"  # printable ASCII, not only spaces


def declare_text_rules(node: Any) -> None:
    """Add the text rules to every string schema under `node` (in place)."""
    pending = [node]
    while pending:
        item = pending.pop()
        if isinstance(item, list):
            pending.extend(item)
            continue
        if not isinstance(item, dict):
            continue
        if item.get("in") == "header" and item.get("name") == "Idempotency-Key":
            item["schema"] = {
                "type": "string",
                "pattern": IDEMPOTENCY_KEY,
                "maxLength": MAX_KEY_LENGTH,
            }
            continue
        if item.get("type") == "string" and not {"pattern", "format", "enum"} & item.keys():
            item["pattern"] = NO_NUL
        pending.extend(value for value in item.values() if isinstance(value, dict | list))


def install(app: Sanic[Any, Any]) -> None:
    """Serve the OpenAPI document with the text rules declared."""

    @app.before_server_start
    async def declare_on_serving(app: Sanic[Any, Any]) -> None:
        for route in app.router.routes:
            if route.path == SPEC_PATH:
                route.handler = _declaring(route.handler)


def _declaring(handler: Any) -> Any:
    @functools.wraps(handler)
    async def spec(request: Request, *args: Any, **kwargs: Any) -> HTTPResponse:
        response = await handler(request, *args, **kwargs)
        document = orjson.loads(response.body)
        declare_text_rules(document.get("paths", {}))
        declare_text_rules(document.get("components", {}))
        return json(document, status=response.status)

    return spec
