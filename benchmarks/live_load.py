#!/usr/bin/env python3
"""Live streams under load: moves per second with spectators watching, and event delivery.

    .venv/bin/python benchmarks/live_load.py [--seconds 20] [--clients 64] [--spectators 1000]
        [--watched 100] [--rounds 1] [--postgres URL]

SQLite, one server process (the default), two runs on fresh servers:
1. `quiet`: --clients clients play; each owns two 2-player games and alternates between
   them (2 x --clients games in play). Moves are legal, chosen with the rules engine as in
   api_load.py, and avoid winning (a finished game would leave its spectators idle).
2. `watched`: the same, while --spectators server-sent-event streams (spectator users,
   in a process of their own) watch --watched of the games.
With --rounds N the two runs alternate N times each (quiet, watched, quiet, ...), so that
a machine whose speed drifts weighs on both alike; the means and the median ratio follow.
It prints the moves per second of both and their ratio, and the delivery of the `game`
event of each accepted move of a watched game to each of its streams: from the moment the
move's 201 answer reached its client (`delivery_ms`, an event that came first counts 0)
and from the moment its request was sent (`delivery_from_request_ms`, an upper bound).

With --postgres URL (a server the benchmark may create databases on, like
CQ_TEST_DATABASE_URL), two more runs on PostgreSQL: one server process, then two on one
database with the clients split between them, while spectators on the second process
watch games whose moves go through the first (the delivery across processes, through
LISTEN/NOTIFY).

Users and sessions are written straight into the database (no signups: argon2 would
dominate the setup). Output: `name=value` lines. Everything runs on this machine: the
server, the load generator and the spectators compete for its cores (benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import api_load  # noqa: E402

from corridorquest.engine import GameState, Seat  # noqa: E402
from tests.support.processes import children  # noqa: E402

GAME_EVENT = re.compile(rb"event: game\nid: (\d+)\.")
REVISION = re.compile(rb'"revision":(\d+)')


# --- the server ---------------------------------------------------------------------------


def start_server(work: Path, port: int, database_url: str) -> subprocess.Popen[bytes]:
    """api_load's server (its log in `work`/<port>) on `database_url`."""
    home = work / str(port)
    home.mkdir(parents=True, exist_ok=True)
    extra = {"DATABASE_URL": database_url, "STREAMS_PER_USER": "64"}
    return api_load.start_server(home, port, extra)


def insert_users(database_url: str, prefix: str, count: int) -> list[tuple[str, str]]:
    """`count` verified users with a session each, written into the database: (name, token)."""
    from corridorquest.security.tokens import hash_token, new_token
    from corridorquest.store import Store
    from corridorquest.store.models import Session, User, utcnow

    store = Store.open(database_url, pool_size=1, migrate=False)
    made: list[tuple[str, str]] = []

    def create() -> None:
        now = utcnow()
        for i in range(count):
            name, token = f"{prefix}{i:04d}", new_token()
            user = User.create(
                username=name,
                email=f"{name}@bench.invalid",
                password_hash="!not-a-password-hash",
                verified=True,
                notify_turn=False,
                notify_action=False,
                notify_game=False,
            )
            Session.create(
                token_hash=hash_token(token), user=user, created_at=now, last_seen_at=now,
                expires_at=now + timedelta(days=1),
            )
            made.append((name, token))

    try:
        store.run(create)
    finally:
        store.close()
    return made


# --- players ------------------------------------------------------------------------------


@dataclass
class Game:
    id: int
    state: GameState
    tokens: dict[Seat, str]
    port: int


@dataclass
class Tally:
    measuring: bool = False
    accepted: int = 0
    refused: int = 0
    latencies: list[float] = field(default_factory=list)
    # (game id, revision) -> (request sent, answer received), for watched games
    moves: dict[tuple[int, int], tuple[float, float]] = field(default_factory=dict)


async def new_game(port: int, players: tuple[tuple[str, str], tuple[str, str]]) -> Game:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}/api/v1", timeout=60) as api:
        first, second = ({"Authorization": f"Bearer {token}"} for _, token in players)
        created = await api.post("/games", json={"players": 2}, headers=first)
        if created.status_code != 201:
            raise RuntimeError(f"create game: {created.status_code} {created.text}")
        game_id = created.json()["id"]
        joined = await api.post(f"/games/{game_id}/players", json={}, headers=second)
        if joined.status_code != 201:
            raise RuntimeError(f"join game: {joined.status_code} {joined.text}")
        view = joined.json()
    tokens = dict(players)
    seats = {Seat(seat["seat"]): tokens[seat["username"]] for seat in view["seats"]}
    return Game(game_id, GameState.new(size=9, players=2, first=Seat(view["turn"])), seats, port)


