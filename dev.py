#!/usr/bin/env python3
"""Developer entry point that needs nothing but Python 3.11+.

    python3 dev.py serve [ARGS...]   set up .venv (first run) and start the server
    python3 dev.py test [PYTEST ARGS...]   set up .venv with the test tools and run the
                                           whole test suite (and list its 15 slowest tests)
    python3 dev.py lint              ruff, mypy (strict on the engine) and the check of
                                     fixed waits in tests (tests/support/fixed_sleeps.py)
    python3 dev.py setup             only create/refresh the virtual environment, with
                                     the test tools

`dev.py serve` becomes the server once .venv is ready (on POSIX it replaces its own
process with it): Ctrl-C, or `kill` of its pid, stops the server.

The virtual environment lives in .venv next to this file; it is (re)installed when
pyproject.toml is newer than the last install. `serve` installs what the server and the
clients need to run (the project's dependencies, about 100 MB); `test`, `lint` and
`setup` add the test tools (pytest, playwright, mypy, ...: several hundred MB more).
Several dev.py started at once (say `dev.py serve &` and `dev.py test`) set it up one
after the other: the later ones wait for a lock (.venv/.setup.lock) and then find it
ready.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import venv
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

ROOT = Path(__file__).resolve().parent
SLOWEST_SHOWN = 15  # `dev.py test` lists this many of the slowest tests
TEST_PROCESSES = 2  # `dev.py test` runs the tests in this many processes (pytest-xdist)
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".installed"  # the server and clients are installed
TEST_STAMP = VENV / ".installed-test"  # and the test tools
LOCK = VENV / ".setup.lock"


def run(*args: str | Path) -> int:
    return subprocess.call([str(a) for a in args], cwd=ROOT)


def become(*args: str | Path) -> int:
    """Run `args` in place of this process (same pid: its signals reach the program).

    On POSIX this never returns. Windows has no such exec (its os.execv starts a new
    process and ends this one), so there the program runs as a child and Ctrl-C, which
    the console sends to both, stops it."""
    if os.name != "posix":
        return run(*args)
    sys.stdout.flush()
    sys.stderr.flush()
    os.chdir(ROOT)
    os.execv(str(args[0]), [str(a) for a in args])


def _try_lock(file: BinaryIO) -> bool:
    """Take the exclusive lock on `file` if nobody holds it (released when it is closed)."""
    try:
        if os.name == "nt":
            import msvcrt

            file.seek(0)
            msvcrt.locking(file.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


@contextmanager
def setup_lock() -> Iterator[None]:
    """Hold .venv/.setup.lock: one dev.py at a time creates or installs the environment."""
    VENV.mkdir(exist_ok=True)
    with LOCK.open("a+b") as file:
        if not _try_lock(file):
            print("waiting for another dev.py to finish setting up .venv ...", flush=True)
            while not _try_lock(file):
                time.sleep(0.2)
        yield


def _pip_works() -> bool:
    check = [str(PY), "-m", "pip", "--version"]
    quiet = subprocess.DEVNULL
    return subprocess.call(check, cwd=ROOT, stdout=quiet, stderr=quiet) == 0


def _fresh(stamp: Path) -> bool:
    pyproject = ROOT / "pyproject.toml"
    return stamp.exists() and stamp.stat().st_mtime >= pyproject.stat().st_mtime


def setup(test_tools: bool = True) -> None:
    """Make .venv ready: the project (runtime dependencies), and the test tools unless
    `test_tools` is false (`dev.py serve`: a player's install stays small)."""
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py may be run by an old python3
        sys.exit("Corridor Quest needs Python 3.11 or newer")
    stamps = [STAMP, TEST_STAMP] if test_tools else [STAMP]
    with setup_lock():
        if all(_fresh(stamp) for stamp in stamps):
            return
        # No finished install: create the environment, or complete one that an
        # interrupted run left without pip.
        if not PY.exists() or not _pip_works():
            print("creating virtual environment in .venv", flush=True)
            venv.EnvBuilder(with_pip=True).create(VENV)
        what = "Corridor Quest and its test tools" if test_tools else "Corridor Quest"
        print(f"installing {what} into .venv", flush=True)
        pip = [PY, "-m", "pip", "install", "--disable-pip-version-check", "-q"]
        target = ".[test]" if test_tools else "."
        if run(*pip, "--upgrade", "pip") != 0 or run(*pip, "-e", target) != 0:
            sys.exit("installation failed")
        for stamp in stamps:
            stamp.touch()


def main(argv: list[str]) -> int:
    command, rest = (argv[0], argv[1:]) if argv else ("help", [])
    if command == "help" or command not in {"setup", "serve", "test", "lint"}:
        print(__doc__)
        return 0 if command == "help" else 2
    setup(test_tools=command != "serve")
    if command == "setup":
        return 0
    if command == "serve":
        return become(PY, "-m", "corridorquest", "serve", *rest)
    if command == "lint":
        status = run(PY, "-m", "ruff", "check", ".")
        status |= run(PY, "-m", "mypy", "corridorquest/engine")
        status |= run(PY, "-m", "tests.support.fixed_sleeps", "tests")
        return status
    return run(PY, "-m", "pytest", *durations(rest), *workers(rest), *rest)


def workers(pytest_args: list[str]) -> list[str]:
    """`-n 2 --dist loadfile` (pytest-xdist) unless the caller chose `-n`: the tests run in
    two processes, each test module in one of them (its module-scoped servers stay its
    own), each process with its own temporary directory; ports are free ones, chosen per
    server. Much of a test's time is waiting for a server, a browser or a terminal, so two
    processes on two cores take far less than one. `-n 0` runs in this process."""
    chosen = any(
        arg.startswith("-n") or arg.startswith("--numprocesses") for arg in pytest_args
    )
    return [] if chosen else ["-n", str(TEST_PROCESSES), "--dist", "loadfile"]


def durations(pytest_args: list[str]) -> list[str]:
    """`--durations=15` unless the caller chose a number: every run (CI's log too) lists
    its 15 slowest tests, where a test that grew slow shows first."""
    chosen = any(arg == "--durations" or arg.startswith("--durations=") for arg in pytest_args)
    return [] if chosen else [f"--durations={SLOWEST_SHOWN}"]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
