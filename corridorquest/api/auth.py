"""`Authorization: Bearer <token>` -> the current user (401 otherwise)."""

from __future__ import annotations

from sanic import Request

from corridorquest.services.auth import CurrentUser, authenticate
from corridorquest.services.context import ServiceContext


def services(request: Request) -> ServiceContext:
    ctx: ServiceContext = request.app.ctx.services
    return ctx


def bearer_token(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer":
        return ""
    return token.strip()


async def require_user(request: Request) -> CurrentUser:
    """The logged-in caller; raises Unauthenticated (401) without a valid session."""
    user: CurrentUser | None = vars(request.ctx).get("user")  # getattr would raise inside
    if user is None:
        user = await authenticate(services(request), bearer_token(request))
        request.ctx.user = user
    return user


async def optional_user(request: Request) -> CurrentUser | None:
    """The caller when a token is sent (a bad token is still a 401), else None."""
    if not request.headers.get("authorization"):
        return None
    return await require_user(request)
