"""`cq-admin user convert` and `delete` on guest accounts (GUESTS=on) against the real
server, and the guest mark in `cq game show` / `cq game list`'s text."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

from client.render.game_text import render_game, render_game_list
from tests.admin.admin_support import PLAYER, Admin, assert_refused_to_a_player
from tests.support.games import get_game, join, new_game
from tests.support.server import RunningServer, running_server
from tests.support.users import auth


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("server"), GUESTS="on") as running:
        yield running


def guest(client: httpx.Client, name: str) -> str:
    made = client.post("/guests", json={"username": name})
    assert made.status_code == 201, made.text
    return str(made.json()["token"])


def test_convert_turns_a_guest_into_a_full_account(
    cq_admin: Admin, client: httpx.Client
) -> None:
    guest(client, "gwen")
    assert_refused_to_a_player(cq_admin, ("user", "convert", "gwen", "gwen@example.test"))
    done = cq_admin("user", "convert", "gwen", "gwen@example.test")
    assert done.exit_code == 0, done.output
    assert "gwen is a full account now" in done.output and "gwen@example.test" in done.output
    assert client.get("/users/gwen").json()["guest"] is False
    again = cq_admin("user", "convert", "gwen", "other@example.test")
    assert again.exit_code != 0 and "not a guest" in again.output
    shown = json.loads(cq_admin("user", "show", "gwen", "--json").output)
    assert shown["email"] == "gwen@example.test"


def test_delete_removes_a_guest(cq_admin: Admin, client: httpx.Client) -> None:
    token = guest(client, "dora")
    done = cq_admin("user", "delete", "dora", "--yes")
    assert done.exit_code == 0, done.output
    assert client.get("/users/me", headers=auth(token)).status_code == 401


def test_cq_game_show_and_list_mark_a_guest(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    token = guest(client, "gil")
    game = new_game(client, tokens[PLAYER], size=9, players=4)
    assert join(client, token, game["id"]).status_code == 201
    view = get_game(client, tokens[PLAYER], game["id"])
    assert "gil (guest)" in render_game(view, None, me=PLAYER)
    listed = client.get("/games", headers=auth(token)).json()["games"]
    assert "gil (guest)" in render_game_list(listed)
