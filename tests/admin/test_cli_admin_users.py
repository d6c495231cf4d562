"""`cq-admin login/logout/profile` and `cq-admin user ...` against the real server, as an
administrator and refused as a player."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from admin.profiles import AdminProfileStore
from corridorquest.store import Store
from corridorquest.store.models import Game
from tests.admin.admin_support import ADMIN, PLAYER, Admin, assert_refused_to_a_player
from tests.support.finishing_games import TWO_PLAYER_SCRIPT
from tests.support.games import get_game, join, new_game, started_game
from tests.support.server import RunningServer
from tests.support.users import DEFAULT_PASSWORD, auth, insert_user, make_user


def ok(result: Any) -> str:
    assert result.exit_code == 0, result.output
    return str(result.output)


def as_json(result: Any) -> Any:
    return json.loads(ok(result))


def test_login_with_a_password_uses_admin_profiles_apart_from_cq(
    cq_admin: Admin, server: RunningServer, config_dir: Any
) -> None:
    make_user(server.base_url, server.mail_dir, "boss")  # logged in (as with cq)
    ok(cq_admin("user", "promote", "boss"))
    login = cq_admin("login", "-s", server.base_url, "-u", "boss", "-p", DEFAULT_PASSWORD,
                     "-P", "boss")
    assert login.exit_code == 3 and "--replace" in login.output  # one session per user
    ok(cq_admin("login", "-s", server.base_url, "-u", "boss", "-p", DEFAULT_PASSWORD,
                "-P", "boss", "-r"))
    assert (config_dir / "admin-profiles" / "boss.json").is_file()
    assert not (config_dir / "profiles").exists()  # cq's profiles untouched
    admins = as_json(cq_admin("user", "list", "--admins", "--json", profile="boss"))
    assert {ADMIN, "boss"} <= {u["username"] for u in admins}
    listed = ok(cq_admin("profile", "list"))
    assert "boss" in listed and ADMIN in listed
    assert ok(cq_admin("logout", profile="boss")).startswith("Logged out")
    after = cq_admin("user", "list", profile="boss")
    assert after.exit_code == 3 and "cq-admin login" in after.output
    missing = cq_admin("user", "list", profile="nobody")
    assert missing.exit_code == 2 and "cq-admin login -P nobody" in missing.output


def test_logging_in_again_in_the_same_admin_profile_replaces_its_own_session(
    cq_admin: Admin, server: RunningServer, config_dir: Any
) -> None:
    """Issue 25, item 9: not "already logged in elsewhere" for the profile's own session;
    a session held by another admin profile still is elsewhere."""
    token = make_user(server.base_url, server.mail_dir, "chief")
    assert httpx.delete(server.api + "/sessions/current", headers=auth(token)).status_code == 204
    ok(cq_admin("user", "promote", "chief"))
    ok(cq_admin("login", "-s", server.base_url, "-u", "chief", "-p", DEFAULT_PASSWORD,
                "-P", "chief"))
    first = AdminProfileStore(config_dir).load("chief").token
    again = cq_admin("login", "-u", "chief", "-p", DEFAULT_PASSWORD, "-P", "chief")
    assert again.exit_code == 0, again.output
    assert again.output.startswith(f"Logged in as chief on {server.base_url}.")
    second = AdminProfileStore(config_dir).load("chief").token
    assert second != first and second
    assert httpx.get(server.api + "/users/me", headers=auth(first)).status_code == 401
    assert as_json(cq_admin("user", "show", "chief", "--json", profile="chief"))["is_admin"]
    elsewhere = cq_admin("login", "-s", server.base_url, "-u", "chief", "-p",
                         DEFAULT_PASSWORD, "-P", "chief2")
    assert elsewhere.exit_code == 3
    assert "logged in elsewhere" in elsewhere.output
    assert "(cq-admin login --replace)" in elsewhere.output
    assert httpx.get(server.api + "/users/me", headers=auth(second)).status_code == 200


def test_a_player_may_log_in_but_is_warned_and_refused(
    cq_admin: Admin, server: RunningServer
) -> None:
    make_user(server.base_url, server.mail_dir, "joe")
    login = cq_admin("login", "-s", server.base_url, "-u", "joe", "-p", DEFAULT_PASSWORD,
                     "-P", "joe", "-r")
    assert login.exit_code == 0 and "not a system administrator" in login.output
    refused = cq_admin("user", "list", profile="joe")
    assert refused.exit_code == 4
    assert refused.output.strip().splitlines() == [
        "Error: only system administrators may list users"
    ]


PLAYER_COMMANDS = [
    ("user", "list"), ("user", "show", ADMIN), ("user", "lock", ADMIN),
    ("user", "unlock", ADMIN), ("user", "verify", ADMIN), ("user", "promote", PLAYER),
    ("user", "demote", ADMIN), ("user", "logout", ADMIN), ("user", "delete", ADMIN, "--yes"),
]


@pytest.mark.parametrize("command", PLAYER_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_every_user_command_is_refused_to_a_player(
    cq_admin: Admin, command: tuple[str, ...]
) -> None:
    assert_refused_to_a_player(cq_admin, command)


def test_list_filters_and_verifying_a_signup_whose_mail_never_came(
    cq_admin: Admin, server: RunningServer
) -> None:
    signup = httpx.post(server.api + "/users", json={
        "username": "lostmail", "email": "lost@example.test", "password": DEFAULT_PASSWORD})
    assert signup.status_code == 201, signup.text
    unverified = as_json(cq_admin("user", "list", "--unverified", "--json"))
    assert [u["username"] for u in unverified] == ["lostmail"]
    found = as_json(cq_admin("user", "list", "--search", "LOST@", "--json"))
    assert [u["username"] for u in found] == ["lostmail"]
    assert "lostmail" in ok(cq_admin("user", "list"))
    assert "is verified" in ok(cq_admin("user", "verify", "lostmail"))
    assert as_json(cq_admin("user", "list", "--unverified", "--json")) == []
    login = httpx.post(server.api + "/sessions",
                       json={"username": "lostmail", "password": DEFAULT_PASSWORD})
    assert login.status_code == 201, login.text
    missing = cq_admin("user", "verify", "nosuchuser")
    assert missing.exit_code == 4 and "no user" in missing.output


def test_lock_unlock_logout_and_show(cq_admin: Admin, server: RunningServer) -> None:
    token = insert_user(server.database_url, "locky")
    me = httpx.get(server.api + "/users/me", headers=auth(token))
    assert me.status_code == 200
    assert "is locked" in ok(cq_admin("user", "lock", "locky"))
    assert httpx.get(server.api + "/users/me", headers=auth(token)).status_code == 401
    assert as_json(cq_admin("user", "list", "--locked", "--json"))[0]["username"] == "locky"
    shown = as_json(cq_admin("user", "show", "locky", "--json"))
    assert shown["locked"] is True and shown["sessions"]["active"] == 0
    assert "Locked: yes" in ok(cq_admin("user", "show", "locky"))
    assert "is unlocked" in ok(cq_admin("user", "unlock", "locky"))
    assert as_json(cq_admin("user", "show", "locky", "--json"))["locked"] is False
    own = cq_admin("user", "lock", ADMIN)
    assert own.exit_code == 4 and "own account" in own.output

    token = insert_user(server.database_url, "sessiony")
    failed = httpx.post(server.api + "/sessions",
                        json={"username": "sessiony", "password": "wrong password!"})
    assert failed.status_code == 401
    shown = as_json(cq_admin("user", "show", "sessiony", "--json"))
    assert shown["sessions"]["active"] == 1 and shown["failed_logins"]["last_day"] == 1
    assert ok(cq_admin("user", "logout", "sessiony")) == "sessiony: 1 session ended.\n"
    assert httpx.get(server.api + "/users/me", headers=auth(token)).status_code == 401
    assert ok(cq_admin("user", "logout", "sessiony")) == "sessiony: 0 sessions ended.\n"
    audit = [line for line in ok(cq_admin("audit")).splitlines() if "sessiony" in line
             or "locky" in line]
    assert sum("1 session ended" in line for line in audit) == 2, audit  # lock, logout
    assert sum("0 sessions ended" in line for line in audit) == 1, audit
    assert not any("1 sessions" in line for line in audit)


def test_promote_demote_and_never_the_last_admin(cq_admin: Admin, server: RunningServer) -> None:
    insert_user(server.database_url, "deputy")
    assert "is a system administrator" in ok(cq_admin("user", "promote", "deputy"))
    admins = {u["username"] for u in as_json(cq_admin("user", "list", "--admins", "--json"))}
    assert {"deputy", ADMIN} <= admins
    for name in admins - {ADMIN}:
        ok(cq_admin("user", "demote", name))
    last = cq_admin("user", "demote", ADMIN)
    assert last.exit_code == 4 and "last administrator" in last.output
    assert as_json(cq_admin("user", "show", ADMIN, "--json"))["is_admin"] is True


def _finished_game(
    client: httpx.Client, server: RunningServer, tokens: dict[str, str]
) -> dict[str, Any]:
    """A 5x5 game of gone (north) and mate (south), played to its end by the script (seed 5
    makes south move first, as the script wants; see tests/api/test_scores.py)."""
    game = new_game(client, tokens["gone"], size=5)
    store = Store.open(server.database_url, pool_size=1, migrate=False)
    try:
        store.run(lambda: Game.update(seed=5).where(Game.id == game["id"]).execute())
    finally:
        store.close()
    game = join(client, tokens["mate"], game["id"]).json()
    by_seat = {seat["seat"]: seat["username"] for seat in game["seats"]}
    for seat, kind, to in TWO_PLAYER_SCRIPT:
        assert game["turn"] == seat, game
        played = client.post(f"/games/{game['id']}/actions", json={"type": kind, "to": to},
                             headers=auth(tokens[by_seat[seat]]))
        assert played.status_code == 201, played.text
        game = played.json()
    assert game["status"] == "finished"
    return game


def test_deleting_a_user_ends_its_games_and_keeps_its_finished_ones(
    cq_admin: Admin, server: RunningServer, client: httpx.Client
) -> None:
    tokens = {name: insert_user(server.database_url, name) for name in ("gone", "mate", "host")}
    finished = _finished_game(client, server, tokens)
    started = started_game(client, {"mate": tokens["mate"], "gone": tokens["gone"]})
    created = new_game(client, tokens["gone"])  # its own waiting game
    hosted = new_game(client, tokens["host"], players=4)  # another's waiting game
    assert join(client, tokens["gone"], hosted["id"]).status_code == 201

    declined = cq_admin("user", "delete", "gone", input="n\n")
    assert declined.exit_code != 0 and "Aborted" in declined.output
    assert as_json(cq_admin("user", "show", "gone", "--json"))["username"] == "gone"

    answer = as_json(cq_admin("user", "delete", "gone", "--yes", "--json"))
    assert answer["games_left"] == [hosted["id"]]
    assert sorted(answer["games_cancelled"]) == sorted([started["id"], created["id"]])
    anonymous = answer["deleted_as"]
    assert anonymous.startswith("deleted-user-")

    assert get_game(client, tokens["host"], hosted["id"])["waiting_players"] == ["host"]
    for game_id in (started["id"], created["id"]):
        game = get_game(client, tokens["mate"], game_id)
        assert game["status"] == "cancelled"
        assert game["cancel_reason"] == "an administrator deleted the account of gone"
    messages = client.get(f"/games/{started['id']}/messages", headers=auth(tokens["mate"]))
    assert "an administrator deleted the account of gone" in messages.text
    kept = get_game(client, tokens["mate"], finished["id"])
    assert kept["status"] == "finished" and anonymous in kept["scores"]
    assert len(client.get(f"/games/{finished['id']}/actions",
                          headers=auth(tokens["mate"])).json()["actions"]) == 11

    assert httpx.get(server.api + "/users/me", headers=auth(tokens["gone"])).status_code == 401
    missing = cq_admin("user", "show", "gone")
    assert missing.exit_code == 4 and "no user" in missing.output
    login = httpx.post(server.api + "/sessions",
                       json={"username": anonymous, "password": DEFAULT_PASSWORD})
    assert login.status_code in (401, 403)
    again = httpx.post(server.api + "/users", json={
        "username": "gone", "email": "gone@example.test", "password": DEFAULT_PASSWORD})
    assert again.status_code == 201, again.text  # the name and the address are free
