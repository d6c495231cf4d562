"""cq-shell in a real terminal (tmux) with the real server and the real cq and cq-admin:
logging in again in the shell's own profile, an administrators' broadcast, and the
toolbar at 80 and 120 columns (issue 25, items 9 and 11)."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from admin.profiles import AdminProfileStore
from client.profiles import Profile, ProfileStore
from tests.admin.admin_support import make_runner as admin_runner
from tests.client.play_helpers import created_id, game_json
from tests.client.terminal import TMUX, Terminal, shell_env
from tests.support.server import RunningServer
from tests.support.users import DEFAULT_PASSWORD, insert_user

Cq = Callable[..., Result]
PLAYERS = ["sue", "tom"]  # signed up through the mail: they have DEFAULT_PASSWORD

pytestmark = [
    pytest.mark.backend_neutral,  # a terminal's layout (tmux)
    pytest.mark.skipif(not Path(TMUX).exists(), reason="tmux is not installed"),
]


@pytest.fixture(scope="module")
def config_dir(players_config: Path) -> Path:
    return players_config


@pytest.fixture
def cq(players_cq: Cq) -> Cq:
    return players_cq


def shell(config_dir: Path, profile: str, width: int, game_id: int) -> Terminal:
    command = f"{shlex.quote(sys.executable)} -m client.shell.app -g {game_id}"
    return Terminal(command, shell_env(config_dir, profile), width=width)


def started(cq: Cq) -> tuple[int, str]:
    """A started 5x5 game of sue and tom; its id and who moves first."""
    game_id = created_id(cq("game", "new", "-b", "5", profile="sue"))
    assert cq("game", "join", "-g", str(game_id), profile="tom").exit_code == 0
    return game_id, game_json(cq, game_id, "sue")["turn_username"]


def toolbar(terminal: Terminal) -> str:
    """The toolbar: the last line of the terminal."""
    return terminal.visible().rstrip("\n").splitlines()[-1]


def test_login_again_in_the_shell_and_in_its_profile_elsewhere_is_no_conflict(
    cq: Cq, config_dir: Path, server: RunningServer
) -> None:
    """`login` in the shell, and `cq login` in the same profile in another terminal,
    replace the profile's own session: no "already logged in elsewhere", no "SESSION
    ENDED" (the shell reads the profile's new session)."""
    game_id, _ = started(cq)
    terminal = shell(config_dir, "sue", 110, game_id)
    try:
        terminal.wait_for(f"| game {game_id} started r")
        terminal.type(f"login -p '{DEFAULT_PASSWORD}'")
        terminal.send("Enter")
        terminal.wait_for(f"Logged in as sue on {server.base_url}.")
        outside = cq("login", "-p", DEFAULT_PASSWORD, profile="sue")  # another terminal
        assert outside.exit_code == 0, outside.output
        terminal.type("show")
        terminal.send("Enter")
        terminal.wait_until(lambda screen: screen.count("Turn: ") >= 2, "the board again")
        terminal.type("user show")
        terminal.send("Enter")
        screen = terminal.wait_for("Username: sue")
        assert "elsewhere" not in screen and "Error" not in screen
        assert "SESSION ENDED" not in toolbar(terminal)
        token = ProfileStore(config_dir).load("sue").token
        assert token and cq("user", "show", profile="sue").exit_code == 0
    finally:
        terminal.close()


def test_an_administrators_broadcast_appears_in_the_shell(
    cq: Cq, config_dir: Path, server: RunningServer
) -> None:
    game_id, _ = started(cq)
    admin_store = AdminProfileStore(config_dir)
    admin_store.save(Profile(name="root", server_url=server.base_url, username="root",
                             token=insert_user(server.database_url, "root", is_admin=True)))
    terminal = shell(config_dir, "tom", 110, game_id)
    try:
        terminal.wait_for(f"| game {game_id} started r")
        sent = admin_runner(config_dir)("server", "broadcast", "Server restarts at noon")
        assert sent.exit_code == 0, sent.output
        terminal.wait_for("Message from the administrators: Server restarts at noon")
    finally:
        terminal.close()


@pytest.mark.parametrize("width", [80, 120])
def test_the_toolbar_fits_the_terminal(cq: Cq, config_dir: Path, width: int) -> None:
    game_id, first = started(cq)
    terminal = shell(config_dir, first, width, game_id)
    try:
        terminal.wait_for("YOUR TURN")
        line = toolbar(terminal)
        assert len(line) <= width
        assert line.rstrip().endswith("YOUR TURN" if width == 80 else "[F5 board, F1 help]")
        assert f"game {game_id} started r" in line
        if width == 120:  # room for everything
            assert f"{first} @ http://127.0.0.1:" in line and f"profile {first}" in line
    finally:
        terminal.close()
