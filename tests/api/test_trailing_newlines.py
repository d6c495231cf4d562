"""A value with a trailing newline is not a valid username or ntfy topic.

The patterns of security/policy.py were used with `re.match` and ended in `$`, which also
matches before a final "\\n": "bob\\n" was taken as a username (a second "bob" as far as
the eye can tell, and a line break in every text that names him) and a DM topic ending
in "\\n" was stored. Each is now refused with 422 and changes nothing.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.support.server import RunningServer
from tests.support.users import DEFAULT_PASSWORD, auth, insert_user, mails_to

pytestmark = pytest.mark.backend_neutral  # text checks (security/policy.py), refused at once

TOPIC = "a_secret_dm_topic_42"


def me(client: httpx.Client, token: str) -> dict[str, Any]:
    response = client.get("/users/me", headers=auth(token))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def assert_refused(response: httpx.Response, reason: str) -> None:
    assert response.status_code == 422, response.text
    assert response.json()["reason"] == reason, response.text


def test_a_signup_with_a_username_ending_in_a_newline_is_refused(
    server: RunningServer, client: httpx.Client
) -> None:
    for name in ("bob\n", "bob\r\n", "\nbob", "bo\nb"):
        answer = client.post(
            "/users",
            json={"username": name, "email": "bob@example.test", "password": DEFAULT_PASSWORD},
        )
        assert_refused(answer, "invalid_username")
    # nothing was created, no code was mailed: "bob" and the address are still free
    assert client.get("/users/bob").status_code == 404
    assert mails_to(server.mail_dir, "bob@example.test") == []
    answer = client.post(
        "/users",
        json={"username": "bob", "email": "bob@example.test", "password": DEFAULT_PASSWORD},
    )
    assert answer.status_code == 201, answer.text


def test_a_signup_with_a_dm_topic_ending_in_a_newline_is_refused(
    server: RunningServer, client: httpx.Client
) -> None:
    answer = client.post(
        "/users",
        json={
            "username": "topper",
            "email": "topper@example.test",
            "password": DEFAULT_PASSWORD,
            "ntfy_dm_topic": TOPIC + "\n",
        },
    )
    assert_refused(answer, "invalid_ntfy_topic")
    assert client.get("/users/topper").status_code == 404
    assert mails_to(server.mail_dir, "topper@example.test") == []


def test_a_rename_to_a_username_ending_in_a_newline_is_refused(
    server: RunningServer, client: httpx.Client
) -> None:
    token = insert_user(server.database_url, "renamer")
    before = me(client, token)
    for changes in (
        {"username": "robert\n"},
        # all or nothing: the valid change that comes with it is not made either
        {"username": "robert\n", "description": "changed"},
    ):
        answer = client.patch("/users/me", json=changes, headers=auth(token))
        assert_refused(answer, "invalid_username")
        assert me(client, token) == before
    assert client.get("/users/robert").status_code == 404
    assert client.get("/users/renamer").status_code == 200


def test_a_dm_topic_ending_in_a_newline_is_refused(
    server: RunningServer, client: httpx.Client
) -> None:
    token = insert_user(server.database_url, "topicuser")
    answer = client.patch("/users/me", json={"ntfy_dm_topic": TOPIC}, headers=auth(token))
    assert answer.status_code == 200, answer.text
    before = me(client, token)
    assert before["ntfy_dm_topic"] == TOPIC
    for topic in (TOPIC + "\n", "another_secret_topic\n", TOPIC + "\r\n"):
        answer = client.patch("/users/me", json={"ntfy_dm_topic": topic}, headers=auth(token))
        assert_refused(answer, "invalid_ntfy_topic")
        assert me(client, token) == before
