"""Game lifecycle end to end: new, list, show, join, change, withdraw, cancel (SPEC §3)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.support.games import get_game, join, new_game, started_game
from tests.support.server import RunningServer
from tests.support.users import auth, insert_user, mail_text, make_user, wait_for_mail

NAMES = ("alice", "bob", "carol", "dave", "eve")


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in NAMES}


def games_seen_by(client: httpx.Client, token: str, **query: str) -> list[int]:
    response = client.get("/games", params=query, headers=auth(token))
    assert response.status_code == 200, response.text
    return [game["id"] for game in response.json()["games"]]


def alice_and_bob_waiting_for_four(
    client: httpx.Client, tokens: dict[str, str]
) -> dict[str, Any]:
    """A 4-player game alice created and bob joined (as alice saw it at creation)."""
    game = new_game(client, tokens["alice"], players=4)
    join(client, tokens["bob"], game["id"])
    return game


def test_new_game_is_waiting_with_the_creator_as_admin_and_first_player(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = new_game(client, tokens["alice"], size=7)
    assert game["status"] == "waiting" and game["revision"] == 1
    assert (game["admin"], game["waiting_players"]) == ("alice", ["alice"])
    assert (game["size"], game["players"], game["private"]) == (7, 2, False)
    assert game["invitation_code"] is None and game["turn"] is None and game["seats"] == []


def test_unauthenticated_requests_are_refused(client: httpx.Client) -> None:
    response = client.post("/games", json={})
    assert response.status_code == 401 and response.json()["reason"] == "unauthenticated"
    response = client.get("/games", headers=auth("not-a-session-token"))
    assert response.status_code == 401 and response.json()["reason"] == "unauthenticated"


@pytest.mark.parametrize(
    ("body", "status", "reason"),
    [
        ({"players": 3}, 422, "invalid_players"),
        ({"size": 8}, 422, "invalid_size"),
        ({"size": "big"}, 400, "bad_request"),
        ({"colour": "red"}, 400, "bad_request"),
        ({"invitees": ["nobody"]}, 404, "user_not_found"),
    ],
)
def test_bad_new_game_requests_are_refused_and_create_nothing(
    client: httpx.Client, tokens: dict[str, str], body: dict[str, object], status: int, reason: str
) -> None:
    before = games_seen_by(client, tokens["alice"])
    response = client.post("/games", json=body, headers=auth(tokens["alice"]))
    assert (response.status_code, response.json()["reason"]) == (status, reason)
    assert response.json()["message"]
    assert games_seen_by(client, tokens["alice"]) == before


def test_malformed_json_is_a_bad_request(client: httpx.Client, tokens: dict[str, str]) -> None:
    response = client.post(
        "/games",
        content=b'{"players": 2',
        headers={**auth(tokens["alice"]), "Content-Type": "application/json"},
    )
    assert response.status_code == 400 and response.json()["reason"] == "bad_request"


def test_private_game_is_hidden_from_others_unless_they_have_the_code(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = new_game(client, tokens["alice"], private=True)
    code = game["invitation_code"]
    assert code and len(code) >= 16
    assert game["id"] in games_seen_by(client, tokens["alice"])
    assert game["id"] not in games_seen_by(client, tokens["bob"])
    hidden = client.get(f"/games/{game['id']}", headers=auth(tokens["bob"]))
    assert hidden.status_code == 404 and hidden.json()["reason"] == "game_not_found"
    with_code = client.get(
        f"/games/{game['id']}", params={"invitation_code": code}, headers=auth(tokens["bob"])
    )
    assert with_code.status_code == 200 and with_code.json()["invitation_code"] is None


def test_joining_a_private_game_needs_its_code_and_nothing_changes_without_it(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = new_game(client, tokens["alice"], private=True)
    for body in ({}, {"invitation_code": "guessed-code-123"}):
        refused = join(client, tokens["bob"], game["id"], **body)
        assert refused.status_code == 404 and refused.json()["reason"] == "game_not_found"
    shown = get_game(client, tokens["alice"], game["id"])
    assert shown.pop("join_url").endswith(f"/games/{game['id']}?code={game['invitation_code']}")
    assert shown == game  # (the join link: GET /games/{id} only)
    joined = join(client, tokens["bob"], game["id"], invitation_code=game["invitation_code"])
    assert joined.status_code == 201 and joined.json()["status"] == "started"


def test_joining_the_last_seat_starts_the_game_with_seats_from_the_seed(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = new_game(client, tokens["alice"], players=4, size=9)
    for name in ("bob", "carol"):
        waiting = join(client, tokens[name], game["id"]).json()
        assert waiting["status"] == "waiting"
    started = join(client, tokens["dave"], game["id"]).json()
    assert started["status"] == "started" and started["revision"] == 4
    assert [s["seat"] for s in started["seats"]] == ["north", "east", "south", "west"]
    assert sorted(s["username"] for s in started["seats"]) == ["alice", "bob", "carol", "dave"]
    assert all(s["walls_left"] == 5 and s["distance"] == 8 for s in started["seats"])
    assert started["pawns"] == {"north": "e9", "east": "i5", "south": "e1", "west": "a5"}
    assert started["turn_username"] == next(
        s["username"] for s in started["seats"] if s["seat"] == started["turn"]
    )
    assert started["waiting_players"] == [] and started["started_at"]


def test_joining_a_full_game_or_twice_is_refused(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = new_game(client, tokens["alice"])
    again = join(client, tokens["alice"], game["id"])
    assert again.status_code == 409 and again.json()["reason"] == "already_joined"
    assert join(client, tokens["bob"], game["id"]).status_code == 201
    full = join(client, tokens["carol"], game["id"])
    assert full.status_code == 409 and full.json()["reason"] == "game_full"
    assert get_game(client, tokens["alice"], game["id"])["revision"] == 2


def test_unknown_game_is_not_found(client: httpx.Client, tokens: dict[str, str]) -> None:
    for path in ("/games/999999", "/games/999999/actions", "/games/99999999999999999999999"):
        response = client.get(path, headers=auth(tokens["alice"]))
        assert response.status_code == 404 and response.json()["reason"] == "game_not_found"
    response = join(client, tokens["alice"], 999999)
    assert response.status_code == 404 and response.json()["reason"] == "game_not_found"


def test_invitees_get_the_invitation_code_by_mail(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = new_game(client, tokens["alice"], invitees=["carol", "dave"])
    assert game["invitation_code"] and game["private"] is False
    for name in ("carol", "dave"):
        mail = wait_for_mail(server.mail_dir, f"{name}@example.test", subject="invites you")
        assert game["invitation_code"] in mail_text(mail)
        assert f"game {game['id']}" in str(mail["Subject"])


def test_only_the_game_admin_may_change_a_game(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = alice_and_bob_waiting_for_four(client, tokens)
    refused = client.patch(f"/games/{game['id']}", json={"size": 5}, headers=auth(tokens["bob"]))
    assert refused.status_code == 403 and refused.json()["reason"] == "not_game_admin"
    assert get_game(client, tokens["alice"], game["id"])["size"] == 9
    changed = client.patch(
        f"/games/{game['id']}", json={"size": 5, "private": True}, headers=auth(tokens["alice"])
    )
    assert changed.status_code == 200, changed.text
    body = changed.json()
    assert (body["size"], body["private"], body["revision"]) == (5, True, 3)
    assert body["invitation_code"]


def test_four_to_two_players_is_refused_with_three_waiting(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = alice_and_bob_waiting_for_four(client, tokens)
    join(client, tokens["carol"], game["id"])
    before = get_game(client, tokens["alice"], game["id"])
    refused = client.patch(
        f"/games/{game['id']}", json={"players": 2}, headers=auth(tokens["alice"])
    )
    assert refused.status_code == 409 and refused.json()["reason"] == "too_many_players"
    assert get_game(client, tokens["alice"], game["id"]) == before


def test_four_to_two_players_with_two_waiting_starts_the_game(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = alice_and_bob_waiting_for_four(client, tokens)
    changed = client.patch(
        f"/games/{game['id']}", json={"players": 2}, headers=auth(tokens["alice"])
    )
    assert changed.status_code == 200
    assert (changed.json()["status"], changed.json()["players"]) == ("started", 2)
    late = client.patch(f"/games/{game['id']}", json={"size": 5}, headers=auth(tokens["alice"]))
    assert late.status_code == 409 and late.json()["reason"] == "game_not_waiting"


def test_a_stale_base_revision_is_refused_with_the_current_game(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = alice_and_bob_waiting_for_four(client, tokens)
    stale = client.patch(
        f"/games/{game['id']}",
        json={"size": 5, "base_revision": 1},
        headers=auth(tokens["alice"]),
    )
    assert stale.status_code == 409 and stale.json()["reason"] == "stale_revision"
    assert stale.json()["game"]["revision"] == 2 and stale.json()["game"]["size"] == 9
    assert get_game(client, tokens["alice"], game["id"])["size"] == 9


def test_withdrawing_from_a_waiting_game_leaves_it_waiting(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = alice_and_bob_waiting_for_four(client, tokens)
    left = client.delete(f"/games/{game['id']}/players/me", headers=auth(tokens["bob"]))
    assert left.status_code == 200
    assert (left.json()["status"], left.json()["waiting_players"]) == ("waiting", ["alice"])
    outsider = client.delete(f"/games/{game['id']}/players/me", headers=auth(tokens["carol"]))
    assert outsider.status_code == 403 and outsider.json()["reason"] == "not_a_player"
    admin_leaves = client.delete(f"/games/{game['id']}/players/me", headers=auth(tokens["alice"]))
    assert admin_leaves.json()["status"] == "cancelled"


def test_withdrawing_from_a_started_game_cancels_it(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = started_game(client, {"alice": tokens["alice"], "bob": tokens["bob"]})
    response = client.delete(f"/games/{game['id']}/players/me", headers=auth(tokens["bob"]))
    assert response.status_code == 200
    cancelled = response.json()
    assert cancelled["status"] == "cancelled" and "bob" in cancelled["cancel_reason"]
    assert cancelled["turn"] is None
    again = join(client, tokens["carol"], game["id"])
    assert again.status_code == 409 and again.json()["reason"] == "game_full"


def test_only_the_game_admin_may_cancel(client: httpx.Client, tokens: dict[str, str]) -> None:
    game = alice_and_bob_waiting_for_four(client, tokens)
    refused = client.delete(f"/games/{game['id']}", headers=auth(tokens["bob"]))
    assert refused.status_code == 403 and refused.json()["reason"] == "not_game_admin"
    assert get_game(client, tokens["bob"], game["id"])["status"] == "waiting"
    cancelled = client.delete(f"/games/{game['id']}", headers=auth(tokens["alice"]))
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    twice = client.delete(f"/games/{game['id']}", headers=auth(tokens["alice"]))
    assert twice.status_code == 409 and twice.json()["reason"] == "game_cancelled"


def test_list_filters_by_status_user_and_relation(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    eve = tokens["eve"]
    waiting = new_game(client, eve)
    started = started_game(client, {"eve": eve, "bob": tokens["bob"]})
    turn_of = started["turn_username"]
    assert waiting["id"] in games_seen_by(client, eve, status="waiting", user="me")
    active = games_seen_by(client, eve, status="active", user="me")
    assert started["id"] in active and waiting["id"] not in active
    assert games_seen_by(client, eve, status="started", user="me") == active
    admin_of = games_seen_by(client, tokens["bob"], user="eve", relation="admin")
    assert {waiting["id"], started["id"]} <= set(admin_of)
    assert started["id"] not in games_seen_by(client, tokens["bob"], user="me", relation="admin")
    current = games_seen_by(client, tokens[turn_of], user="me", relation="current")
    assert started["id"] in current
    assert games_seen_by(client, eve, user="me", relation="won") == []
    ids = games_seen_by(client, eve)
    assert ids == sorted(ids, reverse=True)


@pytest.mark.parametrize(
    ("query", "status", "reason"),
    [
        ({"status": "sleeping"}, 400, "bad_request"),
        ({"relation": "enemy"}, 400, "bad_request"),
        ({"user": "nobody"}, 404, "user_not_found"),
        ({"limit": "lots"}, 400, "bad_request"),
        # given empty: not one of the document's values, not a filter left out
        ({"status": ""}, 400, "bad_request"),
        ({"relation": ""}, 400, "bad_request"),
        ({"limit": ""}, 400, "bad_request"),
    ],
)
def test_bad_list_filters_are_refused(
    client: httpx.Client, tokens: dict[str, str], query: dict[str, str], status: int, reason: str
) -> None:
    response = client.get("/games", params=query, headers=auth(tokens["alice"]))
    assert (response.status_code, response.json()["reason"]) == (status, reason)


def test_a_retried_idempotency_key_returns_the_first_answer_and_creates_nothing(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    headers = {**auth(tokens["carol"]), "Idempotency-Key": "create-once-1"}
    first = client.post("/games", json={"size": 11}, headers=headers)
    before = games_seen_by(client, tokens["carol"], user="me", relation="admin")
    second = client.post("/games", json={"size": 11}, headers=headers)
    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert games_seen_by(client, tokens["carol"], user="me", relation="admin") == before
    other_user = client.post(
        "/games", json={}, headers={**auth(tokens["dave"]), "Idempotency-Key": "create-once-1"}
    )
    assert other_user.status_code == 201 and other_user.json()["id"] != first.json()["id"]
    reused = client.patch(f"/games/{first.json()['id']}", json={"size": 5}, headers=headers)
    assert reused.status_code == 422 and reused.json()["reason"] == "idempotency_key_reused"


@pytest.mark.parametrize(
    ("method", "path", "kwargs"),
    [
        ("post", "/games", {"json": {"invitees": ["bo\x00b"]}}),
        ("get", "/games", {"params": {"user": "ali\x00ce"}}),
        ("post", "/games", {"json": [1, 2]}),
        ("post", "/games", {"json": {"players": 2.5}}),
    ],
)
def test_odd_input_is_a_bad_request_not_a_server_error(
    client: httpx.Client, tokens: dict[str, str], method: str, path: str, kwargs: dict[str, object]
) -> None:
    response = client.request(method, path, headers=auth(tokens["alice"]), **kwargs)  # type: ignore[arg-type]
    assert response.status_code == 400 and response.json()["reason"] == "bad_request"


def test_a_user_signed_up_through_the_api_can_create_and_join_games(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> None:
    token = make_user(server.base_url, server.mail_dir, "frank")
    game = new_game(client, tokens["alice"], invitees=["frank"])
    assert game["invitation_code"] in mail_text(
        wait_for_mail(server.mail_dir, "frank@example.test", subject="invites you")
    )
    joined = join(client, token, game["id"], invitation_code=game["invitation_code"])
    assert joined.status_code == 201 and joined.json()["status"] == "started"
