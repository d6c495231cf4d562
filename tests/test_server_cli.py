"""`corridorquest serve`: settings errors, first start, one process per SQLite file, TLS."""

from __future__ import annotations

import ssl
import subprocess
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from corridorquest.cli import main
from tests.support.server import (
    free_port,
    running_server,
    server_env,
    start_process,
    stop,
    wait_until_up,
)
from tests.support.users import make_user


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
