"""Start-up time of the single-file server, dist/corridorquest.pyz.

Builds the pyz with zipapp.py into a temporary directory (or takes one with --pyz), then
runs it the way an administrator would, `python3 -I corridorquest.pyz ...`, with an
environment holding only PATH, HOME, LANG, a PEX_ROOT and the server's settings:

- first run: PEX_ROOT empty, so the pyz unpacks and installs its dependencies first, and
  the server creates and migrates a new SQLite database;
- warm run: the same PEX_ROOT and database again (a restart).

"start" is the time from launching the process until the server answers
GET /api/v1/server/info with 200 (polled every 10 ms over a plain socket); "help" is
the time `corridorquest.pyz --help` takes to exit. Prints `name=value` lines:

    load_before=..., load_after=...  the machine's 1-minute load average around the runs
    pyz_size_mib=...               size of the pyz
    pex_root_mib=...               disk space the first start left in PEX_ROOT
    first_start_s=...              first start: median, min, max of --first-runs
    first_help_s=...               `--help` with an empty PEX_ROOT: median, min, max
    warm_start_s=...               later starts: median, min, max of --runs
    warm_help_s=...                later `--help`: median, min, max of --runs
    dev_py_start_s=...             with --dev-py: `python3 dev.py serve` in this checkout
                                   (.venv set up), on a database of its own, --runs times
    *_cpu_s=...                    median CPU time (user + system) of the same runs, up
                                   to the answer: the pyz's process, its exec()s and the
                                   children it waited for; less sensitive to other load

    .venv/bin/python benchmarks/pyz_startup.py                 # build, 2 first runs, 7 warm
    .venv/bin/python benchmarks/pyz_startup.py --pyz dist/corridorquest.pyz --runs 11
    .venv/bin/python benchmarks/pyz_startup.py --python /usr/bin/python3.11
    .venv/bin/python benchmarks/pyz_startup.py --pyz dist/corridorquest.pyz --runs 5 --dev-py

Run it on an idle machine: every figure is wall-clock time, and a build or a test suite
beside it makes them larger.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INFO_REQUEST = b"GET /api/v1/server/info HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
START_TIMEOUT = 180.0
POLL_INTERVAL = 0.01
TICK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def answers(port: int) -> bool:
    """True once the server answers /api/v1/server/info with 200."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2.0) as sock:
            sock.sendall(INFO_REQUEST)
            head = sock.recv(64)
    except OSError:
        return False
    return head.startswith(b"HTTP/1.1 200")


