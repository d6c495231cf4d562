"""Races that must have exactly one winner, and game writes refused to non-players
(issue 13: what holds and must keep holding).

Each race sends its requests at the same moment (tests/support/parallel.py: every
request connected first, then released together):

- 16 different legal actions of the player to move, all based on the same revision:
  one is played (201), the other 15 are refused with 409 `stale_revision`;
- 8 users joining the last free seat: one gets it (201), the game starts with it;
- signups with one username (and different e-mail addresses): one holds the name (201),
  one code is mailed.

Other races have tests next to their domain: 12 trades on one offer
(test_trading.py), one idempotency key sent 8 times (test_play.py), parallel logins
against the rate limit (test_login_parallel.py).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.games import get_game, history, new_game, started_game
from tests.support.parallel import post_at_once, statuses
from tests.support.server import RunningServer, running_server
from tests.support.users import DEFAULT_PASSWORD, auth, insert_user, mails_to, wait_for_mail


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    # every racing signup is admitted to password hashing: no 503 password_hashing_busy
    with running_server(tmp_path_factory.mktemp("races"), PASSWORD_HASH_QUEUE=64) as running:
        yield running


def test_of_16_actions_at_one_revision_exactly_one_is_played(
    server: RunningServer, client: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("mova", "movb")}
    game = started_game(client, tokens)
    by_seat = {seat["seat"]: tokens[seat["username"]] for seat in game["seats"]}
    mover = by_seat[game["turn"]]
    legal = client.get(f"/games/{game['id']}/legal-actions", headers=auth(mover))
    assert legal.status_code == 200, legal.text
    options = legal.json()
    actions = [("move", to) for to in options["moves"]]
    actions += [("wall", to) for to in options["walls"][: 16 - len(actions)]]
    assert len(actions) == 16 and len(set(actions)) == 16
    revision = game["revision"]
    answers = post_at_once(
        f"{server.api}/games/{game['id']}/actions",
        [
            ({"type": kind, "to": to, "base_revision": revision}, auth(mover))
            for kind, to in actions
        ],
    )
    counted = statuses(answers)
    assert counted == {201: 1, 409: 15}, [answer.text for answer in answers]
    refused = [answer.json() for answer in answers if answer.status_code == 409]
    assert {body["reason"] for body in refused} == {"stale_revision"}
    assert {body["revision"] for body in refused} == {revision + 1}
    # the one accepted is the one stored, once
    (won,) = [actions[n] for n, answer in enumerate(answers) if answer.status_code == 201]
    played = history(client, mover, game["id"])
    assert [(entry["type"], entry["notation"]) for entry in played] == [won]
    assert get_game(client, mover, game["id"])["revision"] == revision + 1


def test_of_8_joins_of_the_last_seat_exactly_one_gets_it(
    server: RunningServer, client: httpx.Client
) -> None:
    names = [f"seat{n}" for n in range(8)]
    tokens = {name: insert_user(server.database_url, name) for name in ["host", *names]}
    game = new_game(client, tokens["host"], players=2)
    answers = post_at_once(
        f"{server.api}/games/{game['id']}/players", [({}, auth(tokens[name])) for name in names]
    )
    counted = statuses(answers)
    assert counted == {201: 1, 409: 7}, [answer.text for answer in answers]
    assert {a.json()["reason"] for a in answers if a.status_code == 409} == {"game_full"}
    (winner,) = [names[n] for n, answer in enumerate(answers) if answer.status_code == 201]
    now = get_game(client, tokens["host"], game["id"])
    assert now["status"] == "started"
    assert sorted(seat["username"] for seat in now["seats"]) == sorted(["host", winner])
    # the game went from waiting to started once: one join, nothing else
    assert now["revision"] == answers[names.index(winner)].json()["revision"]


def test_of_simultaneous_signups_with_one_username_exactly_one_holds_it(
    server: RunningServer, client: httpx.Client
) -> None:
    addresses = [f"twin{n}@example.test" for n in range(6)]
    answers = post_at_once(
        f"{server.api}/users",
        [
            ({"username": "twin", "email": address, "password": DEFAULT_PASSWORD}, {})
            for address in addresses
        ],
    )
    counted = statuses(answers)
    assert counted == {201: 1, 409: 5}, [answer.text for answer in answers]
    assert {a.json()["reason"] for a in answers if a.status_code == 409} == {"username_taken"}
    (holder,) = [addresses[n] for n, a in enumerate(answers) if a.status_code == 201]
    # one code mailed, to the one signup that holds the name
    wait_for_mail(server.mail_dir, holder)
    time.sleep(0.5)  # pacing: a mail to another address would be written by now
    assert [a for a in addresses if mails_to(server.mail_dir, a)] == [holder]


# Every write endpoint under /games/{id} (from the OpenAPI document, so that a new one
# cannot be missed) as a logged-in user who is not a player of a started public game:
# (method, path after /games/{id}, JSON body) -> (status, reason).
NON_PLAYER_WRITES: dict[tuple[str, str], tuple[dict[str, Any] | None, int, str]] = {
    ("delete", "/players/me"): (None, 403, "not_a_player"),
    ("post", "/actions"): ({"type": "move", "to": "e2"}, 403, "not_a_player"),
    ("post", "/markers"): ({"marker": "e4v"}, 403, "not_a_player"),
    ("delete", "/markers/{marker}"): (None, 403, "not_a_player"),
    ("post", "/messages"): ({"text": "hello from outside"}, 403, "not_a_player"),
    ("post", "/mutes"): ({"username": "npa"}, 403, "not_a_player"),
    ("post", "/offers"): ({"mode": "selling"}, 403, "not_a_player"),
    ("delete", "/offers/me"): (None, 403, "not_a_player"),
    ("post", "/trades"): ({"mode": "buying", "partner": "npa"}, 403, "not_a_player"),
    # Excluded from `not_a_player`, for a reason:
    # - changing and cancelling a game belong to its game admin (or a system admin for
    #   cancelling), whoever else asks, player or not: 403 `not_game_admin`;
    ("patch", ""): ({"size": 7}, 403, "not_game_admin"),
    ("delete", ""): (None, 403, "not_game_admin"),
    # - joining is how a non-player becomes a player: allowed to ask, and refused here only
    #   because the started game has no free seat.
    ("post", "/players"): ({}, 409, "game_full"),
    # - seating a bot belongs to the game admin, whoever else asks;
    ("post", "/bots"): ({"level": 1}, 403, "not_game_admin"),
    # - an analysis may be asked for by anyone who sees the game, once it has ended.
    ("post", "/analysis"): (None, 403, "game_in_play"),
    # - a rematch, by a player of the finished game (a non-player of any game: refused).
    ("post", "/rematch"): (None, 403, "not_a_player"),
}


def game_write_endpoints(server: RunningServer) -> set[tuple[str, str]]:
    """(method, path after /games/{id}) of every documented write on one game."""
    document = httpx.get(server.base_url + "/api-docs/openapi.json").json()
    found = set()
    for path, operations in document["paths"].items():
        if not path.startswith("/api/v1/games/{game_id}"):
            continue
        rest = path.removeprefix("/api/v1/games/{game_id}")
        for method in operations:
            if method in ("post", "put", "patch", "delete"):
                found.add((method, rest))
    return found


def everything_about(client: httpx.Client, token: str, game_id: int) -> dict[str, Any]:
    """What a player reads of the game: the game, its history, messages and markers."""
    read = {}
    for name, path in (
        ("game", ""),
        ("actions", "/actions"),
        ("messages", "/messages"),
        ("markers", "/markers"),
    ):
        response = client.get(f"/games/{game_id}{path}", headers=auth(token))
        assert response.status_code == 200, response.text
        read[name] = response.json()
    return read


def test_every_game_write_is_refused_to_a_non_player_and_changes_nothing(
    server: RunningServer, client: httpx.Client
) -> None:
    assert game_write_endpoints(server) == set(NON_PLAYER_WRITES)
    tokens = {name: insert_user(server.database_url, name) for name in ("npa", "npb", "npx")}
    players = {"npa": tokens["npa"], "npb": tokens["npb"]}
    game = started_game(client, players, invisible=True)  # markers apply
    game_id = game["id"]
    # something for each write to act on: an open offer, a marker, a message
    offer = client.post(
        f"/games/{game_id}/offers", json={"mode": "selling"}, headers=auth(tokens["npa"])
    )
    assert offer.status_code == 201, offer.text
    marker = client.post(
        f"/games/{game_id}/markers", json={"marker": "e4v"}, headers=auth(tokens["npa"])
    )
    assert marker.status_code in (200, 201), marker.text
    said = client.post(
        f"/games/{game_id}/messages", json={"text": "hi"}, headers=auth(tokens["npb"])
    )
    assert said.status_code == 201, said.text
    before = everything_about(client, tokens["npa"], game_id)
    assert before["game"]["status"] == "started" and not before["game"].get("private")

    outsider = auth(tokens["npx"])
    for (method, rest), (body, status, reason) in sorted(NON_PLAYER_WRITES.items()):
        path = f"/games/{game_id}" + rest.replace("{marker}", "e4v")
        answer = client.request(method.upper(), path, json=body, headers=outsider)
        assert (answer.status_code, answer.json().get("reason")) == (status, reason), (
            f"{method.upper()} {path}: {answer.text}"
        )
        after = everything_about(client, tokens["npa"], game_id)
        assert after["game"]["revision"] == before["game"]["revision"], f"{method} {path}"
        assert after == before, f"{method.upper()} {path} changed the game"
