"""Instructions the server executes per move (valgrind's callgrind): a count that repeats.

Wall-clock figures on a shared machine move by 10-40 % from one hour to the next; the
number of instructions a move costs repeats to about 0.1 %, so it shows what a change to
the move path does before the load benchmark can. It does not see the kernel's time
(socket reads and writes, the WAL's writes: about a tenth of the server's time under
load), memory stalls, or the group commit of concurrent requests; confirm a gain with
`api_load.py` before you keep it.

Starts `python -m corridorquest serve` under `valgrind --tool=callgrind` with
instrumentation off, creates the games (not counted), switches instrumentation on with
`callgrind_control -i on`, plays the games' moves one request at a time over one
keep-alive connection (so every move pays its own BEGIN and COMMIT; the moves are
chosen as in `move_cost.py`), switches it off and reads the total. Prints:

    move_instructions_moves=...          moves played
    move_instructions_per_move=...       user-space instructions per move request

With --quiet both players turn their e-mail notifications off first (as in
`move_cost.py --quiet` and api_load); --keep FILE copies callgrind's output there for
`callgrind_annotate`.

Needs valgrind (`apt install valgrind`); about a minute for the default 10 games. The
server's start under valgrind takes a while.

    .venv/bin/python benchmarks/move_instructions.py --games 10
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from move_cost import Connection, choose, notifications_off  # noqa: E402

from tests.support.server import free_port, server_env  # noqa: E402
from tests.support.users import insert_user  # noqa: E402

STARTUP_TIMEOUT = 300.0


def control(pid: int, *args: str) -> None:
    """callgrind_control (it finds the server by user and host: both are set)."""
    subprocess.run(["callgrind_control", *args, str(pid)], check=True, capture_output=True)


def total_instructions(out: Path) -> int:
    total = 0
    for dump in out.parent.glob(out.name + "*"):
        for line in dump.read_text(errors="replace").splitlines():
            if line.startswith("totals:"):
                total += int(line.split()[1])
    return total


def wait_until_up(port: int, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"the server stopped:\n{log.read_text(errors='replace')[-3000:]}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/server/info", timeout=5)
            return
        except OSError:
            time.sleep(1)
    sys.exit("the server did not start under valgrind in time")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games to play")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the wall choice")
    parser.add_argument(
        "--quiet", action="store_true",
        help="both players turn their e-mail notifications off first (as api_load's users)",
    )
    parser.add_argument(
        "--keep", type=Path, default=None,
        help="copy callgrind's output file here (for callgrind_annotate)",
    )
    args = parser.parse_args()
    for tool in ("valgrind", "callgrind_control"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is not installed (apt install valgrind)")
    # vgdb, behind callgrind_control, names its pipes after the user and the host
    os.environ.setdefault("USER", "cq")
    os.environ["HOST"] = "127.0.0.1"
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="cq-move-instructions-") as tmp:
        work = Path(tmp)
        database = f"sqlite:///{work / 'corridorquest.db'}"
        port = free_port()
        env = server_env(work, database, port, LOG_LEVEL="WARNING")
        out = work / "callgrind.out"
        command = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
                   f"--callgrind-out-file={out}", sys.executable, "-m", "corridorquest", "serve"]
        with open(work / "server.log", "wb") as log:
            server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                                      cwd=work)
        try:
            wait_until_up(port, server, work / "server.log")
            tokens = [insert_user(database, f"player{i}") for i in range(2)]
            connection = Connection(port)
            if args.quiet:
                notifications_off(connection, tokens)
            games = []
            for _ in range(args.games):
                _, game = connection.post("/games", {"players": 2, "size": 9}, tokens[0])
                _, game = connection.post(f"/games/{game['id']}/players", {}, tokens[1])
                games.append(game)
            control(server.pid, "-i", "on")
            moves = 0
            for game in games:
                seat_token = {
                    s["seat"]: tokens[0] if s["username"] == "player0" else tokens[1]
                    for s in game["seats"]
                }
                while game["status"] == "started":
                    kind, to = choose(game, rng)
                    status, game = connection.post(
                        f"/games/{game['id']}/actions", {"type": kind, "to": to},
                        seat_token[game["turn"]],
                    )
                    if status != 201:
                        sys.exit(f"move refused ({status}): {game}")
                    moves += 1
            control(server.pid, "-i", "off")
            control(server.pid, "-d")
            time.sleep(1)
            total = total_instructions(out)
            if args.keep is not None:
                for dump in out.parent.glob(out.name + "*"):
                    suffix = dump.name[len(out.name):]  # callgrind's dumps: .1, .2, ...
                    shutil.copy(dump, args.keep.parent / (args.keep.name + suffix))
        finally:
            server.terminate()
            server.wait(60)
    print(f"move_instructions_moves={moves}")
    print(f"move_instructions_per_move={total / moves:.0f}")


if __name__ == "__main__":
    main()
