#!/usr/bin/env python3
"""API load: accepted moves per second of the real server, against a bare Sanic baseline.

    .venv/bin/python benchmarks/api_load.py [--seconds 20] [--clients 64] [--client raw]

1. Starts `python -m corridorquest serve` (one process, SQLite in a temporary directory),
   signs up, verifies and logs in two users per client, and creates one 2-player game per
   client (9x9 unless --size).
2. Drives --clients concurrent clients for --seconds (after --warmup seconds that are not
   counted). Each client plays its own game: the two players alternate, each move is a
   LEGAL one chosen with the rules engine on a local copy of the position (random pawn
   steps, and a wall on about --wall-share of the turns). A finished game is replaced by
   a new one. Every request is one keep-alive HTTP/1.1 POST /api/v1/games/{id}/actions.
3. Runs the same load against a bare Sanic app (started from this file) whose only
   endpoint does one SQLite INSERT+UPDATE transaction per request, and prints the ratio.

The users of step 1 turn their e-mail notifications off and NTFY_URL is not set: the
figures are those of a server with notifications off. With --notify, a second server
run (a fresh database) keeps the default e-mail choices (a mail for every turn), sets
NTFY_URL, and delivers to local capture servers (aiosmtpd and a tiny HTTP recorder, in a
process of their own); it prints its moves per second, the ratio to the run without,
what was delivered during the run and how long the backlog took to drain after it.
With --bot-games N, another run (a fresh database) keeps N bot-only games in play
(--bot-level against the level below; BOT_WORKERS=1, the default) beside the load and
prints its moves per second for people and the ratio to the run without (issue 27: at
least 0.8 with 8 games at level 4). Those games are played at the server's
BOTS_ONLY_PACE (1 s between two moves by default); --bots-only-pace sets it (0: as fast
as the bots think, the figures measured before the pace existed).

Output: `name=value` lines. The load generator runs in this process, the server in
another; on a 2-core machine they compete for the CPU (see benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

import httpx
from sanic import Sanic
from sanic.request import Request
from sanic.response import HTTPResponse
from sanic.response import json as json_response

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from corridorquest.engine import GameState, PlaceWall, Seat, Wall, format_action  # noqa: E402

PASSWORD = "benchmark password"
CODE = re.compile(r"\b(\d{6})\b")
STARTUP_TIMEOUT = 30.0

Send = Callable[[str, bytes, str], Awaitable[tuple[int, bytes]]]


# --- processes ------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(command: list[str], env: dict[str, str], log: Path, url: str) -> subprocess.Popen[bytes]:
    with open(log, "wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"{command[-1]} exited:\n{log.read_text(errors='replace')[-2000:]}")
        try:
            httpx.get(url, timeout=1.0)
            return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    sys.exit(f"{url} did not answer within {STARTUP_TIMEOUT} s")


def stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGINT)
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


def start_server(
    work: Path, port: int, extra: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """The real server on an SQLite file in `work`; `extra`: more settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CQ_")}
    env.update(
        HOST="127.0.0.1",
        PORT=str(port),
        DATA_DIR=str(work / "data"),
        DATABASE_URL=f"sqlite:///{work / 'corridorquest.db'}",
        EMAIL_BACKEND="file",
        MAIL_DIR=str(work / "mail"),
        LOG_LEVEL="WARNING",
        PYTHONPATH=str(ROOT),
        # every signup of the benchmark comes from 127.0.0.1 (the default allows 20 an hour)
        SIGNUP_LIMIT_ADDRESS="100000",
    )
    env.update(extra or {})
    command = [sys.executable, "-m", "corridorquest", "serve"]
    url = f"http://127.0.0.1:{port}/api/v1/server/info"
    return start(command, env, work / "server.log", url)


def start_bare(work: Path, port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, __file__, "--serve-bare", str(port), str(work / "bare.db")]
    return start(command, dict(os.environ), work / "bare.log", f"http://127.0.0.1:{port}/")


# --- the bare Sanic baseline ----------------------------------------------------------


