"""Bounds on what one user may make the server do: games waiting for players
(MAX_WAITING_GAMES), games of bots only being played (MAX_BOTS_ONLY_GAMES: they start at
once, so the waiting bound never counted them; issue 48 item 14) and invitation e-mails
per hour (INVITATION_MAILS_PER_HOUR). A request beyond a bound is refused with a reason
and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.support.games import get_game, new_game
from tests.support.parallel import post_at_once, statuses
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user, mails_to, wait_for_mail


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(
        tmp_path_factory.mktemp("limits"), MAX_WAITING_GAMES=3, INVITATION_MAILS_PER_HOUR=5,
        MAX_BOTS_ONLY_GAMES=2, BOT_WORKERS=0,  # (no bot moves: the bots' games go on)
    ) as running:
        yield running


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    names = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "henry", "ivy", "jane")
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


BOTS_ONLY = {"players": 2, "size": 5, "bots": [1, 2], "join": False}


def started_games(client: httpx.Client, token: str) -> list[int]:
    found = client.get("/games", params={"status": "started"}, headers=auth(token))
    assert found.status_code == 200, found.text
    return sorted(game["id"] for game in found.json()["games"])


def test_a_user_has_at_most_the_bound_of_games_of_bots_only_being_played(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    henry = tokens["henry"]
    ids = [new_game(client, henry, **BOTS_ONLY)["id"] for _ in range(2)]
    assert all(get_game(client, henry, i)["status"] == "started" for i in ids)
    before = started_games(client, henry)
    refused = client.post("/games", json=BOTS_ONLY, headers=auth(henry))
    assert refused.status_code == 409, refused.text
    assert refused.json()["reason"] == "too_many_bots_only_games"
    assert "at most 2" in refused.json()["message"]
    assert started_games(client, henry) == before  # nothing made
    # a game he plays in against a bot is not one of bots only; another user has her own
    assert new_game(client, henry, players=2, size=5, bots=[1])["status"] == "started"
    assert new_game(client, tokens["ivy"], **BOTS_ONLY)["status"] == "started"
    # once one of his has ended (cancelled), he may start another
    cancelled = client.delete(f"/games/{ids[0]}", headers=auth(henry))
    assert cancelled.status_code == 200, cancelled.text
    assert new_game(client, henry, **BOTS_ONLY)["status"] == "started"


def test_the_bound_of_games_of_bots_only_holds_for_requests_at_once(
    server: RunningServer, tokens: dict[str, str]
) -> None:
    answers = post_at_once(server.api + "/games", [(BOTS_ONLY, auth(tokens["jane"]))] * 6)
    assert statuses(answers) == {201: 2, 409: 4}, [a.text for a in answers]
    assert {a.json()["reason"] for a in answers if a.status_code == 409} == {
        "too_many_bots_only_games"
    }


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
