"""cq without a server: help at every level, usage errors, profiles, exit codes."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

import click
import pytest
from click.testing import Result

from client.cli import cli
from client.profiles import Profile, ProfileStore
from gen_reference import walk

pytestmark = pytest.mark.backend_neutral  # no database: cq's parsing and wording

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
                                 "profile", "game",
                                 "leaderboard",  # issue 28: as `cq game leaderboard`
                                 "tournament"}  # issue 30: tournaments
    tournament = cli.commands["tournament"]
    assert isinstance(tournament, click.Group)
    assert set(tournament.commands) == {"new", "list", "show", "join", "leave", "start",
                                        "add-bot", "remove"}
    user = cli.commands["user"]
    game = cli.commands["game"]
    assert isinstance(user, click.Group) and isinstance(game, click.Group)
    assert set(user.commands) == {"password", "email-address", "verify", "description",
                                  "username", "show", "notify", "ntfy-dm-topic", "theme",
                                  "profile"}
    manual = {"show", "new", "list", "join", "change", "cancel", "message", "move", "jump",
              "place", "mark", "unmark", "offer", "trade", "leaderboard"}
    since = {
        "watch",  # added after the manual (issue 16: follow a game live)
        "bot",  # issue 27: seat a bot
        "export", "import", "analyse",  # issue 31: game records and analysis
        "rematch",  # the same finished game again (as lichess)
    }
    assert set(game.commands) == manual | since


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["game", "new", "-b", "8"], "8 is not a board size"),
        (["game", "new", "--board-size", "19"], "19 is not a board size"),
        (["game", "new", "-n", "3"], "'3' is not one of '2', '4'"),
        (["game", "show"], "Missing option '-g' / '--game-id'"),
        (["game", "show", "-g", "0"], "'0' is not a game id: a game id is a whole number "
         "from 1 up, as 'cq game list' shows"),
        (["game", "show", "-g", "abc"], "'abc' is not a game id: a game id is a whole number"),
        (["game", "message", "send", "-g", "-3", "hi"], "'-3' is not a game id"),
        (["server", "info", "-s", "ftp://example.test"], "use http:// or https:// (not ftp://)"),
        (["login", "-s", "http://", "-u", "bob"], "'http://' is not a server URL: it names no "
         "host"),
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


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_profile_list_and_switch(cq: Cq) -> None:
    assert cq("profile", "list").output.startswith("No profiles yet")
    store = ProfileStore()
    nowhere = f"http://127.0.0.1:{closed_port()}"
    store.save(Profile(name="default", server_url=nowhere, username="alice", token="t"))
    store.save(Profile(name="bob", server_url="http://example.test:9", username="bob"))
    listed = cq("profile", "list").output.splitlines()
    assert listed == ["  bob: bob on http://example.test:9 (logged out)",
                      f"* default: alice on {nowhere} (has a session, not checked: the server "
                      "cannot be reached)"]
    assert cq("profile", "list", "--offline").output.splitlines()[1] == (
        f"* default: alice on {nowhere} (has a session, not checked)")
    assert cq("profile", "switch", "bob").output == "Switched to profile 'bob'.\n"
    assert cq("profile", "list").output.splitlines()[0].startswith("* bob")
    assert cq("user", "profile", "list", profile="default").output.splitlines()[1].startswith(
        "* default")
    refused = cq("profile", "switch", "carol")
    assert refused.exit_code == 2
    assert refused.stderr == "Error: no profile named 'carol' (profiles: bob, default)\n"
    assert ProfileStore().current_name() == "bob"


def test_a_missing_current_profile_is_marked_and_named(cq: Cq, config_dir: Path) -> None:
    store = ProfileStore()
    store.save(Profile(name="work", username="alice"))
    store.save(Profile(name="home", username="alice"))
    store.switch("work")
    (config_dir / "profiles" / "work.json").unlink()
    assert cq("profile", "list").output.splitlines() == [
        "  home: alice on http://localhost:3000 (logged out)",
        "* work: does not exist (chosen with 'cq profile switch'; 'cq profile switch NAME' "
        "picks another, 'cq login' creates it)",
    ]
    shown = cq("user", "show")
    assert shown.exit_code == 2
    assert shown.stderr == (
        "Error: the profile 'work' does not exist (chosen with 'cq profile switch'; another "
        "one: 'cq profile switch NAME'; profiles: home); 'cq login -P work' creates it\n")
    # the implicit default profile of a fresh install is not an error: "not logged in"
    (config_dir / "current").unlink()
    assert cq("user", "show").exit_code == 3
    assert cq("profile", "list").output.splitlines()[0] == (
        "* default: does not exist yet ('cq login' or 'cq signup' creates it)")


def test_help_marks_what_is_required_and_what_is_prompted(cq: Cq) -> None:
    show = cq("game", "show", "--help").output
    assert show.startswith("Usage: cq game show [OPTIONS] --game-id <GAME_ID>\n")
    assert "The ID of the game to show  [required]" in show
    password = cq("user", "password", "--help").output
    assert password.startswith("Usage: cq user password [OPTIONS] [NEW_PASSWORD]\n")
    assert "prompted for" in password
    for spelling in ("ntfy-dm-topic", "ntfy_dm_topic"):
        topic = cq("user", spelling, "--help")
        assert topic.exit_code == 0
        assert '"" clears it' in topic.output
    server = cq("server", "info", "--help").output
    assert "without a scheme http:// is meant" in " ".join(server.split())


def test_python_dash_m_client_runs_cq() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "client", "--version"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout.startswith("cq, version")


def nothing_on_the_default_port() -> bool:
    try:
        socket.create_connection(("localhost", 3000), timeout=1).close()
    except OSError:
        return True
    return False


@pytest.mark.parametrize("command", [["signup", "-e", "nia@example.test"], ["login"]])
def test_without_a_terminal_and_a_server_cq_says_how_to_name_one(
    command: list[str], tmp_path: Path
) -> None:
    """stdin not a terminal (a script, a pipe): no servers are looked for on the network;
    the default address does not answer, and cq says how to name the server."""
    import os
    import subprocess
    import sys

    if not nothing_on_the_default_port():
        pytest.skip("something listens on localhost:3000 on this machine")
    env = dict(os.environ, CQ_CONFIG_DIR=str(tmp_path / "config"), NO_COLOR="1")
    env.pop("CQ_PROFILE", None)
    done = subprocess.run(
        [sys.executable, "-m", "client", *command, "-u", "nia", "-p", "a long password"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env, timeout=60,
    )
    assert done.returncode == 5, done.stderr
    error = " ".join(done.stderr.split())
    assert error.startswith("Error: cannot reach the server at http://localhost:3000")
    assert "-s URL" in error and "cq server find" in error
    assert "Looking for servers" not in done.stderr  # no terminal: nothing looked for
    assert not (tmp_path / "config").exists()  # no profile made