def serve_bare(port: int, database: str) -> None:
    """A Sanic app whose one endpoint does one SQLite INSERT+UPDATE transaction."""
    db = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE game (id INTEGER PRIMARY KEY, revision INTEGER NOT NULL)")
    db.execute("CREATE TABLE action (id INTEGER PRIMARY KEY, game_id INTEGER, n INTEGER, "
               "type TEXT, notation TEXT, at REAL)")
    app = Sanic("bare")
    app.config.AUTO_EXTEND = False  # no sanic-ext: nothing but the route and the write

    @app.post("/games/<game_id:int>/actions")
    async def act(request: Request, game_id: int) -> HTTPResponse:
        body = request.json
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("INSERT OR IGNORE INTO game (id, revision) VALUES (?, 0)", (game_id,))
            db.execute("UPDATE game SET revision = revision + 1 WHERE id = ?", (game_id,))
            db.execute("INSERT INTO action (game_id, n, type, notation, at) VALUES "
                       "(?, (SELECT revision FROM game WHERE id = ?), ?, ?, ?)",
                       (game_id, game_id, body["type"], body["to"], time.time()))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return json_response({"id": game_id, "accepted": body["to"]}, status=201)

    app.run(host="127.0.0.1", port=port, single_process=True, access_log=False, motd=False)


# --- HTTP clients ---------------------------------------------------------------------


async def raw_connection(port: int) -> Send:
    """A minimal keep-alive HTTP/1.1 client: far less CPU per request than httpx."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    host = f"127.0.0.1:{port}"

    async def send(path: str, body: bytes, token: str) -> tuple[int, bytes]:
        writer.write(
            f"POST {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        return status, await reader.readexactly(length) if length else b""

    return send


def httpx_connection(client: httpx.AsyncClient, base: str) -> Send:
    async def send(path: str, body: bytes, token: str) -> tuple[int, bytes]:
        response = await client.post(base + path, content=body, headers={
            "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        return response.status_code, response.content

    return send


# --- setting up users and games -------------------------------------------------------


Player = tuple[str, str]  # (username, session token)


async def make_users(
    api: httpx.AsyncClient, mail_dir: Path, count: int, quiet: bool = False
) -> list[Player]:
    """Sign up, verify and log in `count` users (`quiet`: with e-mail notifications off)."""
    names = [f"b{i:05d}" for i in range(count)]
    limit = asyncio.Semaphore(8)

    async def post(path: str, body: dict[str, Any], expect: int) -> dict[str, Any]:
        async with limit:
            response = await api.post(path, json=body)
        while response.status_code == 503:  # password hashing busy: retry when told to
            await asyncio.sleep(float(response.headers.get("Retry-After", "1")))
            async with limit:
                response = await api.post(path, json=body)
        if response.status_code != expect:
            sys.exit(f"setup: POST {path} answered {response.status_code}: {response.text}")
        result: dict[str, Any] = response.json()
        return result

    signups = await asyncio.gather(*(
        post("/users", {"username": n, "email": f"{n}@bench.invalid", "password": PASSWORD}, 201)
        for n in names))
    codes = await read_codes(mail_dir, count)
    await asyncio.gather(*(
        post("/verifications", {"verification_token": s["verification_token"],
                                "code": codes[f"{n}@bench.invalid"]}, 200)
        for n, s in zip(names, signups, strict=True)))
    sessions = await asyncio.gather(*(
        post("/sessions", {"username": n, "password": PASSWORD}, 201) for n in names))
    if quiet:
        off = {"notify": {"turn": False, "action": False, "game": False}}
        for session in sessions:
            response = await api.patch(
                "/users/me", json=off, headers={"Authorization": f"Bearer {session['token']}"}
            )
            if response.status_code != 200:
                sys.exit(f"setup: notifications off answered {response.status_code}")
    return [(n, s["token"]) for n, s in zip(names, sessions, strict=True)]


async def read_codes(mail_dir: Path, count: int) -> dict[str, str]:
    deadline = time.monotonic() + 60
    while len(files := list(mail_dir.glob("*.eml"))) < count:
        if time.monotonic() > deadline:
            sys.exit(f"setup: only {len(files)} of {count} verification mails arrived")
        await asyncio.sleep(0.1)
    codes: dict[str, str] = {}
    for path in files:
        mail = message_from_bytes(path.read_bytes(), policy=policy.default)
        body = mail.get_body(preferencelist=("plain",))
        match = CODE.search(str(body.get_content()) if body is not None else "")
        if match:
            codes[str(mail["To"]).strip("<> ")] = match.group(1)
    return codes


@dataclass
class Game:
    id: int
    state: GameState
    tokens: dict[Seat, str]


async def new_game(api: httpx.AsyncClient, players: tuple[Player, Player], size: int) -> Game:
    first, second = ({"Authorization": f"Bearer {token}"} for _, token in players)
    created = await api.post("/games", json={"players": 2, "size": size}, headers=first)
    if created.status_code != 201:
        raise RuntimeError(f"create game: {created.status_code} {created.text}")
    game_id = created.json()["id"]
    joined = await api.post(f"/games/{game_id}/players", json={}, headers=second)
    if joined.status_code not in (200, 201):
        raise RuntimeError(f"join game: {joined.status_code} {joined.text}")
    game = joined.json()
    tokens = dict(players)
    seats = {Seat(seat["seat"]): tokens[seat["username"]] for seat in game["seats"]}
    return Game(game_id, GameState.new(size=size, players=2, first=Seat(game["turn"])), seats)


# --- the load -------------------------------------------------------------------------


def choose(
    state: GameState, rng: random.Random, wall_share: float, keep_going: bool = False
) -> tuple[str, str]:
    """A legal (type, notation) for the player to move (`keep_going`: a step that does not
    win the game when there is one, as live_load.py's watched games must last)."""
    seat = state.turn
    assert seat is not None
    if state.walls_left[seat] and rng.random() < wall_share:
        for _ in range(8):
            wall = PlaceWall(Wall(rng.randrange(state.size - 1), rng.randrange(state.size - 1),
                                  rng.choice(("h", "v"))))
            if state.is_legal(wall):
                state.play(wall)
                return "wall", format_action(wall)
    steps = state.legal_steps()
    if keep_going:
        steps = [step for step in steps if not _wins(state, step)] or steps
    step = rng.choice(steps)
    state.play(step)
    return ("jump" if step.jump else "move"), format_action(step)


def _wins(state: GameState, step: Any) -> bool:
    after = state.copy()
    after.play(step)
    return after.is_finished


@dataclass
class Tally:
    measuring: bool = False
    accepted: int = 0
    refused: int = 0
    games_finished: int = 0
    latencies: list[float] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=dict)
    cpu: tuple[float, float] = (0.0, 0.0)  # CPU seconds: load generator, server