def base_env(home: Path, pex_root: Path) -> dict[str, str]:
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "PEX_ROOT": str(pex_root),
    }


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process_cpu(pid: int) -> float:
    """CPU seconds of a running process and of the children it has waited for."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(field) for field in fields[11:15]) / TICK


def time_help(python: str, pyz: Path, home: Path, pex_root: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of `corridorquest.pyz --help`."""
    cpu = children_cpu()
    started = time.perf_counter()
    done = subprocess.run([python, "-I", str(pyz), "--help"], env=base_env(home, pex_root),
                          cwd=home, capture_output=True, text=True, timeout=START_TIMEOUT)
    elapsed = time.perf_counter() - started
    if done.returncode != 0 or "serve" not in done.stdout:
        sys.exit(f"--help failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return elapsed, children_cpu() - cpu


def time_start(
    python: str, pyz: Path, home: Path, pex_root: Path, command: list[str] | None = None
) -> tuple[float, float]:
    """(wall, CPU) seconds until the server answers; the server is stopped afterwards.

    `command` runs instead of the pyz (`python3 dev.py serve`, say)."""
    port = free_port()
    env = base_env(home, pex_root)
    env.update({
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "DATA_DIR": str(home / "data"),
        "EMAIL_BACKEND": "file",
        "LOG_LEVEL": "WARNING",
    })
    log_path = home / "server.log"
    with open(log_path, "ab") as log:
        started = time.perf_counter()
        process = subprocess.Popen(command or [python, "-I", str(pyz), "serve"], env=env,
                                   cwd=home, stdout=log, stderr=subprocess.STDOUT)
    try:
        while not answers(port):
            if process.poll() is not None:
                sys.exit(f"the server exited with {process.returncode}:\n"
                         + log_path.read_text(errors="replace")[-3000:])
            if time.perf_counter() - started > START_TIMEOUT:
                sys.exit(f"the server did not answer within {START_TIMEOUT:.0f} s")
            time.sleep(POLL_INTERVAL)
        return time.perf_counter() - started, process_cpu(process.pid)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def tree_mib(path: Path) -> float:
    """Disk space of the files under `path` (hard links and symlinks counted once)."""
    seen = set()
    total = 0
    for dirpath, _, filenames in os.walk(path):
        for name in filenames:
            status = os.lstat(os.path.join(dirpath, name))
            if (status.st_dev, status.st_ino) not in seen and not os.path.islink(
                    os.path.join(dirpath, name)):
                seen.add((status.st_dev, status.st_ino))
                total += status.st_size
    return total / 2**20


def build(work: Path) -> Path:
    done = subprocess.run(
        [sys.executable, str(ROOT / "zipapp.py"), "--server-only", "--dist", str(work / "dist"),
         "--build", str(work / "build"), "--cache", str(ROOT / "build" / "pyz" / "pex-root")],
        capture_output=True, text=True,
    )
    if done.returncode != 0:
        sys.exit(f"zipapp.py failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return work / "dist" / "corridorquest.pyz"


def report(name: str, runs: list[tuple[float, float]]) -> None:
    """The median wall time with its range, then the median CPU time."""
    wall = [run[0] for run in runs]
    print(f"{name}_s={statistics.median(wall):.2f} min={min(wall):.2f} max={max(wall):.2f} "
          f"runs={len(runs)}")
    print(f"{name}_cpu_s={statistics.median(run[1] for run in runs):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pyz", type=Path, help="measure this pyz (default: build one)")
    parser.add_argument("--python", default=getattr(sys, "_base_executable", sys.executable),
                        help="interpreter that runs the pyz (default: this one's base)")
    parser.add_argument("--first-runs", type=int, default=2,
                        help="first runs, each with an empty PEX_ROOT (default 2)")
    parser.add_argument("--runs", type=int, default=7, help="warm runs (default 7)")
    parser.add_argument("--dev-py", action="store_true",
                        help="also time `python3 dev.py serve` of this checkout (--runs times)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="pyz-startup-") as tmp:
        work = Path(tmp)
        pyz = args.pyz.resolve() if args.pyz else build(work)
        print(f"load_before={os.getloadavg()[0]:.2f}")
        print(f"pyz={pyz}")
        print(f"python={args.python}")
        print(f"pyz_size_mib={pyz.stat().st_size / 2**20:.1f}")
        home = work / "home"
        first_start: list[tuple[float, float]] = []
        first_help: list[tuple[float, float]] = []
        for run in range(args.first_runs):
            shutil.rmtree(home, ignore_errors=True)
            home.mkdir()
            first_help.append(time_help(args.python, pyz, home, home / f"pex-help-{run}"))
            shutil.rmtree(home / "data", ignore_errors=True)
            first_start.append(time_start(args.python, pyz, home, home / "pex"))
        print(f"pex_root_mib={tree_mib(home / 'pex'):.1f}")
        report("first_start", first_start)
        report("first_help", first_help)
        # The home, PEX_ROOT and database of the last first run: a restart.
        warm_start = [time_start(args.python, pyz, home, home / "pex") for _ in range(args.runs)]
        warm_help = [time_help(args.python, pyz, home, home / "pex") for _ in range(args.runs)]
        report("warm_start", warm_start)
        report("warm_help", warm_help)
        if args.dev_py:
            dev_py = [args.python, str(ROOT / "dev.py"), "serve"]
            dev_home = work / "dev-home"
            dev_home.mkdir()
            time_start(args.python, pyz, dev_home, dev_home / "pex", dev_py)  # creates the db
            report("dev_py_start", [time_start(args.python, pyz, dev_home, dev_home / "pex",
                                               dev_py) for _ in range(args.runs)])
        print(f"load_after={os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
