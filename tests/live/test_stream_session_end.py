"""A live stream lives no longer than the session it was opened with.

After a logout, an administrator's logout or lock, a password change or a deletion, the
streams opened with the session end within a second and carry nothing sent after the
end (a DM included); the token opens no new one. A demoted administrator's stream of a
private game it does not play ends; its other streams go on as any user's would.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import httpx
import pytest

from tests.support.games import new_game, play, started_game
from tests.support.server import RunningServer
from tests.support.sse import EventReader
from tests.support.users import DEFAULT_PASSWORD, auth, insert_user, latest_code

END_WITHIN = 1.0  # seconds: the promise
SLACK = 0.5  # the test's own reading and scheduling


def _dm(client: httpx.Client, game_id: int, token: str, to: str, text: str) -> None:
    sent = client.post(
        f"/games/{game_id}/messages", json={"text": text, "to": to}, headers=auth(token)
    )
    assert sent.status_code == 201, sent.text


def _logout(server: RunningServer, client: httpx.Client, name: str, token: str) -> None:
    answer = client.delete("/sessions/current", headers=auth(token))
    assert answer.status_code in (200, 204), answer.text


def _admin(action: str) -> Callable[[RunningServer, httpx.Client, str, str], None]:
    def end(server: RunningServer, client: httpx.Client, name: str, token: str) -> None:
        admin = insert_user(server.database_url, f"adm_{action}_{name}", is_admin=True)
        if action == "delete":
            answer = client.delete(f"/admin/users/{name}", headers=auth(admin))
        else:
            answer = client.post(f"/admin/users/{name}/{action}", headers=auth(admin))
        assert answer.status_code == 200, answer.text

    return end


def _password(server: RunningServer, client: httpx.Client, name: str, token: str) -> None:
    asked = client.post(f"/users/{name}/password", json={"new_password": DEFAULT_PASSWORD})
    assert asked.status_code == 202, asked.text
    code = latest_code(server.mail_dir, f"{name}@example.test")
    done = client.post(
        "/verifications",
        json={"verification_token": asked.json()["verification_token"], "code": code},
    )
    assert done.status_code == 200, done.text


ENDS = {
    "logout": _logout,
    "admin_logout": _admin("logout"),
    "lock": _admin("lock"),
    "password": _password,
    "delete": _admin("delete"),
}


@pytest.mark.parametrize("how", list(ENDS))
def test_the_streams_of_a_session_end_within_a_second_of_its_end(
    server: RunningServer, client: httpx.Client, how: str
) -> None:
    name, friend = f"se_{how}", f"sf_{how}"
    tokens = {name: insert_user(server.database_url, name),
              friend: insert_user(server.database_url, friend)}
    game = started_game(client, tokens)
    with EventReader(f"{server.api}/users/me/events", tokens[name]) as mine, EventReader(
        f"{server.api}/games/{game['id']}/events", tokens[name]
    ) as watching:
        mine.next("games")
        watching.next("game")
        _dm(client, game["id"], tokens[friend], name, "before the end")
        assert mine.next("dm")["data"]["message"]["text"] == "before the end"

        ENDS[how](server, client, name, tokens[name])
        ended_at = time.monotonic()
        if how != "delete":  # (a deleted player's started games are cancelled)
            _dm(client, game["id"], tokens[friend], name, "after the end")
        for reader in (mine, watching):
            assert reader.ended.wait(END_WITHIN + SLACK), f"{how}: the stream goes on"
        took = time.monotonic() - ended_at
        assert took < END_WITHIN + SLACK, f"{how}: ended after {took:.2f} s"
        assert mine.ended_cleanly and watching.ended_cleanly  # a proper end, not a reset
        for reader in (mine, watching):
            assert not any("after the end" in line for line in reader.lines), how
    # the token opens no new stream
    again = httpx.get(f"{server.api}/users/me/events", headers=auth(tokens[name]), timeout=5)
    assert again.status_code == 401


def test_another_session_of_the_user_keeps_its_streams(
    server: RunningServer, client: httpx.Client
) -> None:
    """Only the streams of the session that ended end: a new login's go on."""
    name, friend = "keeper", "keeper_friend"
    old = insert_user(server.database_url, name)
    tokens = {name: old, friend: insert_user(server.database_url, friend)}
    game = started_game(client, tokens)
    with EventReader(f"{server.api}/users/me/events", old) as old_stream:
        old_stream.next("games")
        # a new session of the same user (inserted: the login's password is not known)
        from corridorquest.security.tokens import hash_token, new_token
        from corridorquest.store import Store
        from corridorquest.store.models import Session, User, utcnow

        store = Store.open(server.database_url, pool_size=1, migrate=False)
        token = new_token()
        try:
            def add() -> None:
                now = utcnow()
                Session.create(
                    token_hash=hash_token(token), user=User.get(User.username == name),
                    created_at=now, last_seen_at=now, expires_at=now.replace(year=now.year + 1),
                )

            store.run(add)
        finally:
            store.close()
        with EventReader(f"{server.api}/users/me/events", token) as new_stream:
            new_stream.next("games")
            _logout(server, client, name, old)
            assert old_stream.ended.wait(END_WITHIN + SLACK)
            _dm(client, game["id"], tokens[friend], name, "still here")
            assert new_stream.next("dm")["data"]["message"]["text"] == "still here"
            assert not new_stream.ended.is_set()