async def play_games(send: Send, api: httpx.AsyncClient | None, players: tuple[Player, Player],
                     args: argparse.Namespace, tally: Tally, stop_at: list[float],
                     seed: int) -> None:
    """One client: plays its game (and the next one) until the time is up."""
    rng = random.Random(seed)
    bare_id = seed + 1
    game = await new_game(api, players, args.size) if api else None
    while time.monotonic() < stop_at[0]:
        if game is None:
            path, token = f"/games/{bare_id}/actions", players[0][1]
            kind, notation = rng.choice((("move", "e2"), ("jump", "e3"), ("wall", "c3h")))
        else:
            path = f"/api/v1/games/{game.id}/actions"
            token = game.tokens[game.state.turn]  # type: ignore[index]
            kind, notation = choose(game.state, rng, args.wall_share)
        body = json.dumps({"type": kind, "to": notation}).encode()
        started = time.perf_counter()
        status, answer = await send(path, body, token)
        elapsed = time.perf_counter() - started
        if tally.measuring:
            tally.latencies.append(elapsed)
            if status == 201:
                tally.accepted += 1
            else:
                tally.refused += 1
                reason = json.loads(answer).get("reason", str(status)) if answer else str(status)
                tally.reasons[reason] = tally.reasons.get(reason, 0) + 1
        if game is not None and (status != 201 or game.state.is_finished):
            tally.games_finished += game.state.is_finished and tally.measuring
            assert api is not None
            game = await new_game(api, players, args.size)