async def play(
    games: list[Game], players: tuple[tuple[str, str], tuple[str, str]], watched: set[int],
    tally: Tally, stop_at: list[float], seed: int, wall_share: float,
) -> None:
    """One client: a keep-alive connection per server, moves in its games by turns."""
    rng = random.Random(seed)
    sends = {port: await api_load.raw_connection(port) for port in {g.port for g in games}}
    turn = 0
    while time.monotonic() < stop_at[0]:
        index = turn % len(games)
        turn += 1
        game = games[index]
        token = game.tokens[game.state.turn]  # type: ignore[index]
        kind, notation = api_load.choose(game.state, rng, wall_share, keep_going=True)
        body = json.dumps({"type": kind, "to": notation}).encode()
        sent = time.monotonic()
        status, answer = await sends[game.port](f"/api/v1/games/{game.id}/actions", body, token)
        answered = time.monotonic()
        if tally.measuring:
            tally.latencies.append(answered - sent)
            if status == 201:
                tally.accepted += 1
            else:
                tally.refused += 1
        if status == 201 and game.id in watched:
            found = REVISION.search(answer)
            if found:
                tally.moves[(game.id, int(found.group(1)))] = (sent, answered)
        if status != 201 or game.state.is_finished:
            games[index] = await new_game(game.port, players)


# --- spectators (a process of their own) --------------------------------------------------


class _Watch(asyncio.Protocol):
    """One spectator stream: notes when each `game` event arrives (a protocol, not a
    task: the readers share the machine with the server, so they are kept cheap)."""

    def __init__(self, game_id: int, request: bytes, received: list[tuple[int, int, float]],
                 ready: asyncio.Future[None]) -> None:
        self.game_id = game_id
        self.request = request
        self.received = received
        self.ready = ready
        self.head: bytes | None = b""  # None once the response's head is in
        self.tail = b""

    def connection_made(self, transport: Any) -> None:
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        if self.head is not None:
            self.head += data
            split = self.head.find(b"\r\n\r\n")
            if split < 0:
                return
            status = self.head.split(b"\r\n", 1)[0]
            data, self.head = self.head[split + 4 :], None
            if b" 200 " not in status:
                self.ready.set_exception(
                    SystemExit(f"stream of game {self.game_id}: {status[:80]!r}"))
                return
            self.ready.set_result(None)
        data = self.tail + data
        end = data.rfind(b"\n\n")
        if end < 0:
            self.tail = data[-4096:]
            return
        for match in GAME_EVENT.finditer(data, 0, end):
            self.received.append((self.game_id, int(match.group(1)), now))
        self.tail = data[end + 2 :]


async def spectate(port: int, streams: list[tuple[int, str]], out: Path) -> None:
    """Hold the streams open and note when each `game` event arrives, until stdin closes."""
    received: list[tuple[int, int, float]] = []
    loop = asyncio.get_running_loop()
    transports = []
    for game_id, token in streams:
        ready: asyncio.Future[None] = loop.create_future()
        request = (
            f"GET /api/v1/games/{game_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        transport, _ = await loop.create_connection(
            lambda gid=game_id, r=request, f=ready: _Watch(gid, r, received, f),  # type: ignore[misc]
            "127.0.0.1", port,
        )
        transports.append(transport)
        await ready
    print("ready", flush=True)
    await loop.run_in_executor(None, sys.stdin.read)  # until the benchmark closes it
    for transport in transports:
        transport.close()
    out.write_text(json.dumps(received))


