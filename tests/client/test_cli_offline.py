"""cq without a server: help at every level, usage errors, profiles, exit codes."""

from __future__ import annotations

import socket
from collections.abc import Callable

import click
import pytest
from click.testing import Result

from client.cli import cli
from client.gen_reference import walk
from client.profiles import Profile, ProfileStore

Cq = Callable[..., Result]
ALL_PATHS = [path for path, _ in walk(cli, [])]


@pytest.mark.parametrize("path", ALL_PATHS, ids=lambda p: " ".join(p) or "cq")
def test_every_command_has_help(cq: Cq, path: list[str]) -> None:
    for flag in ("--help", "-h"):
        result = cq(*path, flag)
        assert result.exit_code == 0, result.output
        assert result.output.startswith("Usage: cq " + " ".join(path))


def test_command_tree_matches_the_manual() -> None:
    assert set(cli.commands) == {"signup", "login", "logout", "verify", "server", "user",
                                 "profile", "game"}
    user = cli.commands["user"]
    game = cli.commands["game"]
    assert isinstance(user, click.Group) and isinstance(game, click.Group)
    assert set(user.commands) == {"password", "email-address", "verify", "description",
                                  "username", "show", "notify", "ntfy-dm-topic", "theme",
                                  "profile"}
    manual = {"show", "new", "list", "join", "change", "cancel", "message", "move", "jump",
              "place", "mark", "unmark", "offer", "trade", "leaderboard"}
    assert set(game.commands) == manual


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["game", "new", "-b", "8"], "8 is not a board size"),
        (["game", "new", "--board-size", "19"], "19 is not a board size"),
        (["game", "new", "-n", "3"], "'3' is not one of '2', '4'"),
        (["game", "show"], "Missing option '-g' / '--game-id'"),
        (["game", "show", "-g", "0"], "0 is not in the range x>=1"),
        (["game", "show", "-g", "abc"], "'abc' is not a valid integer"),
        (["game", "move", "-g", "1"], "Missing argument '<TO>'"),
        (["game", "list", "-s", "running"], "'running' is not one of"),
        (["user", "theme", "pink"], "'pink' is not one of 'dark', 'light', 'translucent'"),
        (["user", "notify"], "give at least one of --game, --action, --turn"),
        (["verify"], "Missing option '-c' / '--code'"),
        (["signup", "-u", "bob"], "Missing option '-e' / '--email-address'"),
        (["game", "fly"], "No such command 'fly'"),
    ],
)
def test_bad_option_values_are_usage_errors(cq: Cq, args: list[str], message: str) -> None:
    result = cq(*args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "args",
    [["game", "list"], ["game", "show", "-g", "1"], ["user", "show"], ["logout"],
     ["game", "move", "-g", "1", "north"], ["user", "theme", "dark"]],
)
def test_commands_need_a_login(cq: Cq, args: list[str]) -> None:
    result = cq(*args)
    assert result.exit_code == 3
    assert result.stderr.strip() == "Error: not logged in: run 'cq login' first" or (
        result.stderr.strip() == "Error: not logged in")


def test_unreachable_server_exits_5_with_one_line(cq: Cq) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = cq("server", "info", "-s", f"http://127.0.0.1:{port}")
    assert result.exit_code == 5
    assert result.stderr.startswith(f"Error: cannot reach the server at http://127.0.0.1:{port}")
    assert len(result.stderr.strip().splitlines()) == 1


def test_verify_without_pending_verification_is_refused(cq: Cq) -> None:
    result = cq("verify", "-c", "123456")
    assert result.exit_code == 1
    assert "nothing to verify in this profile" in result.stderr


def test_profile_list_and_switch(cq: Cq) -> None:
    assert cq("profile", "list").output.startswith("No profiles yet")
    store = ProfileStore()
    store.save(Profile(name="default", username="alice", token="t"))
    store.save(Profile(name="bob", server_url="http://example.test:9", username="bob"))
    listed = cq("profile", "list").output.splitlines()
    assert listed == ["  bob: bob on http://example.test:9 (logged out)",
                      "* default: alice on http://localhost:3000 (logged in)"]
    assert cq("profile", "switch", "bob").output == "Switched to profile 'bob'.\n"
    assert cq("profile", "list").output.splitlines()[0].startswith("* bob")
    assert cq("user", "profile", "list", profile="default").output.splitlines()[1].startswith(
        "* default")
    refused = cq("profile", "switch", "carol")
    assert refused.exit_code == 1
    assert "no profile named 'carol' (profiles: bob, default)" in refused.stderr
    assert ProfileStore().current_name() == "bob"


def test_python_dash_m_client_runs_cq() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "client", "--version"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout.startswith("cq, version")
