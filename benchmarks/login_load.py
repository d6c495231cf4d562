#!/usr/bin/env python3
"""Moves under a login load: what password hashing takes from the game.

    .venv/bin/python benchmarks/login_load.py [--seconds 10] [--clients 16] [--logins-per-s 20]
    .venv/bin/python benchmarks/login_load.py --set PASSWORD_HASH_QUEUE=100

In ONE run against one server (`python -m corridorquest serve`, SQLite in a temporary
directory, default settings plus PROXIES_COUNT=1 and the `--set` ones):

1. sets up users and games as `api_load.py` does (two players per client, plus
   `--login-users` users whose only use is to log in with the right password);
2. "without": drives `--clients` back-to-back move clients (api_load's `drive`: legal
   moves, one keep-alive connection each) for `--seconds` after `--warmup`;
3. "with": the same again while, from the end of the warmup to the end of the window,
   login attempts leave at `--logins-per-s` a second (open loop: one every 1/rate s,
   whether or not the earlier ones were answered), each from an address of its own
   (X-Forwarded-For, as a botnet would): wrong passwords of the move players, and on
   `--correct-share` of them the right password of a login user (replace=true).

Output: `name=value` lines: moves/s, p50/p99 and CPU shares of both windows
(`without_moves_*`, `with_moves_*`), `moves_ratio_with_to_without`, and the logins by
answer (201/401/429/503, and any still unanswered 30 s after the window) with their
latency (`logins_<status>_p50_ms`, `..._p99_ms`, `..._max_ms`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import api_load  # noqa: E402

WRONG_PASSWORD = "not the benchmark password"
DRAIN_SECONDS = 30.0  # how long to wait for logins still open when the window ends


@dataclass
class Logins:
    answers: dict[str, list[float]] = field(default_factory=dict)  # status -> latencies (s)
    sent: int = 0

    def add(self, status: str, latency: float) -> None:
        self.answers.setdefault(status, []).append(latency)


async def attempt(
    api: httpx.AsyncClient, body: dict[str, object], address: str, logins: Logins
) -> None:
    started = time.perf_counter()
    try:
        response = await api.post("/sessions", json=body, headers={"X-Forwarded-For": address})
        status = str(response.status_code)
    except httpx.HTTPError as exc:
        status = type(exc).__name__
    logins.add(status, time.perf_counter() - started)


async def login_load(
    api: httpx.AsyncClient,
    args: argparse.Namespace,
    wrong_users: list[str],
    right_users: list[str],
    logins: Logins,
) -> None:
    """Open-loop login attempts from the end of the warmup to the end of the window."""
    rng = random.Random(args.seed)
    await asyncio.sleep(args.warmup)
    begin = time.monotonic()
    tasks: list[asyncio.Task[None]] = []
    n = 0
    while (due := begin + n / args.logins_per_s) < begin + args.seconds:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        body: dict[str, object]
        if rng.random() < args.correct_share:
            body = {
                "username": rng.choice(right_users),
                "password": api_load.PASSWORD,
                "replace": True,
            }
        else:
            body = {"username": rng.choice(wrong_users), "password": WRONG_PASSWORD}
        address = f"10.{n // 62500 % 250}.{n // 250 % 250}.{n % 250 + 1}"
        tasks.append(asyncio.ensure_future(attempt(api, body, address, logins)))
        n += 1
    logins.sent = n
    _, pending = await asyncio.wait(tasks, timeout=DRAIN_SECONDS) if tasks else (set(), set())
    for task in pending:
        task.cancel()
    if pending:
        logins.answers["unanswered"] = [DRAIN_SECONDS] * len(pending)


def report_logins(logins: Logins, elapsed: float) -> None:
    print(f"logins_sent={logins.sent}")
    print(f"logins_per_s_sent={logins.sent / elapsed:.1f}")
    everything: list[float] = []
    for status in sorted(logins.answers):
        latencies = sorted(logins.answers[status])
        everything += latencies
        print(f"logins_{status}={len(latencies)}")
        print(f"logins_{status}_p50_ms={quantile(latencies, 0.50):.0f}")
        print(f"logins_{status}_p99_ms={quantile(latencies, 0.99):.0f}")
        print(f"logins_{status}_max_ms={latencies[-1] * 1000:.0f}")
    everything.sort()
    if everything:
        print(f"logins_all_p50_ms={quantile(everything, 0.50):.0f}")
        print(f"logins_all_p99_ms={quantile(everything, 0.99):.0f}")


def quantile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else 0.0


def p99_ms(tally: api_load.Tally) -> float:
    return quantile(sorted(tally.latencies), 0.99)


async def benchmark(args: argparse.Namespace, work: Path) -> None:
    settings = {"PROXIES_COUNT": "1"}
    settings.update(item.split("=", 1) for item in args.set)
    for name in ("clients", "seconds", "warmup", "logins_per_s", "correct_share"):
        print(f"{name}={getattr(args, name)}")
    print(f"settings={' '.join(f'{k}={v}' for k, v in settings.items())}")
    print(f"cpus={os.cpu_count()}")
    print(f"load_average_1min_before={os.getloadavg()[0]:.2f}")
    os.environ.update(settings)  # api_load.start_server passes the environment on
    port = api_load.free_port()
    server = api_load.start_server(work, port)
    try:
        base = f"http://127.0.0.1:{port}/api/v1"
        limits = httpx.Limits(max_connections=2000, max_keepalive_connections=100)
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as api:
            users = await api_load.make_users(
                api, work / "mail", 2 * args.clients + args.login_users
            )
            players, login_users = users[: 2 * args.clients], users[2 * args.clients :]
            print(f"users={len(users)}")

            tally, elapsed = await api_load.drive(port, players, args, api, server.pid)
            without = api_load.report("without_moves", tally, elapsed)
            without_p99 = p99_ms(tally)

            logins = Logins()
            load = asyncio.ensure_future(
                login_load(
                    api,
                    args,
                    [name for name, _ in players],
                    [name for name, _ in login_users],
                    logins,
                )
            )
            tally, elapsed = await api_load.drive(port, players, args, api, server.pid)
            with_logins = api_load.report("with_moves", tally, elapsed)
            await load
            report_logins(logins, args.seconds)
    finally:
        api_load.stop(server)
    print(f"moves_ratio_with_to_without={with_logins / without:.3f}")
    print(f"moves_p99_ms_without={without_p99:.1f}")
    print(f"moves_p99_ms_with={p99_ms(tally):.1f}")
    print(f"load_average_1min_after={os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="measured time per window")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured time first")
    parser.add_argument("--clients", type=int, default=16, help="back-to-back move clients")
    parser.add_argument(
        "--logins-per-s",
        type=float,
        default=20.0,
        help="login attempts a second in the second window",
    )
    parser.add_argument(
        "--correct-share",
        type=float,
        default=0.1,
        help="share of the attempts with the right password",
    )
    parser.add_argument(
        "--login-users",
        type=int,
        default=8,
        help="users that only log in (with the right password)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a server setting (repeatable), e.g. PASSWORD_HASH_QUEUE=8",
    )
    parser.add_argument("--size", type=int, default=9, help="board size of the games")
    parser.add_argument(
        "--wall-share",
        type=float,
        default=0.15,
        help="share of turns that place a wall while walls are left",
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed")
    args = parser.parse_args()
    args.client = "raw"  # api_load's default move client (the cheapest)
    if args.clients < 1 or args.seconds <= 0 or args.logins_per_s <= 0 or args.login_users < 1:
        parser.error("--clients, --seconds, --logins-per-s and --login-users must be positive")
    with tempfile.TemporaryDirectory(prefix="cq-bench-") as work:
        with asyncio.Runner(loop_factory=api_load.event_loop_factory()) as runner:
            runner.run(benchmark(args, Path(work)))


if __name__ == "__main__":
    main()