def start_spectators(
    work: Path, port: int, streams: list[tuple[int, str]]
) -> subprocess.Popen[str]:
    plan = work / f"spectators-{port}.json"
    plan.write_text(json.dumps(streams))
    process = subprocess.Popen(
        [sys.executable, __file__, "--spectate", str(port), str(plan), str(work / "received.json")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if line.strip() != "ready":
        raise SystemExit(f"spectators did not start: {line!r}")
    return process


# --- one run ------------------------------------------------------------------------------


@dataclass
class Run:
    rate: float
    tally: Tally
    delivery: list[float]
    delivery_from_request: list[float]
    server_cpu: float


def tree_cpu_seconds(pid: int) -> float:
    """CPU time of a server process and of its children (if any)."""
    return api_load.cpu_seconds(pid) + sum(api_load.cpu_seconds(c) for c in children(pid))


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def run(
    args: argparse.Namespace, work: Path, database_url: str, processes: int, spectators: int,
    prefix: str,
) -> Run:
    ports = [api_load.free_port() for _ in range(processes)]
    servers = [start_server(work / prefix, ports[0], database_url)]
    with ExitStack() as stack:
        stack.callback(lambda: [api_load.stop(s) for s in servers])
        for port in ports[1:]:
            servers.append(start_server(work / prefix, port, database_url))
        players = insert_users(database_url, "p", 2 * args.clients)
        watchers = insert_users(database_url, "w", max(1, spectators // 10))
        # client i plays through the first process when i is even (the spectators are on
        # the last one: across processes when there are two)
        games: list[list[Game]] = []
        for i in range(args.clients):
            port = ports[0] if processes == 1 or i % 2 == 0 else ports[1]
            pair = (players[2 * i], players[2 * i + 1])
            games.append([await new_game(port, pair), await new_game(port, pair)])
        movers_first = [g for i, pair in enumerate(games) if i % 2 == 0 or processes == 1
                        for g in pair]
        watched_games = [g.id for g in movers_first[: args.watched]] if spectators else []
        streams = [
            (watched_games[i % len(watched_games)], watchers[i // 10][1])
            for i in range(spectators)
        ] if watched_games else []
        spectator_process = None
        if streams:
            spectator_process = start_spectators(work / prefix, ports[-1], streams)
            stack.callback(spectator_process.kill)
        tally = Tally()
        stop_at = [float("inf")]
        clients = [
            play(games[i], (players[2 * i], players[2 * i + 1]), set(watched_games), tally,
                 stop_at, args.seed + i, args.wall_share)
            for i in range(args.clients)
        ]
        runner = asyncio.gather(*clients)
        await asyncio.sleep(args.warmup)
        tally.measuring = True
        begin = time.monotonic()
        cpu = sum(tree_cpu_seconds(s.pid) for s in servers)
        others = [api_load.cpu_seconds(os.getpid())]  # the load generator, the spectators
        if spectator_process is not None:
            others.append(api_load.cpu_seconds(spectator_process.pid))
        stop_at[0] = begin + args.seconds
        await runner
        elapsed = time.monotonic() - begin
        server_cpu = (sum(tree_cpu_seconds(s.pid) for s in servers) - cpu) / elapsed
        generator_cpu = (api_load.cpu_seconds(os.getpid()) - others[0]) / elapsed
        spectators_cpu = 0.0
        if spectator_process is not None:
            spectators_cpu = (api_load.cpu_seconds(spectator_process.pid) - others[1]) / elapsed
        delivery: list[float] = []
        from_request: list[float] = []
        if spectator_process is not None:
            await asyncio.sleep(1.0)  # the last events on their way
            assert spectator_process.stdin is not None
            spectator_process.stdin.close()
            spectator_process.wait(60)
            received = json.loads((work / prefix / "received.json").read_text())
            for game_id, revision, at in received:
                move = tally.moves.get((game_id, revision))
                if move is None or not (begin <= move[0] <= begin + args.seconds):
                    continue  # not a move of the measured time (or the game's first view)
                delivery.append(max(0.0, at - move[1]))
                from_request.append(at - move[0])
    rate = tally.accepted / elapsed
    print(f"{prefix}_processes={processes}")
    print(f"{prefix}_spectator_streams={len(streams)}")
    print(f"{prefix}_moves_per_s={rate:.0f}")
    print(f"{prefix}_move_p50_ms={quantile(tally.latencies, 0.5):.1f}")
    print(f"{prefix}_move_p99_ms={quantile(tally.latencies, 0.99):.1f}")
    print(f"{prefix}_refused={tally.refused}")
    print(f"{prefix}_server_cpu_share={server_cpu:.2f}")
    print(f"{prefix}_generator_cpu_share={generator_cpu:.2f}")
    if streams:
        print(f"{prefix}_spectators_cpu_share={spectators_cpu:.2f}")
    if streams:
        print(f"{prefix}_events_delivered={len(delivery)}")
        print(f"{prefix}_delivery_p50_ms={quantile(delivery, 0.5):.1f}")
        print(f"{prefix}_delivery_p99_ms={quantile(delivery, 0.99):.1f}")
        print(f"{prefix}_delivery_from_request_p99_ms={quantile(from_request, 0.99):.1f}")
    return Run(rate, tally, delivery, from_request, server_cpu)


async def benchmark(args: argparse.Namespace, work: Path) -> None:
    for name in ("seconds", "clients", "spectators", "watched"):
        print(f"{name}={getattr(args, name)}")
    print(f"cpus={os.cpu_count()}")
    print(f"load_average_1min_before={os.getloadavg()[0]:.2f}")
    quiet_rates: list[float] = []
    watched_rates: list[float] = []
    for round_ in range(args.rounds):  # quiet, watched, quiet, watched...: drift hits both
        name = "" if args.rounds == 1 else f"_{round_ + 1}"
        if not args.skip_quiet:
            db = f"sqlite:///{work / f'quiet{name}.db'}"
            quiet_rates.append((await run(args, work, db, 1, 0, f"sqlite_quiet{name}")).rate)
        db = f"sqlite:///{work / f'watched{name}.db'}"
        watched = await run(args, work, db, 1, args.spectators, f"sqlite_watched{name}")
        watched_rates.append(watched.rate)
        if not args.skip_quiet:
            print(f"sqlite_ratio_watched_to_quiet{name}={watched.rate / quiet_rates[-1]:.3f}")
    if args.rounds > 1 and not args.skip_quiet:
        ratios = [w / q for w, q in zip(watched_rates, quiet_rates, strict=True)]
        print(f"sqlite_quiet_moves_per_s_mean={sum(quiet_rates) / len(quiet_rates):.0f}")
        print(f"sqlite_watched_moves_per_s_mean={sum(watched_rates) / len(watched_rates):.0f}")
        print(f"sqlite_ratio_of_means={sum(watched_rates) / sum(quiet_rates):.3f}")
        print(f"sqlite_ratio_median={statistics.median(ratios):.3f}")
    if args.postgres:
        os.environ["CQ_TEST_DATABASE_URL"] = args.postgres
        from tests.support.server import fresh_database

        with fresh_database(work) as url:
            one = await run(args, work, url, 1, 0, "pg_one_process")
        with fresh_database(work) as url:
            two = await run(args, work, url, 2, args.pg_spectators, "pg_two_processes")
        print(f"pg_ratio_two_to_one={two.rate / one.rate:.3f}")
    print(f"load_average_1min_after={os.getloadavg()[0]:.2f}")


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--spectate":
        streams = [tuple(item) for item in json.loads(Path(sys.argv[3]).read_text())]
        with asyncio.Runner(loop_factory=api_load.event_loop_factory()) as runner:
            runner.run(spectate(int(sys.argv[2]), streams, Path(sys.argv[4])))  # type: ignore[arg-type]
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time per run")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured time first")
    parser.add_argument("--clients", type=int, default=64, help="concurrent playing clients")
    parser.add_argument("--spectators", type=int, default=1000, help="spectator streams")
    parser.add_argument("--watched", type=int, default=100, help="games the spectators watch")
    parser.add_argument("--wall-share", type=float, default=0.15, help="share of wall turns")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=1,
                        help="quiet and watched runs, alternating, this many times each")
    parser.add_argument("--skip-quiet", action="store_true",
                        help="only the run with spectators (to profile the server)")
    parser.add_argument("--postgres", default=os.environ.get("CQ_TEST_DATABASE_URL"),
                        help="a PostgreSQL server URL to run the multi-process figures on")
    parser.add_argument("--pg-spectators", type=int, default=200,
                        help="spectator streams on the second process in the PostgreSQL run")
    args = parser.parse_args()
    if args.watched < 1 or args.watched > 2 * args.clients:
        parser.error("--watched must be between 1 and twice --clients")
    with tempfile.TemporaryDirectory(prefix="cq-live-bench-") as work:
        with asyncio.Runner(loop_factory=api_load.event_loop_factory()) as runner:
            runner.run(benchmark(args, Path(work)))


if __name__ == "__main__":
    main()
