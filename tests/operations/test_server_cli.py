"""`corridorquest serve`: settings errors, first start, one process per SQLite file, TLS,
a busy port, the modes of the files it creates, where others reach it."""

from __future__ import annotations

import logging
import socket
import ssl
import stat
import subprocess
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from corridorquest import listening
from corridorquest.cli import main
from corridorquest.server_cli import warn_about_exposure
from corridorquest.settings import Settings
from tests.support.server import (
    free_port,
    running_server,
    server_env,
    start_process,
    stop,
    wait_until_up,
)
from tests.support.users import make_user

pytestmark = pytest.mark.backend_neutral  # serve: settings, TLS, files; SQLite whatever the URL


def test_serve_help_lists_its_options() -> None:
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--env-file", "--host", "--port"):
        assert option in result.output


@pytest.mark.parametrize(
    ("env", "args", "complaint"),
    [
        ({"PORT": "three"}, [], "PORT"),
        ({"EMAIL_BACKEND": "pigeon"}, [], "EMAIL_BACKEND"),
        ({"TLS_CERT": "/nonexistent/cert.pem"}, [], "TLS_CERT and TLS_KEY"),
        ({}, ["--env-file", "/nonexistent/server.env"], "server.env"),
        ({}, ["--port", "70000"], "70000"),
        ({"TLS_CERT": "{tmp}/bad.pem", "TLS_KEY": "{tmp}/bad.pem"}, [], "cannot use TLS_CERT"),
        # Sanic would take the client's address from a header any client can send
        ({"SANIC_REAL_IP_HEADER": "X-Real-IP"}, [], "SANIC_REAL_IP_HEADER is set"),
    ],
)
def test_serve_refuses_bad_settings_with_one_clear_line(
    env: dict[str, str], args: list[str], complaint: str, tmp_path: Path
) -> None:
    (tmp_path / "bad.pem").write_text("not a certificate")
    env = {name: value.replace("{tmp}", str(tmp_path)) for name, value in env.items()}
    result = CliRunner().invoke(main, ["serve", *args], env={"DATA_DIR": str(tmp_path), **env})
    assert result.exit_code != 0
    assert complaint in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "corridorquest.db").exists()


def test_first_start_creates_the_data_dir_and_the_default_database(tmp_path: Path) -> None:
    with running_server(tmp_path, DATABASE_URL="") as server:
        assert (server.data_dir / "corridorquest.db").is_file()
        assert "database migrated to version 1" in server.log_text()
        # written for an administrator: no references to the developers' spec
        assert "SPEC" not in server.log_text()


def test_a_second_server_on_the_same_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    """The default file is per OS user: a second server (another clone, another port)
    must not silently share it with the first."""
    with running_server(tmp_path / "first", DATABASE_URL="") as first:
        database = first.data_dir / "corridorquest.db"
        second_dir = tmp_path / "second"
        second_dir.mkdir()
        port = free_port()
        env = server_env(second_dir, "", port, DATA_DIR=first.data_dir)
        process, log_path = start_process(second_dir, env)
        try:
            with pytest.raises(RuntimeError, match="server exited with 1"):
                wait_until_up(f"http://127.0.0.1:{port}", process, log_path)
        finally:
            stop(process)
        said = log_path.read_text()
        assert f"the SQLite database {database.resolve()} is in use" in said
        assert f"pid {first.process.pid}" in said
        assert f"port {first.base_url.rsplit(':', 1)[1]}" in said
        assert "Traceback" not in said
        # the first one never noticed: it signs a user up (writes) and answers
        assert make_user(first.base_url, first.mail_dir, "ana")
        assert first.process.poll() is None


def test_a_killed_server_leaves_no_lock_behind(tmp_path: Path) -> None:
    with running_server(tmp_path / "first", DATABASE_URL="") as first:
        first.process.kill()
        first.process.wait()
    with running_server(tmp_path / "next", DATABASE_URL="", DATA_DIR=first.data_dir) as again:
        assert make_user(again.base_url, again.mail_dir, "ben")


