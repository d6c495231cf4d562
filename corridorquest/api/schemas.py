"""Response and request models shared by every blueprint (also the OpenAPI schemas)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class ErrorOut(BaseModel):
    """Every error answer: a stable machine-readable reason and a human message."""

    model_config = ConfigDict(extra="allow")
    reason: str
    message: str


class ServerInfoOut(BaseModel):
    version: str
    motd: str | None
    admin_email: str
    ntfy_url: str | None
    public_url: str | None = None
