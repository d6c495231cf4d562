"""cq against real servers: server URLs without a scheme, https:// to a plain-HTTP server and
to a TLS one, sessions that ended elsewhere in `profile list`, missing profiles, the ntfy
topic, and the game commands of cq-shell without the `game` prefix."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from client.profiles import Profile, ProfileStore
from tests.client.conftest import make_runner
from tests.client.play_helpers import created_id
from tests.support.server import RunningServer, running_server
from tests.support.tls import self_signed_certificate
from tests.support.users import DEFAULT_PASSWORD, make_user

pytestmark = pytest.mark.backend_neutral  # cq's output; the server: tests/api on both backends

Cq = Callable[..., Result]
ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["ann", "ben"]


@pytest.fixture
def cq(players_cq: Cq) -> Cq:
    return players_cq


def host_port(server: RunningServer) -> str:
    return server.base_url.split("://", 1)[1]


def test_a_server_url_without_a_scheme_is_http(cq: Cq, server: RunningServer) -> None:
    result = cq("server", "info", "-s", host_port(server))
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"Server: {server.base_url}\n")
    with_slash = cq("server", "info", "-m", "--server-url", host_port(server) + "/")
    assert with_slash.exit_code == 0, with_slash.output


def test_a_login_without_a_scheme_remembers_the_http_url(
    server: RunningServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_user(server.base_url, server.mail_dir, "cleo")
    monkeypatch.setenv("CQ_CONFIG_DIR", str(tmp_path))
    cq = make_runner(tmp_path)
    result = cq("login", "-s", host_port(server), "-u", "cleo", "-p", DEFAULT_PASSWORD,
                "--replace")
    assert result.exit_code == 0, result.output
    assert ProfileStore(tmp_path).load("default").server_url == server.base_url
    assert cq("user", "show").exit_code == 0


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningServer, Path]]:
    cert, key = self_signed_certificate(tmp_path_factory.mktemp("tls"))
    with running_server(tmp_path_factory.mktemp("tls-server"), TLS_CERT=cert,
                        TLS_KEY=key) as running:
        yield running, cert


def test_https_to_a_plain_http_server_says_so_and_to_a_tls_server_works(
    cq: Cq, server: RunningServer, tls_server: tuple[RunningServer, Path]
) -> None:
    https = "https://" + host_port(server)
    result = cq("server", "info", "-s", https)
    assert result.exit_code == 5, result.output
    assert result.stderr == (f"Error: the server at {https} does not speak HTTPS (it answers "
                             f"plain HTTP at {server.base_url})\n")
    # the check leaves real TLS servers alone: trusted, it works; untrusted, it is not
    # called a plain-HTTP server
    tls, cert = tls_server
    trusted = cq("server", "info", "-s", tls.base_url, env={"SSL_CERT_FILE": str(cert)})
    assert trusted.exit_code == 0, trusted.output
    assert trusted.output.startswith(f"Server: {tls.base_url}\n")
    untrusted = cq("server", "info", "-s", tls.base_url)
    assert untrusted.exit_code == 5
    assert "CERTIFICATE_VERIFY_FAILED" in untrusted.stderr
    assert "does not speak HTTPS" not in untrusted.stderr


def test_profile_list_asks_the_server_whether_a_session_still_works(
    server: RunningServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = make_user(server.base_url, server.mail_dir, "dora")
    store = ProfileStore(tmp_path)
    store.save(Profile(name="laptop", server_url=server.base_url, username="dora", token=token))
    monkeypatch.setenv("CQ_CONFIG_DIR", str(tmp_path))
    cq = make_runner(tmp_path)
    assert cq("profile", "list").output == (
        f"* default: does not exist yet ('cq login' or 'cq signup' creates it)\n"
        f"  laptop: dora on {server.base_url} (logged in)\n")
    # dora logs in on another computer and replaces the laptop's session
    replaced = cq("login", "-s", server.base_url, "-u", "dora", "-p", DEFAULT_PASSWORD,
                  "--replace", "-P", "desk")
    assert replaced.exit_code == 0, replaced.output
    assert cq("profile", "list").output.splitlines()[1:] == [
        f"  desk: dora on {server.base_url} (logged in)",
        f"  laptop: dora on {server.base_url} (session ended (expired, or replaced by a "
        "login elsewhere): 'cq login')",
    ]
    offline = cq("profile", "list", "--offline").output.splitlines()
    assert offline[2] == f"  laptop: dora on {server.base_url} (has a session, not checked)"


def test_a_chosen_profile_that_does_not_exist_is_named(
    cq: Cq, server: RunningServer, players_config: Path
) -> None:
    result = cq("user", "show", profile="nosuch")
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: the profile 'nosuch' does not exist (CQ_PROFILE=nosuch; profiles: ann, ben); "
        "'cq login -P nosuch' creates it\n")
    listed = cq("profile", "list", "--offline", profile="nosuch").output.splitlines()
    assert listed[-1] == ("* nosuch: does not exist (chosen by CQ_PROFILE=nosuch; "
                          "'cq login -P nosuch' creates it)")
    assert not any(line.startswith("*") for line in listed[:-1])
    # commands that create a profile still do: a password change for a forgotten password
    changed = cq("user", "password", "another good one", "-u", "ann", "-s", server.base_url,
                 profile="nosuch")
    assert changed.exit_code == 0, changed.output
    created = ProfileStore(players_config).load("nosuch")
    assert (created.username, created.verification_purpose) == ("ann", "password")


def test_an_empty_ntfy_topic_clears_it_and_the_manual_spelling_works(cq: Cq) -> None:
    result = cq("user", "ntfy_dm_topic", "-n", "a-secret-topic", profile="ben")
    assert result.output == "ntfy DM topic set to a-secret-topic.\n", result.output
    cleared = cq("user", "ntfy-dm-topic", "-n", "", profile="ben")
    assert cleared.exit_code == 0, cleared.output
    assert cleared.output == "ntfy DM topic cleared: DMs are no longer sent to ntfy.sh.\n"
    assert "ntfy DM topic: (not set)" in cq("user", "show", profile="ben").output


def test_the_shell_runs_game_commands_without_the_game_prefix(
    cq: Cq, players_config: Path
) -> None:
    game_id = created_id(cq("game", "new", "-b", "5", profile="ann"))
    env = dict(os.environ, CQ_CONFIG_DIR=str(players_config), CQ_PROFILE="ann",
               CQ_DATA_DIR=str(players_config / "data"), NO_COLOR="1")
    done = subprocess.run(
        [sys.executable, "-m", "client.shell.app", "-g", str(game_id), "-e",
         "message send hello from the shell"],
        capture_output=True, text=True, env=env, timeout=60, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert f"Broadcast sent to game {game_id}" in done.stdout
    listed = cq("game", "message", "list", "-g", str(game_id), profile="ann")
    assert "[ann] hello from the shell" in listed.output