def test_serves_https_when_a_certificate_is_configured(tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
        + ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        + ["-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    with running_server(tmp_path, TLS_CERT=cert, TLS_KEY=key) as server:
        assert server.base_url.startswith("https://")
        trust = ssl.create_default_context(cafile=str(cert))
        info = httpx.get(server.api + "/server/info", verify=trust)
        assert info.status_code == 200 and info.json()["version"]


def test_a_busy_port_is_one_line_naming_the_port_and_the_option(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process, log_path = start_process(tmp_path, server_env(tmp_path, "", port))
        try:
            assert process.wait(20) == 1
        finally:
            stop(process)
    said = log_path.read_text().strip().splitlines()
    assert "Traceback" not in log_path.read_text()
    assert said[-1].startswith(f"Error: port {port} is already in use")
    assert "--port" in said[-1]
    assert not any("listening" in line for line in said)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_database_its_log_and_its_backups_are_the_owners_alone(tmp_path: Path) -> None:
    """They hold password hashes and e-mail addresses: 600, the data directory 700."""
    with running_server(tmp_path, DATABASE_URL="") as server:
        database = server.data_dir / "corridorquest.db"
        assert make_user(server.base_url, server.mail_dir, "ana")  # a write: -wal and -shm
        assert mode(server.data_dir) == 0o700
        for path in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
            assert mode(path) == 0o600, path
        backup = tmp_path / "backup.db"
        done = CliRunner().invoke(
            main, ["backup", str(backup)], env={"DATA_DIR": str(server.data_dir)}
        )
        assert done.exit_code == 0, done.output
        assert mode(backup) == 0o600
        assert "can be read by other users" not in server.log_text()
    # a database that others can read (an older server made it so) is not changed
    # silently: the start says so
    database.chmod(0o644)
    with running_server(tmp_path / "again", DATABASE_URL="", DATA_DIR=server.data_dir) as again:
        assert f"the database {database} can be read by other users" in again.log_text()
        assert f"chmod 600 {database}" in again.log_text()
    assert mode(database) == 0o644


def test_on_every_interface_the_start_names_the_machines_addresses() -> None:
    line = listening.listening_line("http", "0.0.0.0", 3000)
    assert line.startswith("Corridor Quest listening on every interface (http://0.0.0.0:3000)")
    assert line.endswith("this machine at http://localhost:3000")
    urls = line.split("others reach it at ", 1)[1].split(";")[0].split(", ")
    if listening.machine_addresses(ipv6=False):  # a machine on a network
        for url in urls:
            host = url.removeprefix("http://").rsplit(":", 1)[0]
            assert not host.startswith("127."), line
            with socket.socket() as sock:  # an address of this machine: it can be bound
                sock.bind((host, 0))
    assert listening.listening_line("https", "127.0.0.1", 8443) == (
        "Corridor Quest listening on https://127.0.0.1:8443"
    )
    assert listening.listening_line("http", "::1", 80) == "Corridor Quest listening on http://[::1]:80"


def test_a_counted_proxy_with_the_server_on_every_interface_is_warned_about(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A client that bypasses the proxy would choose its address with X-Forwarded-For."""
    for host, warned in (("0.0.0.0", True), ("127.0.0.1", False)):
        caplog.clear()
        settings = Settings(data_dir=str(tmp_path), host=host, proxies_count=1)
        with caplog.at_level(logging.WARNING, logger="corridorquest"):
            warn_about_exposure(settings)
        said = [r.getMessage() for r in caplog.records if "PROXIES_COUNT" in r.getMessage()]
        assert bool(said) == warned, said
        if warned:
            assert "PROXIES_COUNT=1 but the server listens on every interface" in said[0]
            assert "HOST=127.0.0.1" in said[0]
