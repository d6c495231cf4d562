#!/usr/bin/env python3
"""SQLite WAL size under sustained writes: does the log stay bounded?

    .venv/bin/python benchmarks/wal_growth.py [--seconds 40] [--clients 16]
    .venv/bin/python benchmarks/wal_growth.py --set WAL_CHECKPOINT_THRESHOLD=1MB

Starts the real server (one process, SQLite in a temporary directory, the settings of
`--set` on top of the defaults), sets up one 2-player game per client as `api_load.py`
does, and drives `--clients` back-to-back clients (each sends its next legal move as soon
as the previous one is answered) for `--seconds`. Every `--sample` seconds it reads the
sizes of the database file and its `-wal` file. It prints the samples (`wal_at_<t>s=`
lines, MB), then the maximum and final WAL size, the database size and the moves per
second, as `name=value` lines.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import api_load  # noqa: E402


def megabytes(path: Path) -> float:
    try:
        return path.stat().st_size / 1e6
    except FileNotFoundError:
        return 0.0


async def sample(database: Path, every: float, samples: list[tuple[float, float, float]],
                 stop: asyncio.Event) -> None:
    wal = database.with_name(database.name + "-wal")
    begin = time.monotonic()
    while not stop.is_set():
        samples.append((time.monotonic() - begin, megabytes(wal), megabytes(database)))
        try:
            await asyncio.wait_for(stop.wait(), every)
        except TimeoutError:
            pass
    samples.append((time.monotonic() - begin, megabytes(wal), megabytes(database)))


async def benchmark(args: argparse.Namespace, work: Path) -> None:
    extra = dict(item.split("=", 1) for item in args.set)
    print(f"clients={args.clients}")
    print(f"seconds={args.seconds}")
    print(f"settings={' '.join(args.set) or 'defaults'}")
    print(f"cpus={os.cpu_count()}")
    print(f"load_average_1min_before={os.getloadavg()[0]:.2f}")
    port = api_load.free_port()
    server = api_load.start_server(work, port, extra)
    database = work / "corridorquest.db"
    try:
        base = f"http://127.0.0.1:{port}/api/v1"
        async with httpx.AsyncClient(base_url=base, timeout=60) as api:
            players = await api_load.make_users(api, work / "mail", 2 * args.clients)
            print(f"wal_mb_after_setup={megabytes(database.with_name(database.name + '-wal')):.1f}")
            samples: list[tuple[float, float, float]] = []
            stop = asyncio.Event()
            sampler = asyncio.ensure_future(sample(database, args.sample, samples, stop))
            tally, elapsed = await api_load.drive(port, players, args, api, server.pid)
            stop.set()
            await sampler
    finally:
        api_load.stop(server)
    step = max(1, round(args.print_every / args.sample))
    for at, wal, _ in samples[::step]:
        print(f"wal_mb_at_{at:.0f}s={wal:.1f}")
    print(f"wal_mb_max={max(wal for _, wal, _ in samples):.1f}")
    print(f"wal_mb_final={samples[-1][1]:.1f}")
    print(f"database_mb_final={samples[-1][2]:.1f}")
    print(f"moves_accepted={tally.accepted}")
    print(f"moves_refused={tally.refused}")
    print(f"moves_per_s={tally.accepted / elapsed:.0f}")
    latencies = sorted(tally.latencies) or [0.0]
    print(f"moves_p99_ms={latencies[int(0.99 * (len(latencies) - 1))] * 1000:.2f}")
    print(f"load_average_1min_after={os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=40.0, help="time under load")
    parser.add_argument("--clients", type=int, default=16, help="back-to-back clients")
    parser.add_argument("--sample", type=float, default=0.25, help="seconds between samples")
    parser.add_argument("--print-every", type=float, default=2.0,
                        help="seconds between the printed samples")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a server setting (repeatable)")
    parser.add_argument("--size", type=int, default=9, help="board size of the games")
    parser.add_argument("--wall-share", type=float, default=0.15,
                        help="share of turns that place a wall while walls are left")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the move choice")
    args = parser.parse_args()
    args.client = "raw"
    args.warmup = 0.0
    if any("=" not in item for item in args.set):
        parser.error("--set takes NAME=VALUE")
    with tempfile.TemporaryDirectory(prefix="cq-wal-") as work:
        with asyncio.Runner(loop_factory=api_load.event_loop_factory()) as runner:
            runner.run(benchmark(args, Path(work)))


if __name__ == "__main__":
    main()
