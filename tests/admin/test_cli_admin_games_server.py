"""`cq-admin game/player/server/audit` against the real server, as an administrator and
refused as a player."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from admin.commands.audit import since_value
from corridorquest.store import Store
from corridorquest.store.models import Game, utcnow
from tests.admin.admin_support import ADMIN, Admin, assert_refused_to_a_player
from tests.support.games import get_game, join, new_game, started_game
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user

SECRET = "sm7p-s3cret-word"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """This module's server has secrets to hide."""
    with running_server(tmp_path_factory.mktemp("server"), SMTP_PASSWORD=SECRET,
                        NTFY_TOKEN=SECRET + "-ntfy") as running:
        yield running


def ok(result: Any) -> str:
    assert result.exit_code == 0, result.output
    return str(result.output)


def as_json(result: Any) -> Any:
    return json.loads(ok(result))


def messages(client: httpx.Client, token: str, game_id: int) -> str:
    found = client.get(f"/games/{game_id}/messages", headers=auth(token))
    assert found.status_code == 200, found.text
    return found.text


@pytest.fixture(scope="module")
def players(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in ("ann", "bob", "cy")}


PLAYER_COMMANDS = [
    ("game", "list"), ("game", "show", "1"), ("game", "cancel", "1"),
    ("player", "remove", "-g", "1", "ann"), ("server", "motd", "hi"),
    ("server", "motd", "--clear"), ("server", "message-limit", "5"),
    ("server", "broadcast", "hello"), ("server", "stats"), ("server", "settings"),
    ("server", "maintenance"), ("audit",),
]


