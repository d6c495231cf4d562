"""cq game show --qr against the real server (issue 30, item 2): a waiting game's join
link and its QR code as text, which a QR decoder reads back as that link; a private
game's link carries its code and goes to its players only; a game nobody can join has
no link (exit 4, nothing printed but the reason)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from tests.client.conftest import runner_in
from tests.client.play_helpers import created_id
from tests.support.qr import decode, text_matrix
from tests.support.server import RunningServer

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
