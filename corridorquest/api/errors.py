"""The ONE place where failures become HTTP answers: JSON {reason, message, ...}.

- `ServiceError` (and subclasses): its status, reason, message and extra fields.
- Engine errors that escape a service: NotationError -> 422 invalid_notation,
  IllegalActionError -> 422 illegal_action.
- pydantic `ValidationError` (a body or query that does not fit its model): 400
  bad_request naming the field.
- Sanic's own errors: malformed JSON -> 400 bad_request, unknown route -> 404
  not_found, wrong method -> 405 method_not_allowed, too large -> 413.
- Anything else: logged with its traceback, 500 internal_error (a bug, never bad input).
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import ValidationError
from sanic import Request, Sanic
from sanic.exceptions import SanicException
from sanic.response import HTTPResponse, json

from corridorquest.engine.errors import IllegalActionError, NotationError
from corridorquest.services.errors import ServiceError

log = logging.getLogger("corridorquest.api")

_SANIC_REASONS = {
    400: "bad_request",
    401: "unauthenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    408: "request_timeout",
    413: "payload_too_large",
    416: "range_not_satisfiable",
    503: "unavailable",
}


def error_response(status: int, reason: str, message: str, **extra: Any) -> HTTPResponse:
    return json({"reason": reason, "message": message, **extra}, status=status)


def describe_validation_error(error: ValidationError) -> str:
    problems = []
    for item in error.errors()[:3]:
        where = ".".join(str(part) for part in item["loc"]) or "body"
        problems.append(f"{where}: {item['msg']}")
    return "; ".join(problems)


async def handle_exception(request: Request, exception: Exception) -> HTTPResponse:
    if isinstance(exception, ServiceError):
        return json(exception.to_json(), status=exception.status)
    if isinstance(exception, NotationError):
        return error_response(422, "invalid_notation", str(exception))
    if isinstance(exception, IllegalActionError):
        return error_response(422, "illegal_action", str(exception))
    if isinstance(exception, ValidationError):
        return error_response(400, "bad_request", describe_validation_error(exception))
    if isinstance(exception, SanicException):
        status = int(getattr(exception, "status_code", 500) or 500)
        if status < 500 or status == 503:
            reason = _SANIC_REASONS.get(status, "bad_request")
            message = str(exception) or reason.replace("_", " ")
            if status == 400 and "json" in message.lower():
                message = "the request body is not valid JSON"
            return error_response(status, reason, message)
    log.error("unhandled error on %s %s", request.method, request.path, exc_info=exception)
    return error_response(500, "internal_error", "internal server error (logged)")


def install_error_handler(app: Sanic[Any, Any]) -> None:
    app.error_handler.add(Exception, handle_exception)