def cpu_seconds(pid: int) -> float:
    """User+system CPU time of a process so far (Linux /proc; 0.0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def drive(port: int, players: list[Player], args: argparse.Namespace,
                setup: httpx.AsyncClient | None, server_pid: int) -> tuple[Tally, float]:
    tally = Tally()
    stop_at = [float("inf")]
    async with contextlib.AsyncExitStack() as stack:
        if args.client == "raw":
            sends = [await raw_connection(port) for _ in range(args.clients)]
        else:  # one client with one keep-alive connection each: no pool contention
            sends = [
                httpx_connection(await stack.enter_async_context(httpx.AsyncClient(
                    limits=httpx.Limits(max_connections=1), timeout=30)),
                    f"http://127.0.0.1:{port}")
                for _ in range(args.clients)
            ]
        clients = [
            play_games(sends[i], setup, (players[2 * i], players[2 * i + 1]), args, tally,
                       stop_at, seed=args.seed + i)
            for i in range(args.clients)
        ]
        runner = asyncio.gather(*clients)
        await asyncio.sleep(args.warmup)
        tally.measuring = True
        begin = time.monotonic()
        cpu = time.process_time(), cpu_seconds(server_pid)
        stop_at[0] = begin + args.seconds
        await runner
        elapsed = time.monotonic() - begin
        tally.cpu = time.process_time() - cpu[0], cpu_seconds(server_pid) - cpu[1]
    return tally, elapsed


def report(prefix: str, tally: Tally, elapsed: float) -> float:
    latencies = sorted(tally.latencies) or [0.0]
    rate = tally.accepted / elapsed
    print(f"{prefix}_seconds={elapsed:.1f}")

    def quantile(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000

    print(f"{prefix}_accepted={tally.accepted}")
    print(f"{prefix}_refused={tally.refused}")
    if tally.reasons:
        print(f"{prefix}_refused_reasons={json.dumps(tally.reasons, sort_keys=True)}")
    print(f"{prefix}_per_s={rate:.0f}")
    print(f"{prefix}_p50_ms={quantile(0.50):.2f}")
    print(f"{prefix}_p99_ms={quantile(0.99):.2f}")
    print(f"{prefix}_generator_cpu_share={tally.cpu[0] / elapsed:.2f}")
    print(f"{prefix}_server_cpu_share={tally.cpu[1] / elapsed:.2f}")
    return rate


async def server_run(
    args: argparse.Namespace, work: Path, prefix: str, quiet: bool,
    extra: dict[str, str] | None = None, mail_dir: Path | None = None, bot_games: int = 0,
) -> tuple[float, list[Player], int]:
    """Start the server in `work`, set up users and games, drive the load, report under
    `prefix`; (accepted moves per second, the players, the server's port). `bot_games`:
    that many bot-only games kept in play beside the load (a finished one is replaced)."""
    work.mkdir(parents=True, exist_ok=True)
    port = free_port()
    server = start_server(work, port, extra)
    try:
        base = f"http://127.0.0.1:{port}/api/v1"
        async with httpx.AsyncClient(base_url=base, timeout=60) as api:
            players = await make_users(
                api, mail_dir or work / "mail", 2 * args.clients + (1 if bot_games else 0),
                quiet=quiet,
            )
            print(f"{prefix}_users={len(players)}")
            keeper = None
            if bot_games:
                host = players.pop()
                keeper = asyncio.create_task(
                    keep_bot_games(api, host[1], bot_games, args, prefix)
                )
                await asyncio.sleep(2.0)  # the bots are thinking before the load starts
            try:
                tally, elapsed = await drive(port, players, args, api, server.pid)
            finally:
                if keeper is not None:
                    keeper.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await keeper
            print(f"{prefix}_games_finished={tally.games_finished}")
            rate = report(prefix, tally, elapsed)
            if not quiet:
                await drain_report(prefix, work / "corridorquest.db")
    finally:
        stop(server)
    return rate, players, port


async def keep_bot_games(
    api: httpx.AsyncClient, token: str, count: int, args: argparse.Namespace, prefix: str
) -> None:
    """Keep `count` bot-only 2-player games in play (`--bot-level` against the level
    below, as a game holds one bot of each level); the bots' plies are counted."""
    headers = {"Authorization": f"Bearer {token}"}
    levels = [args.bot_level, args.bot_level - 1 if args.bot_level > 1 else 2]
    body = {"players": 2, "size": args.size, "bots": levels, "join": False}
    playing: dict[int, int] = {}
    plies = 0
    try:
        while True:
            while len(playing) < count:
                made = await api.post("/games", json=body, headers=headers)
                if made.status_code != 201:
                    sys.exit(f"setup: bot game answered {made.status_code}: {made.text}")
                playing[made.json()["id"]] = 0
            for game_id in list(playing):
                seen = await api.get(f"/games/{game_id}", headers=headers)
                game = seen.json()
                plies += max(0, int(game["revision"]) - playing[game_id])
                playing[game_id] = int(game["revision"])
                if game["status"] != "started":
                    del playing[game_id]
            await asyncio.sleep(1.0)
    finally:
        print(f"{prefix}_bot_games={count}")
        print(f"{prefix}_bot_plies_seen={plies}")


def outbox_pending(database: Path) -> tuple[int, int]:
    """(rows not delivered yet, rows delivered) of the server's outbox."""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        pending = db.execute("SELECT COUNT(*) FROM outbox WHERE done_at IS NULL").fetchone()[0]
        sent = db.execute(
            "SELECT COUNT(*) FROM outbox WHERE done_at IS NOT NULL AND NOT failed"
        ).fetchone()[0]
    return int(pending), int(sent)


async def drain_report(prefix: str, database: Path, limit: float = 600.0) -> None:
    """Print the outbox when the load stopped, and how long it took to empty."""
    pending, sent = outbox_pending(database)
    print(f"{prefix}_outbox_delivered_at_stop={sent}")
    print(f"{prefix}_outbox_pending_at_stop={pending}")
    started = time.monotonic()
    while pending and time.monotonic() - started < limit:
        await asyncio.sleep(0.5)
        pending, sent = outbox_pending(database)
    print(f"{prefix}_outbox_drain_seconds={time.monotonic() - started:.1f}")
    print(f"{prefix}_outbox_delivered={sent}")
    print(f"{prefix}_outbox_pending_after_drain={pending}")


async def benchmark(args: argparse.Namespace, work: Path) -> None:
    for name in ("clients", "client", "seconds", "size", "wall_share"):
        print(f"{name}={getattr(args, name)}")
    print(f"cpus={os.cpu_count()}")
    print(f"load_average_1min_before={os.getloadavg()[0]:.2f}")
    server_rate, players, _ = await server_run(args, work / "quiet", "server_moves", True)
    if args.notify:
        capture_dir = work / "capture"
        smtp_port, ntfy_port = free_port(), free_port()
        capture = start_capture(capture_dir, smtp_port, ntfy_port)
        try:
            extra = {
                "EMAIL_BACKEND": "smtp", "SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(smtp_port),
                "SMTP_SECURITY": "none", "NTFY_URL": f"http://127.0.0.1:{ntfy_port}",
                "NTFY_TOKEN": "tk_benchmark",
            }
            notify_rate, _, _ = await server_run(
                args, work / "notify", "notify_moves", False, extra, capture_dir / "mail"
            )
            mails = len(list((capture_dir / "mail").glob("*.eml")))
            published = len((capture_dir / "ntfy.log").read_text().splitlines())
            print(f"notify_captured_mails={mails}")
            print(f"notify_captured_ntfy={published}")
        finally:
            stop(capture)
        print(f"ratio_notify_to_quiet={notify_rate / server_rate:.3f}")
    if args.bot_games:
        bots_rate, _, _ = await server_run(
            args, work / "bots", "bots_beside_moves", True,
            {"BOT_WORKERS": "1"} | (
                {} if args.bots_only_pace is None else {"BOTS_ONLY_PACE": args.bots_only_pace}
            ),
            bot_games=args.bot_games,
        )
        print(f"ratio_bots_beside_to_quiet={bots_rate / server_rate:.3f}")
    if args.skip_bare:
        return
    port = free_port()
    bare = start_bare(work, port)
    try:
        tally, elapsed = await drive(port, players, args, None, bare.pid)
        bare_rate = report("bare_writes", tally, elapsed)
    finally:
        stop(bare)
    print(f"ratio_server_to_bare={server_rate / bare_rate:.3f}")
    print(f"load_average_1min_after={os.getloadavg()[0]:.2f}")


# --- capture servers for --notify ---------------------------------------------------------


def start_capture(directory: Path, smtp_port: int, ntfy_port: int) -> subprocess.Popen[bytes]:
    directory.mkdir(parents=True)
    command = [sys.executable, __file__, "--serve-capture", str(smtp_port), str(ntfy_port),
               str(directory)]
    process = start(command, dict(os.environ), directory / "capture.log",
                    f"http://127.0.0.1:{ntfy_port}/")
    return process


def serve_capture(smtp_port: int, ntfy_port: int, directory: Path) -> None:
    """An aiosmtpd server writing each mail into `directory`/mail as an .eml file, and an
    HTTP server appending one line per POST (an ntfy publish) to `directory`/ntfy.log."""
    from aiosmtpd.controller import Controller

    mail_dir = directory / "mail"
    mail_dir.mkdir(parents=True, exist_ok=True)
    counter = iter(range(10**9))

    class Handler:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            path = mail_dir / f"{next(counter):09d}.eml"
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(envelope.content)
            tmp.rename(path)
            return "250 OK"

    controller = Controller(Handler(), hostname="127.0.0.1", port=smtp_port)
    controller.start()
    log = open(directory / "ntfy.log", "a", buffering=1)  # noqa: SIM115

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                length = 0
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value)
                if length:
                    await reader.readexactly(length)
                if lines[0].startswith("POST"):
                    log.write(lines[0].split(" ")[1] + "\n")
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    async def serve() -> None:
        server = await asyncio.start_server(client, "127.0.0.1", ntfy_port)
        async with server:
            await server.serve_forever()

    try:
        asyncio.run(serve())
    finally:
        controller.stop()


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop]:
    """uvloop's loop when it is installed (Sanic uses it too): less client CPU per request."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop
    return uvloop.new_event_loop


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--serve-bare":
        serve_bare(int(sys.argv[2]), sys.argv[3])
        return
    if len(sys.argv) == 5 and sys.argv[1] == "--serve-capture":
        with contextlib.suppress(KeyboardInterrupt):
            serve_capture(int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time per run")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured time first")
    parser.add_argument("--clients", type=int, default=64, help="concurrent clients")
    parser.add_argument("--client", choices=("raw", "httpx"), default="raw",
                        help="raw asyncio HTTP/1.1 (default) or httpx.AsyncClient")
    parser.add_argument("--size", type=int, default=9, help="board size of the games")
    parser.add_argument("--wall-share", type=float, default=0.15,
                        help="share of turns that place a wall while walls are left")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the move choice")
    parser.add_argument("--skip-bare", action="store_true", help="skip the bare Sanic run")
    parser.add_argument("--notify", action="store_true",
                        help="also run with notifications on (ntfy and SMTP to local capture "
                        "servers) and print the ratio to the run without")
    parser.add_argument("--bot-games", type=int, default=0,
                        help="also run with this many bot-only games in play beside the "
                        "load (a finished one replaced) and print the ratio to the run without")
    parser.add_argument("--bots-only-pace", default=None, metavar="SECONDS",
                        help="BOTS_ONLY_PACE of the --bot-games run (default: the server's "
                        "default, 1 s; 0: as fast as the bots think)")
    parser.add_argument("--bot-level", type=int, default=4, choices=range(1, 7),
                        help="the level of the bots of --bot-games (against the level below)")
    args = parser.parse_args()
    if args.clients < 1 or args.seconds <= 0 or args.warmup < 0:
        parser.error("--clients must be >= 1, --seconds > 0 and --warmup >= 0")
    with tempfile.TemporaryDirectory(prefix="cq-bench-") as work:
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            runner.run(benchmark(args, Path(work)))


if __name__ == "__main__":
    main()
