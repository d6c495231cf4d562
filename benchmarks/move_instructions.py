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

With --moves N the games are long instead: each game is warmed up with 10 moves (not
counted), then N rounds of one move in each game are counted, every move a random pawn
step that does not win (no walls, no game's end: what api_load's long random walks
cost; a short game's end, creation and join weigh in the default figure). With --root
DIR the server (and the users it is given) come from another checkout of the project,
to compare commits under the same load (`git worktree add DIR COMMIT`).

With --moves N --clients C the long games are played by C clients at once, each with its
own game and keep-alive connection (threads), as api_load's clients play: the server's
group commit then shares each COMMIT among the moves of one event-loop turn, and the
count is what a move costs under load (--games is ignored: one game per client).

Needs valgrind (`apt install valgrind`); about a minute for the default 10 games. The
server's start under valgrind takes a while. Run it on a quiet machine: a server slowed
by other processes runs its timers more often per move, and the count grows with them
(up to a third while a test suite ran beside it).

    .venv/bin/python benchmarks/move_instructions.py --games 10
    .venv/bin/python benchmarks/move_instructions.py --games 4 --moves 60 --quiet
    .venv/bin/python benchmarks/move_instructions.py --games 4 --moves 60 --quiet --root ../old
    .venv/bin/python benchmarks/move_instructions.py --moves 20 --clients 32 --quiet
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from move_cost import Connection, choose, notifications_off, position  # noqa: E402

from corridorquest.engine import PlaceWall  # noqa: E402
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


def users(root: Path, database: str, name: str) -> str:
    """A user with a session, written by `root`'s own test support (its schema)."""
    if root == ROOT:
        return insert_user(database, name)
    code = ("import sys; from tests.support.users import insert_user; "
            "print(insert_user(sys.argv[1], sys.argv[2]))")
    done = subprocess.run([sys.executable, "-c", code, database, name], cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root)}, capture_output=True,
                          text=True, check=True)
    return done.stdout.strip()


def wander(game: dict[str, Any], rng: random.Random) -> tuple[str, str]:
    """A random pawn step of the player to move that does not win the game."""
    state = position(game)
    steps = []
    for action in state.legal_actions():
        if isinstance(action, PlaceWall):
            continue
        after = state.copy()
        after.play(action)
        if after.winner is None:
            steps.append(action)
    step = rng.choice(steps)
    return ("jump" if step.jump else "move"), str(step)


def move(connection: Connection, game: dict[str, Any], tokens: list[str],
         action: tuple[str, str]) -> dict[str, Any]:
    seat_token = {s["seat"]: tokens[0] if s["username"] == "player0" else tokens[1]
                  for s in game["seats"]}
    status, answer = connection.post(
        f"/games/{game['id']}/actions", {"type": action[0], "to": action[1]},
        seat_token[game["turn"]],
    )
    if status != 201:
        sys.exit(f"move refused ({status}): {answer}")
    return dict(answer)


def play_at_once(connections: list[Connection], games: list[dict[str, Any]],
                 tokens: list[str], rounds: int, seed: int) -> int:
    """`rounds` random steps in each game, one client (thread, its own connection) a game,
    all at once; the number of moves played."""
    failures: list[BaseException] = []

    def client(i: int) -> None:
        try:
            connection, rng, game = connections[i], random.Random(seed * 1000 + i), games[i]
            for _ in range(rounds):
                game = move(connection, game, tokens, wander(game, rng))
            games[i] = game
        except BaseException as error:  # noqa: BLE001 (reported below)
            failures.append(error)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(len(games))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        sys.exit(f"a client failed: {failures[0]!r}")
    return rounds * len(games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games to play")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the wall choice")
    parser.add_argument(
        "--quiet", action="store_true",
        help="both players turn their e-mail notifications off first (as api_load's users)",
    )
    parser.add_argument(
        "--moves", type=int, default=0,
        help="long games: count this many rounds of one non-winning step in each game",
    )
    parser.add_argument(
        "--clients", type=int, default=1,
        help="with --moves: this many clients play at once, each its own game",
    )
    parser.add_argument(
        "--root", type=Path, default=ROOT,
        help="the checkout whose server is measured (default: this one)",
    )
    parser.add_argument(
        "--keep", type=Path, default=None,
        help="copy callgrind's output file here (for callgrind_annotate)",
    )
    args = parser.parse_args()
    if args.clients < 1 or (args.clients > 1 and not args.moves):
        parser.error("--clients needs --moves, and must be at least 1")
    if args.clients > 1:
        args.games = args.clients
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
        root = args.root.resolve()
        env["PYTHONPATH"] = str(root)
        out = work / "callgrind.out"
        command = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
                   f"--callgrind-out-file={out}", sys.executable, "-m", "corridorquest", "serve"]
        with open(work / "server.log", "wb") as log:
            server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                                      cwd=work)
        try:
            wait_until_up(port, server, work / "server.log")
            tokens = [users(root, database, f"player{i}") for i in range(2)]
            connection = Connection(port)
            if args.quiet:
                notifications_off(connection, tokens)
            games = []
            for _ in range(args.games):
                _, game = connection.post("/games", {"players": 2, "size": 9}, tokens[0])
                _, game = connection.post(f"/games/{game['id']}/players", {}, tokens[1])
                games.append(game)
            moves = 0
            clients = [Connection(port) for _ in games] if args.clients > 1 else []
            if clients:  # the warm-up, not counted: as the count, all at once
                play_at_once(clients, games, tokens, 10, args.seed + 1)
            elif args.moves:  # the warm-up, not counted
                for i, game in enumerate(games):
                    for _ in range(10):
                        game = move(connection, game, tokens, wander(game, rng))
                    games[i] = game
            control(server.pid, "-i", "on")
            if args.clients > 1:
                moves = play_at_once(clients, games, tokens, args.moves, args.seed)
            elif args.moves:
                for _ in range(args.moves):
                    for i, game in enumerate(games):
                        games[i] = move(connection, game, tokens, wander(game, rng))
                        moves += 1
            else:
                for game in games:
                    while game["status"] == "started":
                        game = move(connection, game, tokens, choose(game, rng))
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
