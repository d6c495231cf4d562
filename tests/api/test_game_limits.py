"""Bounds on what one user may make the server do: games waiting for players
(MAX_WAITING_GAMES) and invitation e-mails per hour (INVITATION_MAILS_PER_HOUR).
A request beyond a bound is refused with a reason and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.support.games import get_game, new_game
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user, mails_to, wait_for_mail


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(
        tmp_path_factory.mktemp("limits"), MAX_WAITING_GAMES=3, INVITATION_MAILS_PER_HOUR=5
    ) as running:
        yield running


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    names = ("alice", "bob", "carol", "dave", "erin", "frank", "grace")
    return {name: insert_user(server.database_url, name) for name in names}


def waiting_games_of(client: httpx.Client, token: str) -> list[int]:
    found = client.get("/games", params={"user": "me", "status": "waiting"}, headers=auth(token))
    assert found.status_code == 200, found.text
    return [game["id"] for game in found.json()["games"]]


def test_a_user_has_at_most_the_bound_of_games_waiting(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    alice = tokens["alice"]
    ids = [new_game(client, alice)["id"] for _ in range(3)]
    refused = client.post("/games", json={}, headers=auth(alice))
    assert refused.status_code == 409, refused.text
    assert refused.json()["reason"] == "too_many_waiting_games"
    assert sorted(waiting_games_of(client, alice)) == sorted(ids)
    # Another user is not affected; once one of alice's games is cancelled she may create.
    assert new_game(client, tokens["bob"])["id"]
    cancelled = client.delete(f"/games/{ids[0]}", headers=auth(alice))
    assert cancelled.status_code == 200, cancelled.text
    assert new_game(client, alice)["id"]


def test_invitation_mails_beyond_the_hourly_bound_are_refused(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> None:
    carol = tokens["carol"]
    first = new_game(client, carol, invitees=["dave", "erin", "frank"])
    for name in ("dave", "erin", "frank"):
        wait_for_mail(server.mail_dir, f"{name}@example.test", subject="invites you")
    # 3 of 5 mails are used: inviting 3 more, at creation or later, is over the bound.
    refused = client.post(
        "/games", json={"invitees": ["grace", "alice", "bob"]}, headers=auth(carol)
    )
    assert refused.status_code == 429, refused.text
    assert refused.json()["reason"] == "invitation_limit"
    assert 1 <= int(refused.headers["Retry-After"]) <= 3600
    assert waiting_games_of(client, carol) == [first["id"]]
    before = get_game(client, carol, first["id"])
    refused = client.patch(
        f"/games/{first['id']}", json={"invitees": ["grace", "alice", "bob"]}, headers=auth(carol)
    )
    assert refused.status_code == 429 and refused.json()["reason"] == "invitation_limit"
    assert get_game(client, carol, first["id"])["revision"] == before["revision"]
    # Two more fit.
    changed = client.patch(
        f"/games/{first['id']}", json={"invitees": ["grace", "alice"]}, headers=auth(carol)
    )
    assert changed.status_code == 200, changed.text
    wait_for_mail(server.mail_dir, "grace@example.test", subject="invites you")
    assert not mails_to(server.mail_dir, "bob@example.test")
