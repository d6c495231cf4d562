"""The real server in a subprocess, for end-to-end tests.

    with running_server(tmp_path, MOTD="hello") as server:
        httpx.get(server.base_url + "/api/v1/server/info")

Starts `python -m corridorquest serve` on 127.0.0.1 and a free port with a fresh
database: an SQLite file in `tmp_path`, or, when CQ_TEST_DATABASE_URL is set (a
PostgreSQL URL), a new database created on that server for this run and dropped after.
Mail goes to `.eml` files in `server.mail_dir` (EMAIL_BACKEND=file). Keyword arguments
are settings (`MOTD="hi"`, `SESSION_IDLE_TIMEOUT="2s"`); with TLS_CERT/TLS_KEY the
base URL is https (self-signed certificates: pass `verify=False` to httpx). The server log is in
`server.log_path`; a server that does not answer within STARTUP_TIMEOUT fails the test
with the log's tail.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from corridorquest.security.passwords import PRODUCTION_DEFAULTS, TEST_PARAMETERS

ROOT = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT = 20.0
STOP_TIMEOUT = 10.0


@dataclass
class RunningServer:
    base_url: str
    api: str  # base_url + "/api/v1"
    mail_dir: Path
    database_url: str
    data_dir: Path
    log_path: Path
    process: subprocess.Popen[bytes]

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


def _postgres_admin(url: str, statement: str) -> None:
    import psycopg2

    connection = psycopg2.connect(_with_database(url, urlsplit(url).path.lstrip("/") or "postgres"))
    try:
        connection.autocommit = True
        with connection.cursor() as cursor:
            cursor.execute(statement)
    finally:
        connection.close()


@contextmanager
def fresh_database(tmp_path: Path) -> Iterator[str]:
    """A database URL nobody has used: SQLite in tmp_path, or a new PostgreSQL database."""
    postgres = os.environ.get("CQ_TEST_DATABASE_URL")
    if not postgres:
        yield f"sqlite:///{tmp_path / 'corridorquest.db'}"
        return
    name = f"cq_test_{secrets.token_hex(6)}"
    _postgres_admin(postgres, f'CREATE DATABASE "{name}"')
    try:
        yield _with_database(postgres, name)
    finally:
        _drop_database(postgres, name)


def _drop_database(postgres: str, name: str) -> None:
    """DROP ... WITH (FORCE) ends the sessions still on it, but not an autovacuum worker
    that happens to be there (not ours to end): it finishes in a moment, try again."""
    import psycopg2

    for attempt in range(20):
        try:
            _postgres_admin(postgres, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            return
        except psycopg2.errors.InsufficientPrivilege:
            if attempt == 19:
                raise
            time.sleep(0.5)  # pacing: PostgreSQL's retry


# The tests hash passwords with argon2's least parameters (about 20 µs a hash, not 0.1 s of
# CPU); a test about the hashing's cost passes the real ones (PASSWORD_HASH_MEMORY_KIB=...).
TEST_PASSWORD_HASHING = {
    "password_hash_time_cost": TEST_PARAMETERS.time_cost,
    "password_hash_memory_kib": TEST_PARAMETERS.memory_kib,
    "password_hash_parallelism": TEST_PARAMETERS.parallelism,
}

# For a test whose subject is the hashing's cost (a busy pool, cq's retries of busy
# logins): the production parameters, as keyword arguments of running_server.
REAL_PASSWORD_HASHING = {
    "PASSWORD_HASH_TIME_COST": PRODUCTION_DEFAULTS.time_cost,
    "PASSWORD_HASH_MEMORY_KIB": PRODUCTION_DEFAULTS.memory_kib,
    "PASSWORD_HASH_PARALLELISM": PRODUCTION_DEFAULTS.parallelism,
}


def server_env(tmp_path: Path, database_url: str, port: int, **settings: Any) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CQ_TEST_")}
    env.update(
        {
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "DATA_DIR": str(tmp_path / "data"),
            "DATABASE_URL": database_url,
            "EMAIL_BACKEND": "file",
            "MAIL_DIR": str(tmp_path / "mail"),
            "LOG_LEVEL": "INFO",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")])),
            "PYTHONUNBUFFERED": "1",
            # every test's signups come from 127.0.0.1 (tests/api/test_signup_limit.py
            # sets its own)
            "SIGNUP_LIMIT_ADDRESS": "10000",
            **{name.upper(): str(value) for name, value in TEST_PASSWORD_HASHING.items()},
        }
    )
    for name, value in settings.items():
        env[name.upper()] = str(value).lower() if isinstance(value, bool) else str(value)
    return env


def wait_until_up(base_url: str, process: subprocess.Popen[bytes], log_path: Path) -> None:
    """Poll /api/v1/server/info until it answers 200 (TLS certificates are not checked)."""
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"server exited with {process.returncode}:\n{log_path.read_text()[-3000:]}"
            )
        try:
            info = httpx.get(base_url + "/api/v1/server/info", timeout=1.0, verify=False)
            if info.status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError(
        f"server did not answer within {STARTUP_TIMEOUT} s:\n{log_path.read_text()[-3000:]}"
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGINT)
    try:
        process.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(STOP_TIMEOUT)


def start_process(tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], Path]:
    """Start `python -m corridorquest serve` in tmp_path with `env`; its output goes to
    tmp_path/server.log. Returns the process and the log's path."""
    log_path = tmp_path / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "corridorquest", "serve"],
            cwd=tmp_path,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    return process, log_path


@contextmanager
def running_server(tmp_path: Path, **settings: Any) -> Iterator[RunningServer]:
    """Start the real server (see the module docstring); stop it on exit."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    with fresh_database(tmp_path) as database_url:
        port = free_port()
        env = server_env(tmp_path, database_url, port, **settings)
        scheme = "https" if env.get("TLS_CERT") else "http"
        base_url = f"{scheme}://127.0.0.1:{port}"
        process, log_path = start_process(tmp_path, env)
        try:
            wait_until_up(base_url, process, log_path)
            yield RunningServer(
                base_url=base_url,
                api=base_url + "/api/v1",
                mail_dir=Path(env["MAIL_DIR"]),
                database_url=database_url,
                data_dir=Path(env["DATA_DIR"]),
                log_path=log_path,
                process=process,
            )
        finally:
            stop(process)
