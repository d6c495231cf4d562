"""The server as a whole: `server info`, errors as JSON, OpenAPI and offline Swagger UI."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from tests.support.server import RunningServer, running_server

SETTINGS = {
    "MOTD": "Welcome to the LAN party",
    "ADMIN_EMAIL": "root@cq.example",
    "NTFY_URL": "https://ntfy.cq.example",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("server"), **SETTINGS) as running:
        yield running


def test_server_info_needs_no_login_and_shows_the_settings(client: httpx.Client) -> None:
    response = client.get("/server/info")
    assert response.status_code == 200
    info = response.json()
    assert info["motd"] == SETTINGS["MOTD"]
    assert info["admin_email"] == SETTINGS["ADMIN_EMAIL"]
    assert info["ntfy_url"] == SETTINGS["NTFY_URL"]
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", info["version"])


def test_unknown_routes_and_methods_answer_json_errors(client: httpx.Client) -> None:
    missing = client.get("/no/such/thing")
    assert missing.status_code == 404 and missing.json()["reason"] == "not_found"
    wrong_method = client.put("/server/info")
    assert wrong_method.status_code == 405
    assert wrong_method.json()["reason"] == "method_not_allowed"


def test_openapi_documents_every_api_route_with_schemas_and_errors(
    server: RunningServer,
) -> None:
    spec = httpx.get(server.base_url + "/api-docs/openapi.json").json()
    paths = spec["paths"]
    for path in (
        "/api/v1/server/info",
        "/api/v1/games",
        "/api/v1/games/{game_id}",
        "/api/v1/games/{game_id}/players",
        "/api/v1/games/{game_id}/players/me",
        "/api/v1/games/{game_id}/actions",
    ):
        assert path in paths, f"{path} is not documented"
    schemas = spec["components"]["schemas"]
    for path, operations in paths.items():
        if not path.startswith("/api/v1/"):
            continue
        for method, operation in operations.items():
            responses = operation["responses"]
            ok = [code for code in responses if code.startswith("2")]
            assert ok, f"{method} {path} documents no success answer"
            errors = [code for code in responses if code[0] in "45"]
            assert errors, f"{method} {path} documents no error answer"
            for code in errors:
                ref = responses[code]["content"]["application/json"]["schema"]["$ref"]
                assert ref == "#/components/schemas/ErrorOut"
            for code in ok:  # what a client gets: a content type, never "anything"
                assert "*/*" not in responses[code].get("content", {}), f"{method} {path}"
    answers = {
        "/api/v1/games/{game_id}/board.svg": "image/svg+xml",
        "/api/v1/games/{game_id}/events": "text/event-stream",
        "/api/v1/games/events": "text/event-stream",
        "/api/v1/users/me/events": "text/event-stream",
    }
    for path, media in answers.items():
        assert list(paths[path]["get"]["responses"]["200"]["content"]) == [media], path
    play = paths["/api/v1/games/{game_id}/actions"]["post"]
    body_ref = play["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert schemas[body_ref.rsplit("/", 1)[1]]["properties"]["type"]["enum"] == [
        "move",
        "jump",
        "wall",
    ]
    assert "GameOut" in schemas and "seats" in schemas["GameOut"]["properties"]


def test_swagger_ui_works_offline_from_shipped_assets(server: RunningServer) -> None:
    page = httpx.get(server.base_url + "/api-docs")
    assert page.status_code == 200 and "swagger-ui-bundle.js" in page.text
    external = re.findall(r"""(?:src|href)=["'](https?:)?//""", page.text)
    assert external == [], "the Swagger UI page loads something from another host"
    for asset in re.findall(r"""(?:src|href)="([^"]+)\"""", page.text):
        response = httpx.get(server.base_url + asset)
        small = asset.endswith("/swagger-init.js")  # ours: starts the UI (no inline script)
        assert response.status_code == 200 and len(response.content) > (0 if small else 10_000)
    assert "/api-docs/openapi.json" in page.text


def test_the_server_logs_to_standard_output(server: RunningServer) -> None:
    log = server.log_text()
    assert "Corridor Quest listening on http://127.0.0.1:" in log
    assert "database ready" in log