def test_a_demoted_admin_stops_watching_private_games_and_keeps_the_rest(
    server: RunningServer, client: httpx.Client
) -> None:
    boss = insert_user(server.database_url, "boss", is_admin=True)
    demoted = insert_user(server.database_url, "demoted", is_admin=True)
    players = {n: insert_user(server.database_url, n) for n in ("pria", "prib")}
    private = started_game(client, players, private=True)
    public = started_game(client, players)
    base = f"{server.api}/games"
    with EventReader(f"{base}/{private['id']}/events", demoted) as secret, EventReader(
        f"{base}/{public['id']}/events", demoted
    ) as open_game, EventReader(f"{server.api}/users/me/events", demoted) as own:
        assert secret.next("game")["data"]["id"] == private["id"]  # an admin may watch it
        open_game.next("game")
        own.next("games")

        answer = client.post("/admin/users/demoted/demote", headers=auth(boss))
        assert answer.status_code == 200, answer.text
        demoted_at = time.monotonic()
        assert secret.ended.wait(END_WITHIN + SLACK), "the private game's stream goes on"
        assert time.monotonic() - demoted_at < END_WITHIN + SLACK
        # the public game and its own stream go on, as any user's
        square = "e2" if public["turn"] == "south" else "e8"
        moved = play(client, players[public["turn_username"]], public["id"], "move", square)
        assert moved.status_code == 201, moved.text
        assert open_game.next("action")["data"]["notation"] == square
        assert not open_game.ended.is_set() and not own.ended.is_set()
    # and the private game is no longer its to watch
    again = httpx.get(f"{base}/{private['id']}/events", headers=auth(demoted), timeout=5)
    assert again.status_code == 404


def test_a_login_that_replaces_a_session_ends_its_streams(
    server: RunningServer, client: httpx.Client
) -> None:
    from tests.support.users import make_user

    token = make_user(server.base_url, server.mail_dir, "replaced")
    with EventReader(f"{server.api}/users/me/events", token) as stream:
        stream.next("games")
        login = client.post(
            "/sessions",
            json={"username": "replaced", "password": DEFAULT_PASSWORD, "replace": True},
        )
        assert login.status_code == 201, login.text
        replaced_at = time.monotonic()
        assert stream.ended.wait(END_WITHIN + SLACK)
        assert time.monotonic() - replaced_at < END_WITHIN + SLACK
    assert new_game(client, login.json()["token"])["status"] == "waiting"
