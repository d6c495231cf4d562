#!/usr/bin/env python3
"""Bots under load: a person's bot beside one user's many games of bots only (issue 48).

    .venv/bin/python benchmarks/bots_load.py [--games 60] [--levels 5 6] [--seconds 180]

1. Starts `python -m corridorquest serve` (one process, SQLite in a temporary directory,
   the default BOT_WORKERS=1 and BOTS_ONLY_PACE unless --bots-only-pace,
   MAX_BOTS_ONLY_GAMES raised to --games, GUESTS=on) and makes two guests.
2. The first guest keeps --games games of bots only in play (9x9, two bots of --levels;
   a finished one is replaced by a new one).
3. The second guest plays 9x9 games against the level-1 bot for --seconds: each time it
   is its turn it plays the step nearest its goal and measures how long the bot takes to
   answer (from the 201 of its move to the game showing its turn again; polled every
   --poll seconds).
4. Counts the fallback moves in the server's log (`the worker failed`, `search failed`),
   those of the person's games apart, and the moves the games of bots only made.

Prints a Markdown table (benchmarks/README.md keeps the figures). The load generator runs
in this process, the server and its bot worker in others; on a 2-core machine shared with
other work the bots-only moves come slower (the workers get the idle time only), the
person's bot should not.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from client.legal import state_from_game  # noqa: E402
from corridorquest.engine import format_action  # noqa: E402

STARTUP_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(work: Path, port: int, settings: dict[str, str]) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CQ_")}
    env.update(
        HOST="127.0.0.1", PORT=str(port), DATA_DIR=str(work / "data"),
        DATABASE_URL=f"sqlite:///{work / 'corridorquest.db'}", EMAIL_BACKEND="file",
        MAIL_DIR=str(work / "mail"), LOG_LEVEL="INFO", PYTHONPATH=str(ROOT), GUESTS="on",
        SIGNUP_LIMIT_ADDRESS="1000",
    )
    env.update(settings)
    with open(work / "server.log", "wb") as out:
        # cwd: `python -m` puts it first on sys.path, before PYTHONPATH (ROOT)
        process = subprocess.Popen([sys.executable, "-m", "corridorquest", "serve"], env=env,
                                   stdout=out, stderr=subprocess.STDOUT, cwd=work)
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit((work / "server.log").read_text(errors="replace")[-2000:])
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/v1/server/info", timeout=1.0)
            return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    sys.exit("the server did not answer")


def guest(client: httpx.Client, name: str) -> dict[str, str]:
    made = client.post("/guests", json={"username": name})
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['token']}"}


class Crowd(threading.Thread):
    """Keeps `games` games of bots only of one user in play."""

    def __init__(self, api: str, auth: dict[str, str], games: int, levels: list[int]) -> None:
        super().__init__(daemon=True)
        self.api, self.auth, self.games, self.levels = api, auth, games, levels
        self.playing: dict[int, int] = {}  # game id -> revision at its start
        self.moves = 0  # moves of finished games and of games in play, counted at the end
        self.refused: list[str] = []
        self.done = threading.Event()

    def new_game(self, client: httpx.Client) -> None:
        made = client.post("/games", headers=self.auth, json={
            "players": 2, "size": 9, "bots": self.levels, "join": False})
        if made.status_code != 201:
            self.refused.append(made.text)
            return
        self.playing[made.json()["id"]] = int(made.json()["revision"])

    def run(self) -> None:
        with httpx.Client(base_url=self.api, timeout=30.0) as client:
            for _ in range(self.games):
                self.new_game(client)
            while not self.done.is_set():
                for game_id, start in list(self.playing.items()):
                    game = client.get(f"/games/{game_id}", headers=self.auth).json()
                    if game["status"] != "started":
                        self.moves += int(game["revision"]) - start
                        del self.playing[game_id]
                        self.new_game(client)
                self.done.wait(2.0)

    def finish(self, client: httpx.Client) -> None:
        self.done.set()
        self.join()
        for game_id, start in self.playing.items():
            game = client.get(f"/games/{game_id}", headers=self.auth).json()
            self.moves += int(game["revision"]) - start
            client.delete(f"/games/{game_id}", headers=self.auth)


def nearest_step(game: dict[str, Any]) -> tuple[str, str]:
    state = state_from_game(game)
    assert state is not None and state.turn is not None
    seat = state.turn

    def after(step: Any) -> int:
        copy = state.copy()
        copy.play(step)
        return 0 if copy.winner == seat else int(copy.distance(seat))

    step = min(state.legal_steps(), key=after)
    return ("jump" if step.jump else "move"), format_action(step)


def person(api: str, auth: dict[str, str], name: str, seconds: float,
           poll: float) -> tuple[list[float], list[int]]:
    """The bot's answer times (seconds) in the person's games, and those games' ids."""
    waits: list[float] = []
    games: list[int] = []
    end = time.monotonic() + seconds
    with httpx.Client(base_url=api, timeout=30.0) as client:
        while time.monotonic() < end:
            made = client.post("/games", headers=auth,
                               json={"players": 2, "size": 9, "bots": [1]})
            assert made.status_code == 201, made.text
            game = made.json()
            games.append(int(game["id"]))
            while game["status"] == "started" and time.monotonic() < end:
                if game["turn_username"] != name:
                    time.sleep(poll)
                    game = client.get(f"/games/{game['id']}", headers=auth).json()
                    continue
                kind, to = nearest_step(game)
                played = client.post(f"/games/{game['id']}/actions", headers=auth,
                                     json={"type": kind, "to": to})
                assert played.status_code == 201, played.text
                moved = time.monotonic()
                while True:
                    game = client.get(f"/games/{game['id']}", headers=auth).json()
                    if game["status"] != "started" or game["turn_username"] == name:
                        break
                    time.sleep(poll)
                if game["status"] == "started":
                    waits.append(time.monotonic() - moved)
            if game["status"] == "started":
                client.delete(f"/games/{game['id']}", headers=auth)
    return waits, games


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="games of bots only (one user)")
    parser.add_argument("--levels", type=int, nargs=2, default=[5, 6])
    parser.add_argument("--seconds", type=float, default=180.0, help="the person's play")
    parser.add_argument("--bots-only-pace", default=None, help="BOTS_ONLY_PACE (default 1 s)")
    parser.add_argument("--bot-workers", default="1")
    parser.add_argument("--poll", type=float, default=0.02)
    parser.add_argument("--log", type=Path, default=None, help="keep the server's log here")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="cq-bots-load-") as tmp:
        work = Path(tmp)
        port = free_port()
        settings = {"MAX_BOTS_ONLY_GAMES": str(args.games), "BOT_WORKERS": args.bot_workers}
        if args.bots_only_pace is not None:
            settings["BOTS_ONLY_PACE"] = args.bots_only_pace
        server = start_server(work, port, settings)
        api = f"http://127.0.0.1:{port}/api/v1"
        try:
            with httpx.Client(base_url=api, timeout=30.0) as client:
                crowd_auth = guest(client, "crowd")
                pat_auth = guest(client, "pat")
                crowd = Crowd(api, crowd_auth, args.games, args.levels)
                crowd.start()
                while len(crowd.playing) + len(crowd.refused) < args.games:
                    time.sleep(0.1)
                started = time.monotonic()
                waits, games = person(api, pat_auth, "pat", args.seconds, args.poll)
                elapsed = time.monotonic() - started
                crowd.finish(client)
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
        text = (work / "server.log").read_text(errors="replace")
        if args.log is not None:
            args.log.write_text(text)
        log = text.splitlines()
    fallback = [line for line in log if "the worker failed" in line or "search failed" in line]
    mine = [line for line in fallback if any(f"in game {g}:" in line for g in games)]
    print(f"games of bots only: {args.games} at levels {args.levels[0]}-{args.levels[1]}, "
          f"9x9, BOT_WORKERS={args.bot_workers}, "
          f"BOTS_ONLY_PACE={args.bots_only_pace or 'default (1 s)'}; "
          f"the person: level 1, 9x9, {elapsed:.0f} s")
    print()
    print("| figure | value |")
    print("|---|---|")
    print(f"| the person's bot's answers | {len(waits)} |")
    if waits:
        print(f"| answer time p50 / p90 / p99 / max (s) | {quantile(waits, 0.5):.2f} / "
              f"{quantile(waits, 0.9):.2f} / {quantile(waits, 0.99):.2f} / {max(waits):.2f} |")
        print(f"| answer time mean (s) | {statistics.fmean(waits):.2f} |")
    print(f"| fallback moves in the person's games | {len(mine)} |")
    print(f"| fallback moves in the games of bots only | {len(fallback) - len(mine)} |")
    print(f"| moves of the games of bots only | {crowd.moves} "
          f"({crowd.moves / elapsed:.1f}/s) |")
    print(f"| games of bots only refused at creation | {len(crowd.refused)} |")


if __name__ == "__main__":
    main()
