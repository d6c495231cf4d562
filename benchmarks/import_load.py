#!/usr/bin/env python3
"""Imports and replays of long games while people play (issue 48 item 13).

    .venv/bin/python benchmarks/import_load.py [--seconds 20] [--clients 16] [--rounds 2]

One server (`python -m corridorquest serve`, SQLite in a temporary directory, as in
api_load.py; IMPORTS_PER_DAY and IMPORTED_ACTIONS_QUOTA raised so that one importer may
import all through the run). Before the runs it imports the longest game allowed: a
record of MAX_GAME_ACTIONS (3,000) actions whose pawns step back and forth and then run
home to win (tests/support/long_records.py; about 17 KB). Then, alternately (--rounds
times each, on the same server, so that a machine whose speed drifts weighs on both):

1. `alone`: --clients clients play, each with two 2-player 9x9 games over one keep-alive
   connection, legal moves chosen with the engine (live_load.py's players).
2. `loaded`: the same, while every --burst-every seconds (2) at the same moment one user
   imports that longest record again (`POST /api/v1/games/imported`) and 4 anonymous
   watchers (no login) replay at random actions: two `GET /api/v1/games/{id}/board.svg
   ?at=k`, two replay pages `GET /games/{id}?at=k`; half of them of the longest stored
   game, half of the game the previous burst imported (no position of it kept yet: a
   replay from the start). A burst waits for the previous one to end.

First, on the idle server (`solo_*`): 10 imports of that record and 20 replays of each
kind (board picture, replay page, `GET /api/v1/games/{id}?at=k`), one after the other:
the server process's own CPU per request (its event loop and threads, not its worker
processes), which no other program on the machine changes much.

Output: `name=value` lines (moves per second, latencies of moves, imports and replays,
the longest wait of any request) and the ratio of people's moves loaded to alone (issue
48 asks for at least 0.8, and no request waiting more than 1 s). Everything runs on this
machine: the server, the players and the watchers compete for its cores.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import api_load  # noqa: E402
import live_load  # noqa: E402

from corridorquest.settings import Settings  # noqa: E402
from tests.support.long_records import long_record  # noqa: E402
from tests.support.processes import children  # noqa: E402

WATCHERS = 4  # anonymous replay requests of a burst


@dataclass
class Waits:
    """Latencies (seconds) of one kind of request in the measured window, and refusals."""

    latencies: list[float] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def add(self, seconds: float, status: int, expected: int, what: str) -> None:
        self.latencies.append(seconds)
        if status != expected:
            self.failed.append(f"{what}: {status}")


def children_cpu(pid: int) -> float:
    """CPU seconds of the live child processes of `pid` (the server's workers)."""
    return sum(api_load.cpu_seconds(child) for child in children(pid))


def quantile(values: list[float], q: float) -> float:
    """The q-quantile of `values` (seconds) in milliseconds."""
    return live_load.quantile(values, q)


async def import_once(api: httpx.AsyncClient, token: str, text: str, waits: Waits) -> int | None:
    sent = time.monotonic()
    answer = await api.post(
        "/api/v1/games/imported", json={"record": text},
        headers={"Authorization": f"Bearer {token}"},
    )
    waits.add(time.monotonic() - sent, answer.status_code, 201, "import")
    return int(answer.json()["games"][0]) if answer.status_code == 201 else None


async def replay_once(web: httpx.AsyncClient, path: str, waits: Waits) -> None:
    sent = time.monotonic()
    answer = await web.get(path)
    waits.add(time.monotonic() - sent, answer.status_code, 200, path)


async def bursts(
    args: argparse.Namespace, base: str, token: str, text: str, longest: int, actions: int,
    stop_at: list[float], imports: Waits, replays: Waits,
) -> None:
    """Every --burst-every seconds, at the same moment: an import of `text` and WATCHERS
    anonymous replays at random actions, half of the longest stored game, half of the
    game the previous burst imported (no position of it kept yet), alternately the board
    picture and the replay page. The next burst waits for this one to end."""
    rng = random.Random(args.seed)
    latest = longest
    async with httpx.AsyncClient(base_url=base, timeout=60) as api, httpx.AsyncClient(
        base_url=base, timeout=60
    ) as web:  # (web: no login)
        while time.monotonic() + args.burst_every < stop_at[0]:
            began = time.monotonic()
            paths = []
            for i in range(WATCHERS):
                game = longest if i % 2 else latest
                at = rng.randrange(actions)
                paths.append(
                    f"/api/v1/games/{game}/board.svg?at={at}" if i < 2
                    else f"/games/{game}?at={at}"
                )
            work = []
            if args.burst in ("both", "import"):
                work.append(import_once(api, token, text, imports))
            if args.burst in ("both", "replay"):
                work += [replay_once(web, path, replays) for path in paths]
            done = await asyncio.gather(*work)
            if args.burst in ("both", "import") and done[0] is not None:
                latest = done[0]
            await asyncio.sleep(max(0.0, began + args.burst_every - time.monotonic()))


async def solo_costs(
    base: str, token: str, text: str, longest: int, actions: int, server_pid: int
) -> None:
    """The server process's own CPU (its event loop and threads, not its workers) per
    request, the requests one after the other on an idle server: 10 imports of `text`,
    then 20 replays of each kind at random actions of the longest game."""
    rng = random.Random(7)
    headers = {"Authorization": f"Bearer {token}"}
    kinds = {
        "import": None,
        "svg": "/api/v1/games/{game}/board.svg?at={at}",
        "page": "/games/{game}?at={at}",
        "api": "/api/v1/games/{game}?at={at}",
    }
    async with httpx.AsyncClient(base_url=base, timeout=60) as api:
        for name, path in kinds.items():
            count = 10 if path is None else 20
            cpu, began = api_load.cpu_seconds(server_pid), time.monotonic()
            for _ in range(count):
                if path is None:
                    answer = await api.post(
                        "/api/v1/games/imported", json={"record": text}, headers=headers
                    )
                else:
                    at = rng.randrange(actions)
                    answer = await api.get(path.format(game=longest, at=at), headers=headers)
                if answer.status_code not in (200, 201):
                    sys.exit(f"{name}: {answer.status_code} {answer.text[:200]}")
            used = (api_load.cpu_seconds(server_pid) - cpu) / count
            print(f"solo_{name}_server_cpu_ms={used * 1000:.1f}")
            print(f"solo_{name}_wall_ms={(time.monotonic() - began) / count * 1000:.1f}")


@dataclass
class Round:
    moves_per_s: float
    moves: list[float]
    imports: Waits
    replays: Waits


async def one_round(
    args: argparse.Namespace, port: int, players: list[tuple[str, str]], loaded: bool,
    importer_token: str, record: str, longest: int, actions: int, prefix: str, server_pid: int,
) -> Round:
    base = f"http://127.0.0.1:{port}"
    games = []
    for i in range(args.clients):
        pair = (players[2 * i], players[2 * i + 1])
        games.append([await live_load.new_game(port, pair), await live_load.new_game(port, pair)])
    tally = live_load.Tally()
    stop_at = [float("inf")]
    tasks = [
        live_load.play(games[i], (players[2 * i], players[2 * i + 1]), set(), tally, stop_at,
                       args.seed + i, args.wall_share)
        for i in range(args.clients)
    ]
    imports, replays = Waits(), Waits()
    runner = asyncio.gather(*tasks)
    await asyncio.sleep(args.warmup)
    tally.measuring = True
    begin = time.monotonic()
    cpu = (
        api_load.cpu_seconds(server_pid), children_cpu(server_pid),
        api_load.cpu_seconds(os.getpid()),
    )
    stop_at[0] = begin + args.seconds
    extra = []
    if loaded:
        extra.append(bursts(
            args, base, importer_token, record, longest, actions, stop_at, imports, replays
        ))
    await asyncio.gather(runner, *extra)
    elapsed = time.monotonic() - begin
    server_cpu = api_load.cpu_seconds(server_pid) - cpu[0]
    worker_cpu = children_cpu(server_pid) - cpu[1]  # the replay worker, the bots' workers
    generator_cpu = api_load.cpu_seconds(os.getpid()) - cpu[2]
    rate = tally.accepted / elapsed
    print(f"{prefix}_moves_per_s={rate:.0f}")
    print(f"{prefix}_server_cpu_share={server_cpu / elapsed:.2f}")
    print(f"{prefix}_server_cpu_ms_per_move={server_cpu * 1000 / max(1, tally.accepted):.2f}")
    print(f"{prefix}_children_cpu_share={worker_cpu / elapsed:.2f}")
    print(f"{prefix}_generator_cpu_share={generator_cpu / elapsed:.2f}")
    print(f"{prefix}_move_p50_ms={quantile(tally.latencies, 0.5):.1f}")
    print(f"{prefix}_move_p99_ms={quantile(tally.latencies, 0.99):.1f}")
    print(f"{prefix}_move_max_ms={max(tally.latencies, default=0) * 1000:.1f}")
    print(f"{prefix}_moves_refused={tally.refused}")
    if loaded:
        for name, waits in (("import", imports), ("replay", replays)):
            print(f"{prefix}_{name}s={len(waits.latencies)}")
            print(f"{prefix}_{name}_p50_ms={quantile(waits.latencies, 0.5):.1f}")
            print(f"{prefix}_{name}_p99_ms={quantile(waits.latencies, 0.99):.1f}")
            print(f"{prefix}_{name}_max_ms={max(waits.latencies, default=0) * 1000:.1f}")
            print(f"{prefix}_{name}s_failed={len(waits.failed)} {waits.failed[:3]}")
    return Round(rate, tally.latencies, imports, replays)


async def benchmark(args: argparse.Namespace, work: Path) -> None:
    port = api_load.free_port()
    field = Settings.model_fields.get("max_game_actions")  # (a server before the limit: 3,000)
    limit = field.default if field is not None else 3000
    database_url = f"sqlite:///{work / 'corridorquest.db'}"
    server = api_load.start_server(work, port, {
        "DATABASE_URL": database_url,
        "IMPORTS_PER_DAY": "100000",
        "IMPORTED_ACTIONS_QUOTA": "1000000000",
    })
    try:
        players = live_load.insert_users(database_url, "p", 2 * args.clients)
        [(_, importer_token)] = live_load.insert_users(database_url, "imp", 1)
        record, end = long_record(9, limit)
        print(f"record_actions={end.ply} record_bytes={len(record.encode())} limit={limit}")
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as api:
            sent = time.monotonic()
            answer = await api.post(
                "/api/v1/games/imported", json={"record": record},
                headers={"Authorization": f"Bearer {importer_token}"},
            )
            if answer.status_code != 201:
                sys.exit(f"the longest record was refused: {answer.status_code} {answer.text}")
            print(f"first_import_ms={(time.monotonic() - sent) * 1000:.0f}")
            longest = answer.json()["games"][0]
        await solo_costs(f"http://127.0.0.1:{port}", importer_token, record, longest, end.ply,
                         server.pid)
        rounds: dict[bool, list[Round]] = {False: [], True: []}
        for number in range(args.rounds):
            for loaded in (False, True):
                prefix = f"{'loaded' if loaded else 'alone'}{number + 1}"
                rounds[loaded].append(await one_round(
                    args, port, players, loaded, importer_token, record, longest, end.ply,
                    prefix, server.pid,
                ))
    finally:
        api_load.stop(server)
    alone = statistics.mean(r.moves_per_s for r in rounds[False])
    loaded_rate = statistics.mean(r.moves_per_s for r in rounds[True])
    waits = [
        w for r in rounds[True]
        for w in (*r.moves, *r.imports.latencies, *r.replays.latencies)
    ]
    print(f"alone_moves_per_s_mean={alone:.0f}")
    print(f"loaded_moves_per_s_mean={loaded_rate:.0f}")
    print(f"ratio_loaded_to_alone={loaded_rate / alone:.3f}")
    print(f"loaded_longest_wait_ms={max(waits, default=0) * 1000:.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--wall-share", type=float, default=0.15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--burst-every", type=float, default=2.0,
        help="seconds between two bursts of one import and 4 replays (loaded runs)",
    )
    parser.add_argument(
        "--burst", choices=("both", "import", "replay"), default="both",
        help="what a burst holds: the import and the replays (default), or one of them",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cq-import-load-") as directory:
        asyncio.run(benchmark(args, Path(directory)))


if __name__ == "__main__":
    main()
