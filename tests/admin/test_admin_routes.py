"""Every route under /api/v1/admin refuses anonymous callers (401) and players (403
`not_admin`): walked from the served OpenAPI document, so a new admin route that forgets
the check fails here."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from tests.admin.admin_support import ADMIN, PLAYER
from tests.support.server import RunningServer
from tests.test_docs_api import served_endpoints

pytestmark = pytest.mark.backend_neutral  # refusals before any write: 401/403 on every route

PARAMETER = re.compile(r"\{([^}]+)\}")
VALUES = {"username": "someone", "game_id": "1"}


def admin_operations(server: RunningServer) -> list[tuple[str, str]]:
    spec = httpx.get(server.base_url + "/api-docs/openapi.json", timeout=10.0).json()
    return sorted(
        (method.upper(), path)
        for path, operations in spec["paths"].items()
        if path.startswith("/api/v1/admin")
        for method in operations
        if method in ("get", "post", "put", "patch", "delete")
    )


def concrete(path: str) -> str:
    return PARAMETER.sub(lambda match: VALUES[match.group(1)], path)


def test_the_spec_lists_every_admin_route_the_server_serves(
    server: RunningServer, tmp_path: Path
) -> None:
    in_spec = {
        (method, re.sub(r"\{[^}]*\}", "{}", path).removeprefix("/api/v1"))
        for method, path in admin_operations(server)
    }
    served = {(m, p) for m, p in served_endpoints(tmp_path) if p.startswith("/admin")}
    assert len(served) >= 20
    assert served == in_spec


def test_every_admin_route_refuses_anonymous_callers_and_players(
    server: RunningServer, tokens: dict[str, str]
) -> None:
    operations = admin_operations(server)
    assert ("DELETE", "/api/v1/admin/users/{username}") in operations
    with httpx.Client(base_url=server.base_url, timeout=10.0) as client:
        for method, path in operations:
            url = concrete(path)
            body: dict[str, str] | None = {} if method in ("POST", "PUT", "PATCH") else None
            anonymous = client.request(method, url, json=body)
            assert anonymous.status_code == 401, (method, path, anonymous.text)
            as_player = client.request(
                method, url, json=body, headers={"Authorization": f"Bearer {tokens[PLAYER]}"}
            )
            assert as_player.status_code == 403, (method, path, as_player.text)
            assert as_player.json()["reason"] == "not_admin", (method, path)
            # ... and the spec says so
        spec = client.get("/api-docs/openapi.json").json()
    for method, path in operations:
        responses = spec["paths"][path][method.lower()]["responses"]
        assert {"401", "403"} <= set(responses), (method, path)
    assert tokens[ADMIN]
