"""What the served OpenAPI document declares (issue 25, item 26): the constraints the
server enforces, the event streams, and watching without a login.

The schemathesis run (tests/api/test_openapi_schemathesis.py, slow) checks the server
against the document; these fast checks read the document itself, including the live
streams that the run leaves out because they never end.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.support.games import started_game
from tests.support.server import RunningServer
from tests.support.users import insert_user

pytestmark = pytest.mark.backend_neutral  # the OpenAPI document's text

OPTIONAL_LOGIN = [{"token": []}, {}]
WATCHING = [
    ("get", "/api/v1/games/{game_id}/events"),
    ("get", "/api/v1/games/events"),
    ("get", "/api/v1/games/{game_id}/board.svg"),
    ("get", "/api/v1/leaderboards"),
    ("get", "/api/v1/users/{username}/highscores"),
]
STREAMS = ["/api/v1/games/{game_id}/events", "/api/v1/games/events", "/api/v1/users/me/events"]


@pytest.fixture(scope="module")
def document(server: RunningServer) -> dict[str, Any]:
    answer = httpx.get(server.base_url + "/api-docs/openapi.json", timeout=10)
    assert answer.status_code == 200
    found: dict[str, Any] = answer.json()
    return found


def _field(document: dict[str, Any], model: str, name: str) -> dict[str, Any]:
    field: dict[str, Any] = document["components"]["schemas"][model]["properties"][name]
    return field


def test_watching_declares_the_login_optional_and_it_is(
    document: dict[str, Any], server: RunningServer, client: httpx.Client
) -> None:
    for method, path in WATCHING:
        assert document["paths"][path][method]["security"] == OPTIONAL_LOGIN, path
    assert document["paths"]["/api/v1/users/me/events"]["get"]["security"] == [{"token": []}]
    tokens = {name: insert_user(server.database_url, name) for name in ("oa", "ob")}
    game = started_game(client, tokens)
    board = httpx.get(f"{server.api}/games/{game['id']}/board.svg", timeout=10)
    assert board.status_code == 200  # no login, as declared
    with httpx.stream("GET", f"{server.api}/games/{game['id']}/events", timeout=10) as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("text/event-stream")


def test_streams_are_declared_as_event_streams(document: dict[str, Any]) -> None:
    for path in STREAMS:
        answers = document["paths"][path]["get"]["responses"]
        assert list(answers["200"]["content"]) == ["text/event-stream"], path
        assert "429" in answers, path  # too many streams


def test_the_checks_of_the_fields_are_declared(document: dict[str, Any]) -> None:
    username = _field(document, "SignupIn", "username")
    assert username["maxLength"] == 10
    assert re.search(username["pattern"], "alice_1") and not re.search(username["pattern"], "1a")
    password = _field(document, "SignupIn", "password")
    assert (password["minLength"], password["maxLength"]) == (8, 256)
    description = _field(document, "UserPatchIn", "description")
    assert description["maxLength"] == 50
    assert re.search(description["pattern"], "likes walls")
    assert not re.search(description["pattern"], "zero\u200bwidth")
    assert _field(document, "NewGameIn", "players")["enum"] == [2, 4]
    assert _field(document, "NewGameIn", "size")["enum"] == [5, 7, 9, 11, 13, 15, 17]
    topic = _field(document, "SignupIn", "ntfy_dm_topic")["pattern"]
    assert re.search(topic, "") and re.search(topic, "a" * 11) and not re.search(topic, "a" * 10)


def test_a_body_with_no_required_field_may_be_left_out(
    document: dict[str, Any], server: RunningServer, client: httpx.Client
) -> None:
    assert document["paths"]["/api/v1/games"]["post"]["requestBody"]["required"] is False
    assert document["paths"]["/api/v1/users"]["post"]["requestBody"]["required"] is True
    token = insert_user(server.database_url, "nobody1")
    created = client.post("/games", headers={"Authorization": f"Bearer {token}"})
    assert created.status_code == 201, created.text


def test_a_value_of_another_json_type_is_refused(
    server: RunningServer, client: httpx.Client
) -> None:
    """The document says boolean and integer: 0 and "2" are not (before, they were
    converted and the game created)."""
    token = insert_user(server.database_url, "strict1")
    headers = {"Authorization": f"Bearer {token}"}
    for body in ({"invite": 0}, {"players": "2"}, {"size": 9.0}, {"private": "true"}):
        answer = client.post("/games", json=body, headers=headers)
        assert answer.status_code == 400, (body, answer.text)
        assert answer.json()["reason"] == "bad_request"
    assert client.get("/games", params={"user": "strict1"}, headers=headers).json()["games"] == []
