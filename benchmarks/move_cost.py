"""Server CPU per move: sequential legal moves over one keep-alive connection.

Starts `python -m corridorquest serve` on a fresh SQLite database (like api_load.py),
plays whole 2-player games (the player to move walks its shortest path, about 15 % of
the turns place a random legal wall) and reads the server's CPU time from /proc around
every move request, so game creation is not counted. Prints `name=value` lines:

    move_cost_moves=...              moves played
    move_cost_server_cpu_ms=...      server CPU (user + system) per move
    move_cost_server_sys_ms=...      of which system (kernel) time

With --quiet both players turn their e-mail notifications off first (NTFY_URL is never
set here), as api_load's users do.

The figure is what one move costs the server when it has nothing else to do. The
machine's load inflates it (the CPU runs slower when other processes share it): compare
runs taken at similar load averages. Linux only (/proc).

    .venv/bin/python benchmarks/move_cost.py --games 60
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from corridorquest.engine import GameState, PlaceWall, Seat  # noqa: E402
from tests.support.server import free_port, server_env, wait_until_up  # noqa: E402
from tests.support.users import insert_user  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICK, int(fields[12]) / TICK


class Connection:
    """A minimal HTTP/1.1 keep-alive client (one request at a time)."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def post(self, path: str, body: dict[str, Any], token: str) -> tuple[int, Any]:
        return self.request("POST", path, body, token)

    def request(
        self, method: str, path: str, body: dict[str, Any], token: str
    ) -> tuple[int, Any]:
        data = json.dumps(body).encode()
        head = (
            f"{method} /api/v1{path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n"
        )
        self.sock.sendall(head.encode() + data)
        received = b""
        while b"\r\n\r\n" not in received:
            received += self.sock.recv(65536)
        header, _, rest = received.partition(b"\r\n\r\n")
        status = int(header.split(b" ", 2)[1])
        length = next(
            int(line.split(b":", 1)[1])
            for line in header.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        while len(rest) < length:
            rest += self.sock.recv(65536)
        return status, json.loads(rest)


def notifications_off(connection: Connection, tokens: list[str]) -> None:
    """Each of these users turns every e-mail notification off (as api_load's users do)."""
    off = {"notify": {"turn": False, "action": False, "game": False}}
    for token in tokens:
        status, answer = connection.request("PATCH", "/users/me", off, token)
        if status != 200:
            sys.exit(f"notifications off refused ({status}): {answer}")


def position(game: dict[str, Any]) -> GameState:
    """The position as the player to move sees it (walls left and owners are shown)."""
    return GameState.from_dict(
        {
            "size": game["size"], "players": 2, "first": game["turn"], "turn": game["turn"],
            "winner": None, "ply": 0, "pawns": game["pawns"],
            "walls": [[w["wall"], w["owner"] or game["turn"]] for w in game["walls"]],
            "walls_left": {s["seat"]: s["walls_left"] for s in game["seats"]},
            "passes": [],
        }
    )


def choose(game: dict[str, Any], rng: random.Random) -> tuple[str, str]:
    state = position(game)
    actions = state.legal_actions()
    steps = [a for a in actions if not isinstance(a, PlaceWall)]
    seat = Seat(game["turn"])

    def distance_after(action: Any) -> int:
        after = state.copy()
        after.play(action)
        return after.distance(seat)

    action = min(steps, key=distance_after)
    if rng.random() < 0.15 and len(actions) > len(steps):
        action = rng.choice([a for a in actions if isinstance(a, PlaceWall)])
    kind = "wall" if isinstance(action, PlaceWall) else ("jump" if action.jump else "move")
    return kind, str(action)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="games to play")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the wall choice")
    parser.add_argument(
        "--quiet", action="store_true",
        help="both players turn their e-mail notifications off first (as api_load's users)",
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="cq-move-cost-") as tmp:
        work = Path(tmp)
        database = f"sqlite:///{work / 'corridorquest.db'}"
        port = free_port()
        env = server_env(work, database, port, LOG_LEVEL="WARNING")
        with open(work / "server.log", "wb") as log:
            server = subprocess.Popen(
                [sys.executable, "-m", "corridorquest", "serve"],
                env=env, stdout=log, stderr=subprocess.STDOUT, cwd=work,
            )
        try:
            wait_until_up(f"http://127.0.0.1:{port}", server, work / "server.log")
            tokens = [insert_user(database, f"player{i}") for i in range(2)]
            connection = Connection(port)
            if args.quiet:
                notifications_off(connection, tokens)
            moves, user, system = 0, 0.0, 0.0
            for _ in range(args.games):
                _, game = connection.post("/games", {"players": 2, "size": 9}, tokens[0])
                _, game = connection.post(f"/games/{game['id']}/players", {}, tokens[1])
                seat_token = {
                    s["seat"]: tokens[0] if s["username"] == "player0" else tokens[1]
                    for s in game["seats"]
                }
                while game["status"] == "started":
                    kind, to = choose(game, rng)
                    before = cpu_seconds(server.pid)
                    status, game = connection.post(
                        f"/games/{game['id']}/actions", {"type": kind, "to": to},
                        seat_token[game["turn"]],
                    )
                    after = cpu_seconds(server.pid)
                    if status != 201:
                        sys.exit(f"move refused ({status}): {game}")
                    moves += 1
                    user += after[0] - before[0]
                    system += after[1] - before[1]
        finally:
            server.terminate()
            server.wait(20)
    print(f"move_cost_moves={moves}")
    print(f"move_cost_server_cpu_ms={(user + system) / moves * 1000:.3f}")
    print(f"move_cost_server_sys_ms={system / moves * 1000:.3f}")
    print(f"load_average_1min={os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
