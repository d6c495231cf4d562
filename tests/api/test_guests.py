"""Guest accounts end to end (issue 29 item 4): the real server, real SQLite. With
GUESTS=on a name is enough to play (a session, no e-mail, no password); the guest is
marked in the game views, its games are unrated, it is removed after GUEST_PURGE_AFTER
without play, an administrator turns it into a full account. With GUESTS=off: 403
guests_off and nothing created."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from corridorquest.callers import SESSION_COOKIE, write_token
from corridorquest.cli import main
from tests.support.finishing_games import TWO_PLAYER_SCRIPT
from tests.support.games import join, new_game
from tests.support.rated_games import finish, seeded_game
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user, latest_code

PASSWORD = "a guest's new password"


@pytest.fixture(scope="module")
def guests_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("guests"), GUESTS="on") as running:
        yield running


@pytest.fixture(scope="module")
def api(guests_server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=guests_server.api, timeout=10.0) as http:
        yield http


@pytest.fixture(scope="module")
def admin(guests_server: RunningServer) -> str:
    return insert_user(guests_server.database_url, "gadmin", is_admin=True)


def new_guest(api: httpx.Client, name: str) -> str:
    answer = api.post("/guests", json={"username": name})
    assert answer.status_code == 201, answer.text
    assert answer.json()["username"] == name and answer.json()["guest"] is True
    return str(answer.json()["token"])


def test_with_guests_off_a_guest_is_refused_and_nothing_is_created(
    server: RunningServer, client: httpx.Client
) -> None:
    refused = client.post("/guests", json={"username": "offguest"})
    assert refused.status_code == 403 and refused.json()["reason"] == "guests_off"
    assert client.get("/users/offguest").status_code == 404


def test_a_guest_needs_only_a_name_and_its_name_is_taken_while_it_exists(
    api: httpx.Client, guests_server: RunningServer
) -> None:
    token = new_guest(api, "Gina")
    me = api.get("/users/me", headers=auth(token)).json()
    assert me["guest"] is True and me["email"].endswith(".invalid")
    assert api.get("/users/gina").json()["guest"] is True
    for taken in ("gina", "GINA"):
        again = api.post("/guests", json={"username": taken})
        assert again.status_code == 409 and again.json()["reason"] == "username_taken"
    signup = api.post(
        "/users", json={"username": "gina", "email": "g@example.test", "password": PASSWORD}
    )
    assert signup.status_code == 409 and signup.json()["reason"] == "username_taken"
    insert_user(guests_server.database_url, "person")
    person = api.post("/guests", json={"username": "person"})
    assert person.status_code == 409 and person.json()["reason"] == "username_taken"
    bad = api.post("/guests", json={"username": "9lives"})
    assert bad.status_code == 422 and bad.json()["reason"] == "invalid_username"
    # no e-mail, no password: none can be set, and a login as the guest always fails
    for path, body in (("/users/gina/password", {"new_password": PASSWORD}),
                       ("/users/me/email", {"email": "gina@example.test"})):
        refused = api.post(path, json=body, headers=auth(token))
        assert refused.status_code == 403 and refused.json()["reason"] == "guest_account", path
    assert api.get("/users/me", headers=auth(token)).json()["email"].endswith(".invalid")
    login = api.post(
        "/sessions", json={"username": "gina", "password": "!guest: no password login"}
    )
    assert login.status_code == 401


def test_a_guest_plays_with_its_cookie_and_write_token_marked_and_unrated(
    api: httpx.Client, guests_server: RunningServer
) -> None:
    host = insert_user(guests_server.database_url, "ghost")
    guest = new_guest(api, "gus")
    tokens = {"ghost": host, "gus": guest}
    game = seeded_game(api, guests_server.database_url, tokens, ["ghost", "gus"], 5)
    assert game["guests"] == ["gus"]
    listed = api.get("/games", headers=auth(host)).json()["games"]
    assert [g["guests"] for g in listed if g["id"] == game["id"]] == [["gus"]]
    # the browser's way: the session cookie with the page's write token (South moves first)
    first = TWO_PLAYER_SCRIPT[0]
    assert first[0] == "south" and game["turn"] == "south"
    assert {s["seat"]: s["username"] for s in game["seats"]}["south"] == "gus"
    with httpx.Client(base_url=guests_server.api, timeout=10.0) as browser:
        browser.cookies.set(SESSION_COOKIE, guest)
        body = {"type": first[1], "to": first[2]}
        forged = browser.post(f"/games/{game['id']}/actions", json=body)
        assert forged.status_code == 403 and forged.json()["reason"] == "cross_site_write"
        moved = browser.post(
            f"/games/{game['id']}/actions", json=body,
            headers={"X-CSRF-Token": write_token(guest)},
        )
        assert moved.status_code == 201, moved.text
    finished = finish(api, moved.json(), tokens, TWO_PLAYER_SCRIPT[1:])
    assert finished["winner"] == "gus"
    rated = api.get(f"/games/{game['id']}/ratings", headers=auth(host)).json()
    assert rated["rated"] is False
    for name in ("ghost", "gus"):
        pools = {p["pool"]: p for p in api.get(f"/users/{name}/ratings").json()["pools"]}
        assert pools["2p"]["games"] == 0 and pools["2p"]["rating"] == 1500


def test_an_administrator_turns_a_guest_into_a_full_account(
    api: httpx.Client, guests_server: RunningServer, admin: str
) -> None:
    guest = new_guest(api, "conny")
    not_guest = api.post("/admin/users/gadmin/convert", json={"email": "x@example.test"},
                         headers=auth(admin))
    assert not_guest.status_code == 409 and not_guest.json()["reason"] == "not_a_guest"
    bad = api.post("/admin/users/conny/convert", json={"email": "nope"}, headers=auth(admin))
    assert bad.status_code == 422 and bad.json()["reason"] == "invalid_email"
    refused = api.post("/admin/users/conny/convert", json={"email": "c@example.test"},
                       headers=auth(guest))
    assert refused.status_code == 403
    assert api.get("/users/conny").json()["guest"] is True  # nothing changed
    done = api.post("/admin/users/conny/convert", json={"email": "c@example.test"},
                    headers=auth(admin))
    assert done.status_code == 200, done.text
    assert done.json()["guest"] is False and done.json()["email"] == "c@example.test"
    assert api.get("/users/me", headers=auth(guest)).json()["guest"] is False  # still in
    # it sets a password with a forgotten-password code mailed to its new address
    asked = api.post("/users/conny/password", json={"new_password": PASSWORD})
    assert asked.status_code == 202, asked.text
    code = latest_code(guests_server.mail_dir, "c@example.test")
    verified = api.post("/verifications", json={
        "verification_token": asked.json()["verification_token"], "code": code})
    assert verified.status_code == 200, verified.text
    login = api.post("/sessions", json={"username": "conny", "password": PASSWORD,
                                        "replace": True})
    assert login.status_code == 201, login.text


def test_an_administrator_removes_a_guest_and_its_name_is_free_again(
    api: httpx.Client, admin: str
) -> None:
    guest = new_guest(api, "remy")
    removed = api.delete("/admin/users/remy", headers=auth(admin))
    assert removed.status_code == 200 and removed.json()["username"] == "remy"
    assert api.get("/users/me", headers=auth(guest)).status_code == 401
    assert api.get("/users/remy").status_code == 404
    new_guest(api, "remy")


def test_guests_without_play_are_purged_and_their_finished_games_keep_a_placeholder(
    tmp_path: Path,
) -> None:
    with (
        running_server(tmp_path, GUESTS="on", GUEST_PURGE_AFTER="2s") as server,
        httpx.Client(base_url=server.api, timeout=10.0) as api,
    ):
        admin = insert_user(server.database_url, "padmin", is_admin=True)
        host = insert_user(server.database_url, "phost")
        guest = new_guest(api, "pia")
        tokens = {"phost": host, "pia": guest}
        game = seeded_game(api, server.database_url, tokens, ["phost", "pia"], 5)
        finish(api, game, tokens, TWO_PLAYER_SCRIPT)
        waiting = new_game(api, host, size=9, players=4)
        assert join(api, guest, waiting["id"]).status_code == 201
        time.sleep(2.5)  # pacing: a guest's idle time passes on the server's clock
        fresh = new_guest(api, "fresh")  # created just now: it stays
        done = api.post("/admin/server/maintenance", headers=auth(admin))
        assert done.status_code == 200, done.text
        assert api.get("/users/pia").status_code == 404
        assert api.get("/users/me", headers=auth(guest)).status_code == 401
        assert api.get("/users/me", headers=auth(fresh)).status_code == 200
        shown = api.get(f"/games/{game['id']}", headers=auth(host)).json()
        names = [s["username"] for s in shown["seats"]]
        assert "pia" not in names and any(n.startswith("deleted-user-") for n in names)
        assert shown["status"] == "finished"
        left = api.get(f"/games/{waiting['id']}", headers=auth(host)).json()
        assert left["waiting_players"] == ["phost"]
        new_guest(api, "pia")  # the name is free again
        rated = api.get(f"/games/{game['id']}/ratings", headers=auth(host)).json()
        assert rated["rated"] is False
        # every rating computed again: the removed guest's game stays unrated
        again = CliRunner().invoke(main, ["rerate"], env={"DATABASE_URL": server.database_url})
        assert again.exit_code == 0, again.output
        assert again.output.strip() == "rerated 0 finished games"


def test_a_guest_is_asked_before_logging_out_for_good_and_a_user_is_not(
    api: httpx.Client, guests_server: RunningServer
) -> None:
    guest = new_guest(api, "Lou")
    with httpx.Client(base_url=guests_server.base_url, timeout=10.0) as browser:
        browser.cookies.set(SESSION_COOKIE, guest)
        asked = browser.post("/logout")
        assert asked.status_code == 200
        words = " ".join(re.sub(r"<[^>]*>", "", asked.text).split())  # the page's text
        assert (  # the paragraph wraps over lines in its template: no word runs into the next
            "A guest has no password: once you log out, nobody can log in as Lou again, and "
            "its games go on without you. To keep it, ask the server's administrator to make "
            "it a full account (cq-admin user convert Lou EMAIL) first."
        ) in words.replace("&#39;", "'")
        assert 'name="confirm" value="yes"' in asked.text
        assert api.get("/users/me", headers=auth(guest)).status_code == 200  # still in
        ended = browser.post("/logout", data={"confirm": "yes"})
        assert ended.status_code == 303 and ended.headers["location"] == "/"
    assert api.get("/users/me", headers=auth(guest)).status_code == 401
    person = insert_user(guests_server.database_url, "leaver")
    with httpx.Client(base_url=guests_server.base_url, timeout=10.0) as browser:
        browser.cookies.set(SESSION_COOKIE, person)
        assert browser.post("/logout").status_code == 303  # no question for a full account
    assert api.get("/users/me", headers=auth(person)).status_code == 401


def test_a_guest_made_a_full_account_is_no_longer_asked_before_logging_out(
    api: httpx.Client, guests_server: RunningServer, admin: str
) -> None:
    # its session was used a moment before (services/known_sessions.py keeps it)
    guest = new_guest(api, "Nell")
    assert api.get("/users/me", headers=auth(guest)).json()["guest"] is True
    done = api.post("/admin/users/nell/convert", json={"email": "nell@example.test"},
                    headers=auth(admin))
    assert done.status_code == 200, done.text
    with httpx.Client(base_url=guests_server.base_url, timeout=10.0) as browser:
        browser.cookies.set(SESSION_COOKIE, guest)
        assert browser.post("/logout").status_code == 303  # no question: it has an e-mail
    assert api.get("/users/me", headers=auth(guest)).status_code == 401