@pytest.mark.parametrize("command", PLAYER_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_every_game_server_and_audit_command_is_refused_to_a_player(
    cq_admin: Admin, command: tuple[str, ...]
) -> None:
    assert_refused_to_a_player(cq_admin, command)


def test_game_list_and_show_include_private_games(
    cq_admin: Admin, client: httpx.Client, players: dict[str, str]
) -> None:
    private = new_game(client, players["ann"], private=True)
    listed = as_json(cq_admin("game", "list", "--json"))
    assert private["id"] in [g["id"] for g in listed]
    by_user = as_json(cq_admin("game", "list", "-u", "ann", "-s", "waiting", "--json"))
    assert [g["id"] for g in by_user] == [private["id"]]
    assert str(private["id"]) in ok(cq_admin("game", "list"))
    shown = as_json(cq_admin("game", "show", str(private["id"]), "--json"))
    assert shown["invitation_code"] == private["invitation_code"]
    assert f"Invitation code: {private['invitation_code']}" in ok(
        cq_admin("game", "show", str(private["id"])))
    missing = cq_admin("game", "show", "999999")
    assert missing.exit_code == 4 and "no game 999999" in missing.output
    bad = cq_admin("game", "show", "x")
    assert bad.exit_code == 2


def test_cancel_a_game_with_a_message_for_its_players(
    cq_admin: Admin, client: httpx.Client, players: dict[str, str]
) -> None:
    game = started_game(client, {"ann": players["ann"], "bob": players["bob"]})
    assert "is cancelled" in ok(cq_admin("game", "cancel", str(game["id"])))
    after = get_game(client, players["bob"], game["id"])
    assert after["status"] == "cancelled"
    assert "an administrator cancelled the game" in messages(client, players["bob"], game["id"])
    again = cq_admin("game", "cancel", str(game["id"]))
    assert again.exit_code == 4 and "cancelled" in again.output


def test_remove_a_player_frees_a_waiting_seat_and_cancels_a_started_game(
    cq_admin: Admin, client: httpx.Client, players: dict[str, str]
) -> None:
    waiting = new_game(client, players["ann"], players=4)
    assert join(client, players["cy"], waiting["id"]).status_code == 201
    freed = cq_admin("player", "remove", "-g", str(waiting["id"]), "cy")
    assert "the seat is free" in ok(freed)
    assert get_game(client, players["ann"], waiting["id"])["waiting_players"] == ["ann"]
    assert "cy left the game" in messages(client, players["ann"], waiting["id"])

    started = started_game(client, {"ann": players["ann"], "bob": players["bob"]})
    answer = as_json(cq_admin("player", "remove", "-g", str(started["id"]), "bob", "--json"))
    assert answer["outcome"] == "cancelled" and answer["game"]["status"] == "cancelled"
    assert "an administrator removed bob" in messages(client, players["ann"], started["id"])

    stranger = cq_admin("player", "remove", "-g", str(waiting["id"]), "bob")
    assert stranger.exit_code == 4 and "not a player" in stranger.output


def test_motd_message_limit_and_broadcast(
    cq_admin: Admin, server: RunningServer, client: httpx.Client, players: dict[str, str]
) -> None:
    assert "Message of the day: Tea at five" in ok(cq_admin("server", "motd", "Tea at five"))
    assert httpx.get(server.api + "/server/info").json()["motd"] == "Tea at five"
    assert "No message of the day" in ok(cq_admin("server", "motd", "--clear"))
    assert httpx.get(server.api + "/server/info").json()["motd"] is None
    assert cq_admin("server", "motd").exit_code == 2
    assert cq_admin("server", "motd", "x", "--clear").exit_code == 2

    game = started_game(client, {"bob": players["bob"], "cy": players["cy"]})
    assert "Sent to" in ok(cq_admin("server", "broadcast", "Restart at noon"))
    assert "Restart at noon" in messages(client, players["cy"], game["id"])

    assert "1 messages per player" in ok(cq_admin("server", "message-limit", "1"))
    first = client.post(f"/games/{game['id']}/messages", json={"text": "one"},
                        headers=auth(players["bob"]))
    assert first.status_code == 201, first.text
    second = client.post(f"/games/{game['id']}/messages", json={"text": "two"},
                         headers=auth(players["bob"]))
    assert second.status_code == 409 and second.json()["reason"] == "message_limit_reached"
    ok(cq_admin("server", "message-limit", "100"))
    assert cq_admin("server", "message-limit", "-1").exit_code == 2


def test_stats_and_settings_with_secrets_hidden(cq_admin: Admin) -> None:
    stats = as_json(cq_admin("server", "stats", "--json"))
    assert stats["users"]["total"] >= 5 and stats["users"]["admins"] >= 1
    assert set(stats["games"]) == {"waiting", "started", "finished", "cancelled"}
    assert stats["active_sessions"] >= 2 and isinstance(stats["outbox_pending"], dict)
    assert all({"size", "players", "status", "games"} <= set(v) for v in stats["variants"])
    assert "Active sessions:" in ok(cq_admin("server", "stats"))

    settings = as_json(cq_admin("server", "settings", "--json"))
    assert settings["smtp_password"] == "(hidden)" and settings["ntfy_token"] == "(hidden)"
    text = ok(cq_admin("server", "settings"))
    assert "SMTP_PASSWORD=(hidden)" in text and "EMAIL_BACKEND=file" in text
    # as corridorquest.env writes them, ready to copy there
    assert "REQUIRE_HTTPS=false" in text and "WEB_WATCH_WITHOUT_LOGIN=true" in text
    assert SECRET not in text and SECRET not in json.dumps(settings)


def test_maintenance_runs_every_sweep_now_and_says_what_each_did(
    cq_admin: Admin, server: RunningServer, client: httpx.Client, players: dict[str, str]
) -> None:
    game = new_game(client, players["ann"])
    ok(cq_admin("game", "cancel", str(game["id"])))
    # cancelled long ago: past CANCELLED_RETENTION (30 days by default)
    store = Store.open(server.database_url, pool_size=1, migrate=False)
    try:
        store.run(lambda: Game.update(cancelled_at=utcnow() - timedelta(days=31))
                  .where(Game.id == game["id"]).execute())
    finally:
        store.close()
    done = as_json(cq_admin("server", "maintenance", "--json"))
    counts = {step["what"]: step["count"] for step in done["steps"]}
    assert "cancelled games purged" in counts and "stall reminders sent" in counts
    assert counts["cancelled games purged"] >= 1  # (the scheduler may purge others too)
    gone = client.get(f"/games/{game['id']}", headers=auth(players["ann"]))
    assert gone.status_code == 404
    text = ok(cq_admin("server", "maintenance"))
    assert "cancelled games purged: 0" in text and "stalled players removed: " in text
    assert as_json(cq_admin("audit", "--json"))[0]["action"] == "server.maintenance"


def test_the_audit_log_records_every_admin_action(cq_admin: Admin, server: RunningServer) -> None:
    insert_user(server.database_url, "audited")
    ok(cq_admin("user", "lock", "audited"))
    ok(cq_admin("user", "unlock", "audited"))
    entries = as_json(cq_admin("audit", "--json"))
    assert [e["action"] for e in entries[:2]] == ["user.unlock", "user.lock"]
    assert entries[0]["admin"] == ADMIN and entries[0]["target"] == "user audited"
    actions = {e["action"] for e in entries}
    assert {"game.cancel", "player.remove", "server.motd", "server.message_limit",
            "server.broadcast"} <= actions
    assert as_json(cq_admin("audit", "--user", ADMIN, "--since", "1h", "--json")) == entries
    assert as_json(cq_admin("audit", "--user", "nobody", "--json")) == []
    assert as_json(cq_admin("audit", "--since", "2999-01-01", "--json")) == []
    assert "user.unlock" in ok(cq_admin("audit", "--limit", "3"))
    bad = cq_admin("audit", "--since", "last tuesday")
    assert bad.exit_code == 2 and "--since" in bad.output


def test_since_accepts_ages_and_iso_moments() -> None:
    now = datetime(2026, 5, 2, 12, 0, tzinfo=UTC)
    assert since_value("2d", now) == "2026-04-30T12:00:00Z"
    assert since_value("30m", now) == "2026-05-02T11:30:00Z"
    assert since_value("2026-05-01T12:00Z") == "2026-05-01T12:00Z"
    assert since_value(None) is None
