"""Server-wide facts and values: `server info`, MOTD and message limit overrides."""

from __future__ import annotations

from typing import Any

from corridorquest import __version__
from corridorquest.services.context import ServiceContext
from corridorquest.store.models import ServerValue


def _value(key: str) -> str | None:
    row = ServerValue.get_or_none(ServerValue.key == key)
    return None if row is None else str(row.value)


def get_value(key: str) -> str | None:
    """A run-time value set by an administrator (inside a transaction), or None."""
    return _value(key)


async def server_info(ctx: ServiceContext) -> dict[str, Any]:
    motd = await ctx.store.transaction(_value, "motd")
    return {
        "version": __version__,
        "motd": motd if motd is not None else ctx.settings.motd,
        "admin_email": ctx.settings.admin_email,
        "ntfy_url": ctx.settings.ntfy_url,
        "public_url": ctx.settings.public_url,  # join links and QR codes (cq game show --qr)
    }
