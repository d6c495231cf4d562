"""zipapp.py builds pyz files that run on a machine that has nothing but Python.

Builds dist/corridorquest.pyz and dist/cq.pyz once per session into a temporary directory
(pex's download cache is kept in build/pyz/pex-root so that later runs are quicker), then
runs them with the base interpreter in isolated mode (`-I`: no PYTHONPATH, no user site,
not the virtualenv's site-packages) and an environment holding only PATH, HOME and a
temporary PEX_ROOT. The server pyz holds wheels for x86_64 and aarch64; it is started on
this machine only. It also starts on CPython 3.12 and 3.13 when this machine has them (on
PATH or under pyenv), and restarts itself with a suitable Python when started with 3.10;
those tests are skipped when the interpreters are missing.
Deselect the module with `-m "not slow"`. Start-up times: benchmarks/pyz_startup.py.
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

from tests.support.games import play, started_game
from tests.support.server import free_port, fresh_database, stop
from tests.support.sse import EventReader
from tests.support.users import auth, insert_user, latest_code

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
    pex_root: Path
    database_url: str
    pid: int


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
        time.sleep(0.05)
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
            BOTS_ONLY_PACE="100ms",  # the game of bots only below, a few seconds long
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
            yield PyzServer(
                url=url,
                mail_dir=home / "mail",
                pex_root=Path(env["PEX_ROOT"]),
                database_url=database_url,
                pid=process.pid,
            )
        finally:
            stop(process)


MACHINES = ("x86_64", "aarch64")
VERSIONS = ("311", "312", "313")
# Compiled dependencies built per CPython version, and those built once for all (abi3).
PER_VERSION = ("pydantic_core", "uvloop", "httptools", "orjson", "psycopg2_binary", "ujson")
ABI3 = ("argon2_cffi_bindings",)


def wheel_platforms(name: str) -> list[str]:
    return name.removesuffix(".whl").split("-")[-1].split(".")


def test_server_pyz_holds_compiled_wheels_for_x86_64_and_aarch64_python_3_11_to_3_13(
    built: Built,
) -> None:
    with zipfile.ZipFile(built.server) as archive:
        dists = json.loads(archive.read("PEX-INFO"))["distributions"]
    for machine in MACHINES:
        def has(project: str, tag: str, machine: str = machine) -> bool:
            return any(
                name.startswith(project + "-") and tag in name
                and any(p.endswith("_" + machine) for p in wheel_platforms(name))
                for name in dists
            )

        for project in ABI3:
            assert has(project, "-abi3-"), f"no {project} wheel for {machine}"
        for version in VERSIONS:
            for project in PER_VERSION:
                assert has(project, f"-cp{version}-cp{version}-"), (
                    f"no {project} wheel for CPython {version[0]}.{version[1:]} on {machine}")
    # The documented minimum: glibc 2.17 on x86_64, 2.28 on aarch64.
    for name in dists:
        if wheel_platforms(name) != ["any"]:
            machine, glibc = oldest_glibc(name)
            assert glibc <= {"x86_64": 17, "aarch64": 28}[machine], name


def oldest_glibc(name: str) -> tuple[str, int]:
    """(machine, N) of the oldest glibc 2.N a manylinux wheel runs on."""
    legacy = {"manylinux1": 5, "manylinux2010": 12, "manylinux2014": 17}
    found: list[tuple[str, int]] = []
    for platform in wheel_platforms(name):
        for prefix, glibc in legacy.items():
            if platform.startswith(prefix + "_"):
                found.append((platform.removeprefix(prefix + "_"), glibc))
        if platform.startswith("manylinux_2_"):
            minor, machine = platform.removeprefix("manylinux_2_").split("_", 1)
            found.append((machine, int(minor)))
    assert found, f"{name} is not a manylinux wheel"
    return min(found, key=lambda item: item[1])


def test_server_pyz_unpacks_only_the_wheels_of_this_python_and_machine(
    pyz_server: PyzServer,
) -> None:
    installed = [path.name for path in (pyz_server.pex_root / "installed_wheels").rglob("*.whl")
                 if path.is_dir()]
    assert any(name.startswith("pydantic_core-") for name in installed), installed
    this_version = f"{sys.version_info[0]}{sys.version_info[1]}"
    this_machine = os.uname().machine
    for name in installed:
        assert all(f"-cp{v}-cp{v}-" not in name for v in VERSIONS if v != this_version), name
        platforms = wheel_platforms(name)
        assert platforms == ["any"] or any(p.endswith("_" + this_machine) for p in platforms), (
            name)


def test_server_pyz_serves_the_web_pages_and_their_assets(pyz_server: PyzServer) -> None:
    for path, kind in (
        ("/", "text/html"),
        ("/tv", "text/html"),
        ("/web/static/watch.js", "text/javascript"),
        ("/web/static/style.css", "text/css"),
    ):
        answer = httpx.get(pyz_server.url + path, timeout=10)
        assert answer.status_code == 200, path
        assert answer.headers["content-type"].startswith(kind), path


def test_server_pyz_streams_a_game(pyz_server: PyzServer) -> None:
    api = pyz_server.url + "/api/v1"
    tokens = {name: insert_user(pyz_server.database_url, name) for name in ("pia", "quin")}
    with httpx.Client(base_url=api, timeout=10) as client:
        game = started_game(client, tokens)
        with EventReader(f"{api}/games/{game['id']}/events", None) as events:
            assert events.next("game")["data"]["id"] == game["id"]
            square = "e2" if game["turn"] == "south" else "e8"
            mover = tokens[game["turn_username"]]
            assert play(client, mover, game["id"], "move", square).status_code == 201
            assert events.next("action")["data"]["notation"] == square


def test_server_pyz_plays_bots_in_spawned_worker_processes(pyz_server: PyzServer) -> None:
    """A game of bots only (SPEC §13) is played to its end by the bot worker process,
    spawned from inside the pex (it imports the bots from the pyz's own paths)."""
    api = pyz_server.url + "/api/v1"
    token = insert_user(pyz_server.database_url, "rex")
    with httpx.Client(base_url=api, timeout=10, headers=auth(token)) as client:
        made = client.post(
            "/games", json={"players": 2, "size": 5, "bots": [1, 2], "join": False}
        )
        assert made.status_code == 201, made.text
        deadline = time.monotonic() + 60
        while True:
            game = client.get(f"/games/{made.json()['id']}").json()
            if game["status"] == "finished":
                break
            assert time.monotonic() < deadline, game
            time.sleep(0.05)
    assert game["winner"] in ("bot-1", "bot-2")


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


def pyenv_python(version: str) -> str | None:
    for candidate in sorted(glob.glob(
            os.path.expanduser(f"~/.pyenv/versions/{version}*/bin/python{version}"))):
        executable = real_interpreter(candidate, version)
        if executable:
            return executable
    return None


def test_server_pyz_started_with_python_3_10_restarts_with_a_newer_python(
    built: Built, tmp_path: Path,
) -> None:
    python310 = pyenv_python("3.10")
    if python310 is None:
        pytest.skip("no CPython 3.10 under pyenv")
    env = clean_env(tmp_path)
    if not any(shutil.which(f"python3.{minor}", path=env["PATH"]) for minor in (11, 12, 13)):
        pytest.skip("no CPython 3.11-3.13 on the clean PATH")
    done = subprocess.run([python310, "-I", str(built.server), "--version"], env=env,
                          capture_output=True, text=True, timeout=FIRST_START_TIMEOUT,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "corridorquest, version 0.1.0" in done.stdout


def test_server_pyz_says_which_python_it_needs(built: Built, tmp_path: Path) -> None:
    python310 = pyenv_python("3.10")
    if python310 is None:
        pytest.skip("no CPython 3.10 under pyenv")
    empty = tmp_path / "bin"
    empty.mkdir()
    done = subprocess.run([python310, "-I", str(built.server), "serve"],
                          env=clean_env(tmp_path, PATH=str(empty)), capture_output=True,
                          text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 1
    assert "needs CPython 3.11, 3.12 or 3.13; this is CPython 3.10" in done.stderr


def test_server_pyz_falls_back_to_a_private_temporary_directory(
    built: Built, tmp_path: Path,
) -> None:
    """A service account without a writable home: the pyz still starts (from /tmp)."""
    not_a_directory = tmp_path / "file"
    not_a_directory.write_text("")
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = clean_env(tmp_path, PEX_ROOT=str(not_a_directory / "pex"), TMPDIR=str(temp))
    for first in (True, False):
        done = run_pyz(built.server, "--version", env=env, timeout=FIRST_START_TIMEOUT)
        assert done.returncode == 0, done.stderr
        assert "corridorquest, version 0.1.0" in done.stdout
        assert "cannot write to PEX_ROOT" in done.stderr
        # The second start reuses what the first one installed.
        assert ("first start with this Python" in done.stderr) == first, done.stderr
    private = temp / f"corridorquest-pex-{os.getuid()}"
    assert private.stat().st_mode & 0o777 == 0o700
    assert list((private / "corridorquest").glob("*/cp3*/bin/python"))


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


def test_admin_pyz_runs_cq_admin_and_cq_pyz_runs_it_on_request(built: Built) -> None:
    home = built.work / "client-home"
    home.mkdir(exist_ok=True)
    admin_pyz = built.client.with_name("cq-admin.pyz")
    by_name = run_pyz(admin_pyz, "--help", env=clean_env(home))
    by_argument = run_pyz(built.client, "admin", "--help", env=clean_env(home))
    for done in (by_name, by_argument):
        assert done.returncode == 0, done.stderr
        assert "cq-admin" in done.stdout and "audit" in done.stdout
    assert by_name.stdout == by_argument.stdout


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
