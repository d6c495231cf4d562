"""cq game show --qr against the real server (issue 30, item 2): a waiting game's join
link and its QR code as text, which a QR decoder reads back as that link; a private
game's link carries its code and goes to its players only; a game nobody can join has
no link (exit 4, nothing printed but the reason). On the server's own machine (a profile
on localhost, the server listening on every interface) the link is the address a phone in
the room opens, the one the server's start log names, never localhost (issue 48, item 6).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from client.profiles import Profile, ProfileStore
from tests.client.conftest import make_runner, runner_in
from tests.client.play_helpers import created_id
from tests.support.qr import decode, text_matrix
from tests.support.server import RunningServer, running_server
from tests.support.users import insert_user

Cq = Callable[..., Result]
PLAYERS = ["qrann", "qrben", "qrcat"]
INSERT_PLAYERS = True


@pytest.fixture
def cq(players_cq: Cq) -> Cq:
    return players_cq


def new_game(players_config: Path, *options: str) -> int:
    with runner_in(players_config) as cq:
        created = cq("game", "new", "-b", "5", *options, profile="qrann")
        assert created.exit_code == 0, created.output
        return created_id(created)


def test_qr_prints_a_public_waiting_games_join_link_and_its_code_reads_back(
    cq: Cq, players_config: Path, server: RunningServer
) -> None:
    game = new_game(players_config)
    result = cq("game", "show", "-g", str(game), "--qr", profile="qrcat")  # not a player
    assert result.exit_code == 0, result.output
    link = f"{server.base_url}/games/{game}"
    assert result.output.rstrip("\n").splitlines()[-1] == f"Join game {game}: {link}"
    assert decode(text_matrix(result.output)) == [link]


def test_a_private_games_link_carries_its_code_for_its_players_only(
    cq: Cq, players_config: Path, server: RunningServer
) -> None:
    game = new_game(players_config, "--private")
    shown = cq("game", "show", "-g", str(game), "--json", profile="qrann")
    code = json.loads(shown.output)["invitation_code"]
    assert code
    result = cq("game", "show", "-g", str(game), "--qr", profile="qrann")
    assert result.exit_code == 0, result.output
    link = f"{server.base_url}/games/{game}?code={code}"
    assert decode(text_matrix(result.output)) == [link]
    other = cq("game", "show", "-g", str(game), "--qr", profile="qrcat")
    assert other.exit_code == 4  # the server: no such game (for them)
    assert code not in other.output and "\u2588" not in other.output


def test_a_started_game_has_no_join_link_and_qr_goes_alone(
    cq: Cq, players_config: Path
) -> None:
    game = new_game(players_config)
    assert cq("game", "join", "-g", str(game), profile="qrben").exit_code == 0
    result = cq("game", "show", "-g", str(game), "--qr", profile="qrann")
    assert result.exit_code == 4
    assert "only a waiting game has a join link" in result.output
    assert "\u2588" not in result.output
    mixed = cq("game", "show", "-g", str(game), "--qr", "--json", profile="qrann")
    assert mixed.exit_code == 2 and "--qr goes alone" in mixed.output


def test_on_the_servers_machine_the_link_is_the_address_a_phone_opens(
    tmp_path: Path, config_dir: Path
) -> None:
    cq = make_runner(config_dir)
    with running_server(tmp_path / "party", HOST="0.0.0.0") as party:
        others = re.search(r"others reach it at (http://[^,;\s]+)", party.log_text())
        if others is None:
            pytest.skip("this machine has no network address but loopback")
        port = party.base_url.rsplit(":", 1)[1]
        token = insert_user(party.database_url, "qrhost")
        ProfileStore(config_dir).save(Profile(
            name="host", server_url=f"http://localhost:{port}", username="qrhost", token=token
        ))
        created = cq("game", "new", "-b", "5", profile="host")
        assert created.exit_code == 0, created.output
        game = created_id(created)
        result = cq("game", "show", "-g", str(game), "--qr", profile="host")
    assert result.exit_code == 0, result.output
    link = f"{others.group(1)}/games/{game}"
    assert result.output.rstrip("\n").splitlines()[-1] == f"Join game {game}: {link}"
    assert decode(text_matrix(result.output)) == [link]
    assert "localhost" not in result.output and "127.0.0.1" not in result.output
