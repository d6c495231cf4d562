"""zipapp.py builds pyz files that run on a machine that has nothing but Python.

Builds dist/corridorquest.pyz and dist/cq.pyz once per session into a temporary directory
(pex's download cache is kept in build/pyz/pex-root so that later runs are quicker), then
runs them with the base interpreter in isolated mode (`-I`: no PYTHONPATH, no user site,
not the virtualenv's site-packages) and an environment holding only PATH, HOME and a
temporary PEX_ROOT. The server pyz also starts on CPython 3.12 and 3.13 when this
machine has them (on PATH or under pyenv); the test is skipped otherwise.
Deselect the module with `-m "not slow"`.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.support.server import free_port, fresh_database, stop
from tests.support.users import latest_code

ROOT = Path(__file__).resolve().parents[1]
PYTHON = getattr(sys, "_base_executable", sys.executable)
BUILD_TIMEOUT = 900
# The first start of a pex unpacks its wheels into PEX_ROOT: allow for it.
FIRST_START_TIMEOUT = 120
MOTD = "built by zipapp.py"


def _slow_marker_registered() -> bool:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        options = tomllib.load(fh).get("tool", {}).get("pytest", {}).get("ini_options", {})
    return any(line.split(":")[0].strip() == "slow" for line in options.get("markers", []))


# The `slow` marker is used once pyproject.toml registers it (unknown markers are errors
# under filterwarnings=error).
pytestmark = [pytest.mark.timeout(BUILD_TIMEOUT)]
if _slow_marker_registered():
    pytestmark.append(pytest.mark.slow)


@dataclass
class Built:
    server: Path
    client: Path
    work: Path


@dataclass
class PyzServer:
    url: str
    mail_dir: Path


def clean_env(home: Path, **extra: str) -> dict[str, str]:
    """What a bare machine has: PATH and HOME, plus a private pex cache."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}
    env["PEX_ROOT"] = str(home / "pex-root")
    env.update(extra)
    return env


