"""The ONE place where failures become HTTP answers: JSON {reason, message, ...}.

- `ServiceError` (and subclasses): its status, reason, message and extra fields; the
  store's exceptions that are answers (`services.errors.service_error_for`: the database
  locked by another program for too long -> 503 database_busy) likewise.
- Engine errors that escape a service: NotationError -> 422 invalid_notation,
  IllegalActionError -> 422 illegal_action.
- pydantic `ValidationError` (a body or query that does not fit its model): 400
  bad_request naming the field.
- Sanic's own errors: malformed JSON -> 400 bad_request, unknown route -> 404
  not_found, wrong method -> 405 method_not_allowed (with Allow), too large -> 413, a
  body shorter than its Content-Length -> 408 request_timeout (once the response
  timeout has passed).
- An error whose JSON has `retry_after` (429, 503) also carries a Retry-After header.
- Anything else: logged with its traceback, 500 internal_error (a bug, never bad input).
"""

from __future__ import annotations

import logging
import math
from typing import Any

from pydantic import ValidationError
from sanic import Request, Sanic
from sanic.exceptions import SanicException
from sanic.response import HTTPResponse, json

from corridorquest.engine.errors import IllegalActionError, NotationError
from corridorquest.services.errors import ServiceError, service_error_for

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


def _retry_after(seconds: Any) -> dict[str, str]:
    """The Retry-After header for an answer whose JSON says `retry_after`."""
    if isinstance(seconds, int | float) and seconds > 0:
        return {"Retry-After": str(math.ceil(seconds))}
    return {}


def _body_incomplete(request: Request) -> bool:
    """Whether the client announced more body than it sent (Sanic then waits out its
    response timeout and answers 503; the client is at fault: 408)."""
    stream = getattr(request, "stream", None)
    return bool(getattr(stream, "request_body", None)) and bool(
        getattr(stream, "request_bytes_left", 0)
    )


_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def _allowed_methods(request: Request) -> list[str]:
    """The methods the router accepts for the request's path (Sanic leaves the Allow
    header out when the method is one it does not route at all, such as TRACE)."""
    allowed = []
    for method in _METHODS:
        try:
            request.app.router.get(request.path, method, request.headers.get("host"))
        except SanicException:
            continue
        allowed.append(method)
    return allowed


async def handle_exception(request: Request, exception: Exception) -> HTTPResponse:
    exception = service_error_for(exception) or exception
    if isinstance(exception, ServiceError):
        return json(
            exception.to_json(),
            status=exception.status,
            headers=_retry_after(exception.extra.get("retry_after")),
        )
    if isinstance(exception, NotationError):
        return error_response(422, "invalid_notation", str(exception))
    if isinstance(exception, IllegalActionError):
        return error_response(422, "illegal_action", str(exception))
    if isinstance(exception, ValidationError):
        return error_response(400, "bad_request", describe_validation_error(exception))
    if isinstance(exception, SanicException):
        status = int(getattr(exception, "status_code", 500) or 500)
        if status == 503 and _body_incomplete(request):
            return error_response(
                408, "request_timeout", "the request body did not arrive in full in time"
            )
        if status < 500 or status == 503:
            reason = _SANIC_REASONS.get(status, "bad_request")
            message = str(exception) or reason.replace("_", " ")
            if status == 400 and "json" in message.lower():
                message = "the request body is not valid JSON"
            response = error_response(status, reason, message)
            # Allow on a 405, and whatever else Sanic's error carries for the client.
            response.headers.update(getattr(exception, "headers", None) or {})
            if status == 405 and "allow" not in response.headers:
                response.headers["Allow"] = ", ".join(_allowed_methods(request))
            return response
    log.error("unhandled error on %s %s", request.method, request.path, exc_info=exception)
    return error_response(500, "internal_error", "internal server error (logged)")


def install_error_handler(app: Sanic[Any, Any]) -> None:
    app.error_handler.add(Exception, handle_exception)
