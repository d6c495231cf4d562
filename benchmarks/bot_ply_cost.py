#!/usr/bin/env python3
"""Server CPU per bot ply: bot-only games on the real server, nothing else.

    .venv/bin/python benchmarks/bot_ply_cost.py [--games 8] [--level 4] [--seconds 20]

Starts the server (SQLite in a temporary directory, BOT_WORKERS=1 as `api_load.py`
does, BOTS_ONLY_PACE=0), keeps --games bot-only 2-player 9x9 games in play (--level
against the level below, `api_load.keep_bot_games`), and after 3 s reads for --seconds
the CPU time of the server process and of its children (the bot worker) from /proc.
Prints `name=value`:

    bot_ply_cost_plies=...               bot plies played in the measured time
    bot_ply_cost_server_ms_per_ply=...   server CPU (user + system) per bot ply
    bot_ply_cost_server_cpu_share=...    the server's share of one core
    bot_ply_cost_workers_cpu_share=...   the bot workers' share of one core

What a bot ply costs the server besides the search (reading the game as the bot's seat
sees it, playing the move through the use case, its events) is what people's moves lose
to bot games running beside them (`api_load.py --bot-games`). Linux only (/proc).
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

sys.path.insert(0, str(Path(__file__).resolve().parent))

import api_load  # noqa: E402


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


async def plies_so_far(api: httpx.AsyncClient, token: str) -> int:
    """The revisions of every game the host made, added up (a game's revision counts its
    writes: one a ply, and a few to create and start it)."""
    headers = {"Authorization": f"Bearer {token}"}
    mine = {"user": "me", "relation": "admin", "limit": 500}
    answer = await api.get("/games", params=mine, headers=headers)
    answer.raise_for_status()
    listed = answer.json()
    games = listed["games"] if isinstance(listed, dict) else listed
    return sum(int(game["revision"]) for game in games)


async def measure(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="cq-bot-ply-cost-") as tmp:
        work = Path(tmp)
        port = api_load.free_port()
        # BOTS_ONLY_PACE=0: the bots-only games play as fast as the bots think
        server = api_load.start_server(work, port, {"BOTS_ONLY_PACE": "0"})
        try:
            base = f"http://127.0.0.1:{port}/api/v1"
            async with httpx.AsyncClient(base_url=base, timeout=60) as api:
                players = await api_load.make_users(api, work / "mail", 1, quiet=True)
                token = players[0][1]
                options = argparse.Namespace(bot_level=args.level, size=9)
                keeper = asyncio.create_task(
                    api_load.keep_bot_games(api, token, args.games, options, "ignored")
                )
                await asyncio.sleep(3.0)
                workers = children(server.pid)
                server_before = cpu_seconds(server.pid)
                workers_before = sum(cpu_seconds(pid) for pid in workers)
                started = time.monotonic()
                plies_before = await plies_so_far(api, token)
                await asyncio.sleep(args.seconds)
                plies_after = await plies_so_far(api, token)
                elapsed = time.monotonic() - started
                server_used = cpu_seconds(server.pid) - server_before
                workers_used = sum(cpu_seconds(pid) for pid in workers) - workers_before
                keeper.cancel()
                try:
                    await keeper
                except asyncio.CancelledError:
                    pass
        finally:
            api_load.stop(server)
    plies = plies_after - plies_before
    print(f"bot_ply_cost_plies={plies}")
    print(f"bot_ply_cost_server_ms_per_ply={server_used / max(plies, 1) * 1000:.2f}")
    print(f"bot_ply_cost_server_cpu_share={server_used / elapsed:.2f}")
    print(f"bot_ply_cost_workers_cpu_share={workers_used / elapsed:.2f}")
    print(f"load_average_1min={os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="bot-only games kept in play")
    parser.add_argument("--level", type=int, default=4, choices=range(2, 7),
                        help="the bots' level (against the level below)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time")
    asyncio.run(measure(parser.parse_args()))


if __name__ == "__main__":
    main()