def run_pyz(pyz: Path, *args: str, env: dict[str, str], timeout: float = 120) -> (
    subprocess.CompletedProcess[str]
):
    return subprocess.run(
        [PYTHON, "-I", str(pyz), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=env["HOME"],
    )


def wait_until_up(url: str, process: subprocess.Popen[bytes], log_path: Path) -> None:
    deadline = time.monotonic() + FIRST_START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the pyz server exited with {process.returncode}:\n"
                        + log_path.read_text(errors="replace")[-3000:])
        try:
            if httpx.get(url + "/api/v1/server/info", timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    pytest.fail(f"the pyz server did not answer within {FIRST_START_TIMEOUT} s:\n"
                + log_path.read_text(errors="replace")[-3000:])


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    work = tmp_path_factory.mktemp("zipapp")
    dist = work / "dist"
    done = subprocess.run(
        [sys.executable, str(ROOT / "zipapp.py"), "--dist", str(dist),
         "--build", str(work / "build"), "--cache", str(ROOT / "build" / "pyz" / "pex-root")],
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return Built(server=dist / "corridorquest.pyz", client=dist / "cq.pyz", work=work)


@pytest.fixture(scope="module")
def pyz_server(built: Built) -> Iterator[PyzServer]:
    """The pyz server on SQLite, or on PostgreSQL when CQ_TEST_DATABASE_URL is set."""
    home = built.work / "server-home"
    home.mkdir()
    port = free_port()
    with fresh_database(home) as database_url:
        env = clean_env(
            home,
            HOST="127.0.0.1",
            PORT=str(port),
            DATA_DIR=str(home / "data"),
            DATABASE_URL=database_url,
            EMAIL_BACKEND="file",
            MAIL_DIR=str(home / "mail"),
            MOTD=MOTD,
        )
        log_path = home / "server.log"
        with open(log_path, "wb") as log:
            process = subprocess.Popen(
                [PYTHON, "-I", str(built.server), "serve"],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=home,
            )
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(url, process, log_path)
            yield PyzServer(url=url, mail_dir=home / "mail")
        finally:
            stop(process)


def test_server_pyz_holds_compiled_wheels_for_python_3_11_to_3_13(built: Built) -> None:
    with zipfile.ZipFile(built.server) as archive:
        dists = json.loads(archive.read("PEX-INFO"))["distributions"]
    for version in ("311", "312", "313"):
        for project in ("pydantic_core", "uvloop", "httptools", "psycopg2_binary"):
            assert any(
                name.startswith(project + "-") and f"-cp{version}-" in name for name in dists
            ), f"no {project} wheel for CPython {version[0]}.{version[1:]}"


def test_client_pyz_is_pure_python(built: Built) -> None:
    with zipfile.ZipFile(built.client) as archive:
        dists = json.loads(archive.read("PEX-INFO"))["distributions"]
    assert dists, "cq.pyz holds no distributions"
    assert all(name.endswith("-none-any.whl") for name in dists), sorted(dists)


def test_server_pyz_serves_info_and_signup(pyz_server: PyzServer) -> None:
    info = httpx.get(pyz_server.url + "/api/v1/server/info", timeout=10)
    assert info.status_code == 200
    assert info.json()["motd"] == MOTD

    signup = httpx.post(
        pyz_server.url + "/api/v1/users",
        json={"username": "pyzuser", "email": "pyz@example.com", "password": "long enough pw"},
        timeout=30,
    )
    assert signup.status_code == 201, signup.text
    code = latest_code(pyz_server.mail_dir, "pyz@example.com")
    verify = httpx.post(
        pyz_server.url + "/api/v1/verifications",
        json={"verification_token": signup.json()["verification_token"], "code": code},
        timeout=30,
    )
    assert verify.status_code == 200, verify.text
    # argon2 (a compiled extension inside the pyz) checks the password here.
    login = httpx.post(
        pyz_server.url + "/api/v1/sessions",
        json={"username": "pyzuser", "password": "long enough pw"},
        timeout=30,
    )
    assert login.status_code == 201, login.text
    wrong = httpx.post(
        pyz_server.url + "/api/v1/sessions",
        json={"username": "pyzuser", "password": "not the password"},
        timeout=30,
    )
    assert wrong.status_code == 401, wrong.text


def real_interpreter(candidate: str, version: str) -> str | None:
    """The interpreter binary behind `candidate` (a shim resolves to it), if it is `version`."""
    probe = "import sys; print(sys.executable, '%d.%d' % sys.version_info[:2])"
    try:
        done = subprocess.run([candidate, "-c", probe], capture_output=True, text=True,
                              timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    executable, _, reported = done.stdout.strip().rpartition(" ")
    return executable if done.returncode == 0 and reported == version else None


def other_pythons() -> list[str]:
    """CPython 3.12 and 3.13 interpreters on this machine (PATH or pyenv), if any."""
    found = []
    for version in ("3.12", "3.13"):
        candidates = [shutil.which(f"python{version}")] + sorted(glob.glob(
            os.path.expanduser(f"~/.pyenv/versions/{version}*/bin/python{version}")))
        for candidate in filter(None, candidates):
            executable = real_interpreter(candidate, version)
            if executable:
                found.append(executable)
                break
    return found


@pytest.mark.parametrize("python", other_pythons() or [pytest.param(
    "", marks=pytest.mark.skip(reason="no CPython 3.12 or 3.13 on this machine"))])
def test_server_pyz_serves_on_other_python_versions(built: Built, python: str) -> None:
    home = built.work / f"home-{Path(python).name}"
    home.mkdir()
    port = free_port()
    env = clean_env(home, HOST="127.0.0.1", PORT=str(port), DATA_DIR=str(home / "data"))
    log_path = home / "server.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen([python, "-I", str(built.server), "serve"], env=env,
                                   stdout=log, stderr=subprocess.STDOUT, cwd=home)
    try:
        wait_until_up(f"http://127.0.0.1:{port}", process, log_path)
        # pex re-executes itself when it finds the interpreter unsuitable: make sure the
        # server really runs on the interpreter it was started with.
        running = os.path.realpath(f"/proc/{process.pid}/exe")
        assert running == os.path.realpath(python), log_path.read_text(errors="replace")
    finally:
        stop(process)


def test_client_pyz_shows_help(built: Built) -> None:
    home = built.work / "client-home"
    home.mkdir(exist_ok=True)
    done = run_pyz(built.client, "--help", env=clean_env(home))
    assert done.returncode == 0, done.stderr
    assert "Usage:" in done.stdout
    assert "server" in done.stdout


def test_client_pyz_asks_the_server_for_its_info(built: Built, pyz_server: PyzServer) -> None:
    home = built.work / "client-home"
    home.mkdir(exist_ok=True)
    done = run_pyz(built.client, "server", "info", "-s", pyz_server.url, env=clean_env(home))
    assert done.returncode == 0, done.stdout + done.stderr
    assert MOTD in done.stdout
    assert "0.1.0" in done.stdout


def test_client_pyz_runs_the_shell_on_request(built: Built) -> None:
    home = built.work / "client-home"
    home.mkdir(exist_ok=True)
    by_argument = run_pyz(built.client, "shell", "--help", env=clean_env(home))
    by_variable = run_pyz(built.client, "--help", env=clean_env(home, CQ_PYZ_COMMAND="shell"))
    for done in (by_argument, by_variable):
        assert done.returncode == 0, done.stderr
        assert "shell" in done.stdout.lower()
    assert by_argument.stdout == by_variable.stdout
    cq_help = run_pyz(built.client, "--help", env=clean_env(home))
    assert cq_help.stdout != by_argument.stdout


def test_client_pyz_refuses_an_unknown_command_variable(built: Built) -> None:
    home = built.work / "client-home"
    home.mkdir(exist_ok=True)
    done = run_pyz(built.client, "--help", env=clean_env(home, CQ_PYZ_COMMAND="nonsense"))
    assert done.returncode != 0
    assert "CQ_PYZ_COMMAND=nonsense" in done.stderr


def test_zipapp_refuses_contradictory_options(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "zipapp.py"), "--server-only", "--client-only",
         "--dist", str(tmp_path / "dist")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "not allowed with argument" in done.stderr
    assert not (tmp_path / "dist").exists()
