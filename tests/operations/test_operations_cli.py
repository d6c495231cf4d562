"""Server operations (issue 15): `corridorquest migrate`, `check`, `backup`, `restore`,
`init-admin`, through the real CLI on real databases and next to the real server.

SQLite always; `migrate`, `check` and `init-admin` run on PostgreSQL too when
CQ_TEST_DATABASE_URL is set (`fresh_database`), where `backup` and `restore` say to use
pg_dump and pg_restore. The tests that open `sqlite:///` themselves (or no database) are
marked backend_neutral: CI's PostgreSQL pass would run them again unchanged.
"""

from __future__ import annotations

import dataclasses
import re
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner, Result

from corridorquest.cli import main
from corridorquest.engine import GameRecord, GameState, ReplayError, Seat, Step
from corridorquest.engine.trading import transfer_wall
from corridorquest.store import Store
from corridorquest.store.migrations import STEPS, latest_version
from corridorquest.store.replay import StoredAction, Trade, replay_stored
from tests.operations.wander_helpers import WanderingGame
from tests.support.games import history, play
from tests.support.server import (
    free_port,
    fresh_database,
    server_env,
    start_process,
    stop,
    wait_until_up,
)
from tests.support.users import auth, insert_user

OPERATIONS = ("migrate", "check", "backup", "restore", "init-admin")


def cli(database_url: str, *args: str, input: str | None = None, **settings: str) -> Result:
    """`corridorquest ARGS` in-process, with DATABASE_URL (and `settings`) set."""
    env = {"DATABASE_URL": database_url, **{name.upper(): v for name, v in settings.items()}}
    return CliRunner().invoke(main, list(args), env=env, input=input)


def last_line(result: Result) -> str:
    return result.output.strip().splitlines()[-1]


@contextmanager
def server_on(tmp_path: Path, database_url: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """The real server on an existing database: (its /api/v1 URL, its process)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    port = free_port()
    process, log_path = start_process(tmp_path, server_env(tmp_path, database_url, port))
    try:
        wait_until_up(f"http://127.0.0.1:{port}", process, log_path)
        yield f"http://127.0.0.1:{port}/api/v1", process
    finally:
        stop(process)


def sql(database_url: str, statement: str) -> list[tuple[object, ...]]:
    """Run one SQL statement straight on the database (SQLite or PostgreSQL)."""
    store = Store.open(database_url, pool_size=1, migrate=False)
    try:

        def run() -> list[tuple[object, ...]]:
            cursor = store.db.execute_sql(statement)
            return list(cursor.fetchall()) if cursor.description else []

        return store.run(run)
    finally:
        store.close()


def finish(client: httpx.Client, game: WanderingGame) -> None:
    """Walk both pawns straight for their goals until one wins."""
    while game.state.winner is None:
        seat = game.state.turn
        assert seat is not None

        step = min(game.state.legal_steps(), key=lambda step: distance_after(game, step))
        kind = "jump" if step.jump else "move"
        response = play(client, game.by_seat[seat.value], game.id, kind, str(step.to))
        assert response.status_code == 201, response.text
        game.accepted(kind, str(step.to))


def distance_after(game: WanderingGame, step: Step) -> int:
    """The mover's distance to its goal after `step` (-1: it wins)."""
    seat = game.state.turn
    assert seat is not None
    after = game.state.copy()
    after.play(step)
    return -1 if after.winner is not None else after.distance(seat)


def play_games(api: str, database_url: str) -> dict[str, int]:
    """A finished 5x5 game with walls and a wall trade, and a started 9x9 one: their ids."""
    with httpx.Client(base_url=api, timeout=10.0) as client:
        names = ("opann", "opbob", "opcid", "opdan")
        tokens = {name: insert_user(database_url, name) for name in names}
        finished = WanderingGame(client, {n: tokens[n] for n in names[:2]}, size=5, seed=1)
        for _ in range(2):
            token, kind, notation = finished.next_action(wall_share=1.0)
            assert play(client, token, finished.id, kind, notation).status_code == 201
            finished.accepted(kind, notation)
        seller, buyer = names[:2]
        offer = client.post(
            f"/games/{finished.id}/offers", json={"mode": "selling"}, headers=auth(tokens[seller])
        )
        assert offer.status_code == 201, offer.text
        trade = client.post(
            f"/games/{finished.id}/trades",
            json={"mode": "buying", "partner": seller},
            headers=auth(tokens[buyer]),
        )
        assert trade.status_code == 201, trade.text
        finish(client, finished)
        started = WanderingGame(client, {n: tokens[n] for n in names[2:]}, seed=2)
        for _ in range(6):
            assert started.move(client).status_code == 201
        return {"finished": finished.id, "started": started.id}


# --- every command ---------------------------------------------------------------------


@pytest.mark.backend_neutral
@pytest.mark.parametrize("command", OPERATIONS)
def test_each_operation_has_help_and_reads_the_settings_of_serve(
    command: str, tmp_path: Path
) -> None:
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0, result.output
    assert "--env-file" in result.output
    (tmp_path / "x").write_bytes(b"")
    file = [str(tmp_path / "x")] if command in ("backup", "restore") else []
    missing = str(tmp_path / "missing.env")
    for args, env, said in (
        (["--env-file", missing, *file], {}, f"env file {missing!r} does not exist"),
        (file, {"PORT": "three"}, "PORT"),
    ):
        result = CliRunner().invoke(main, [command, *args], env=env)
        assert result.exit_code == 1, result.output
        assert said in last_line(result)
        assert "Traceback" not in result.output


# --- migrate ---------------------------------------------------------------------------


def test_migrate_a_fresh_then_an_up_to_date_database(tmp_path: Path) -> None:
    with fresh_database(tmp_path) as database_url:
        fresh = cli(database_url, "migrate")
        assert fresh.exit_code == 0, fresh.output
        for number, description, _ in STEPS:
            assert f"applied migration {number}: {description}" in fresh.output
        latest = latest_version()
        assert last_line(fresh) == (
            f"database migrated to version {latest} ({len(STEPS)} steps applied)"
        )

        again = cli(database_url, "migrate")
        assert again.exit_code == 0, again.output
        assert again.output.strip() == f"database is up to date (version {latest})"

        sql(database_url, f"DELETE FROM schema_version WHERE version = {latest}")
        pending = cli(database_url, "migrate")
        assert pending.exit_code == 0, pending.output
        assert f"applied migration {latest}:" in pending.output
        assert "applied migration 1:" not in pending.output


@pytest.mark.backend_neutral
def test_migrate_refuses_a_schema_newer_than_the_server(tmp_path: Path) -> None:
    database_url = f"sqlite:///{tmp_path / 'cq.db'}"
    assert cli(database_url, "migrate").exit_code == 0
    newer = latest_version() + 1
    sql(database_url, f"INSERT INTO schema_version VALUES ({newer}, 'x', '2030-01-01')")
    result = cli(database_url, "migrate")
    assert result.exit_code == 1
    assert "newer than this server" in last_line(result)


# --- check -----------------------------------------------------------------------------


def test_check_passes_on_played_games_and_names_each_broken_game(tmp_path: Path) -> None:
    with fresh_database(tmp_path) as database_url:
        with server_on(tmp_path / "server", database_url) as (api, _):
            games = play_games(api, database_url)
        healthy = cli(database_url, "check")
        assert healthy.exit_code == 0, healthy.output
        assert last_line(healthy) == (
            f"check passed: database sound (schema version {latest_version()}), 2 games replay"
        )

        # the started game's stored position is one ply ahead of its actions
        started = games["started"]
        [(state,)] = sql(database_url, f"SELECT state FROM game WHERE id = {started}")
        assert isinstance(state, str) and '"ply":6' in state
        broken_state = state.replace('"ply":6', '"ply":7')
        sql(database_url, f"UPDATE game SET state = '{broken_state}' WHERE id = {started}")
        result = cli(database_url, "check")
        assert result.exit_code == 1, result.output
        assert f"game {started}: its stored state is not what its 6 actions give (ply)" in (
            result.output
        )
        assert last_line(result) == (
            f"Error: check failed: 1 of 2 games do not replay (games {started})"
        )
        sql(database_url, f"UPDATE game SET state = '{state}' WHERE id = {started}")
        assert cli(database_url, "check").exit_code == 0

        # the finished game's first action row says another square
        done = games["finished"]
        [(notation,)] = sql(
            database_url, f"SELECT notation FROM game_action WHERE game_id = {done} AND n = 3"
        )
        other = "a1" if notation != "a1" else "e5"
        third = f"WHERE game_id = {done} AND n = 3"
        sql(database_url, f"UPDATE game_action SET notation = '{other}' {third}")
        result = cli(database_url, "check")
        assert result.exit_code == 1, result.output
        assert f"game {done}: its actions do not replay: action 3:" in result.output
        assert f"(games {done})" in last_line(result)
        assert f"game {started}:" not in result.output
        sql(database_url, f"UPDATE game_action SET notation = '{notation}' {third}")

        # the finished game's winner has one point too many
        winner = f"(SELECT winner_id FROM game WHERE id = {done})"
        sql(
            database_url,
            f"UPDATE game_player SET score = score + 1 WHERE game_id = {done}"
            f" AND user_id IN {winner}",
        )
        result = cli(database_url, "check")
        assert result.exit_code == 1, result.output
        assert f"game {done}: its stored scores are not the replayed ones" in result.output
        sql(
            database_url,
            f"UPDATE game_player SET score = score - 1 WHERE game_id = {done}"
            f" AND user_id IN {winner}",
        )

        # without its wall trade the finished game's walls in hand do not add up
        sql(database_url, f"DELETE FROM wall_offer WHERE game_id = {done}")
        result = cli(database_url, "check")
        assert result.exit_code == 1, result.output
        assert re.search(
            rf"game {done}: its stored state is not what its \d+ actions give \(walls_left\)",
            result.output,
        ), result.output


@pytest.mark.backend_neutral
def test_check_reports_a_damaged_sqlite_file(tmp_path: Path) -> None:
    database = tmp_path / "cq.db"
    database_url = f"sqlite:///{database}"
    assert cli(database_url, "migrate").exit_code == 0
    with sqlite3.connect(database) as db:  # a game row whose admin does not exist
        db.execute("PRAGMA foreign_keys = OFF")
        db.execute(
            "INSERT INTO game (id, admin_id, status, size, players, masked, invisible, private,"
            " seed, revision, created_at) VALUES (77, 999, 'waiting', 9, 2, 0, 0, 0, 1, 1,"
            " '2026-01-01')"
        )
    result = cli(database_url, "check")
    assert result.exit_code == 1
    assert "database: foreign_key_check: game row 77 refers to a missing user row" in result.output
    assert last_line(result) == "Error: check failed: 1 database problems"

    missing = cli(f"sqlite:///{tmp_path / 'nothing.db'}", "check")
    assert missing.exit_code == 1
    assert "there is no database file" in last_line(missing)
    assert not (tmp_path / "nothing.db").exists()


@pytest.mark.backend_neutral
def test_replay_counts_each_wall_trade_at_the_action_it_was_made() -> None:
    """The first player buys a wall before action 1 and places one wall more than a hand
    holds: the replay needs the trade right there (an undated trade of an old database
    counts before the last action)."""
    state = GameRecord(5, 2, 3).replay()
    buyer = state.turn
    assert buyer is not None
    seller = next(seat for seat in state.seats if seat is not buyer)
    transfer_wall(state, seller, buyer)
    actions: list[StoredAction] = []
    while state.walls_left[buyer]:
        seat = state.turn
        assert seat is not None
        if seat is buyer:
            kind, notation = "wall", str(state.legal_walls()[0].wall)
        else:  # the seller walks away from its goal: nobody wins
            step = max(state.legal_steps(), key=lambda step: distance_of(state, step, seat))
            kind, notation = "jump" if step.jump else "move", str(step.to)
        state.play_notation(notation, kind)
        actions.append(StoredAction(seat.value, kind, notation))
    assert state.winner is None and len(actions) >= 11
    assert replay_stored(5, 2, 3, actions, [Trade(0, seller, buyer)]).to_dict() == state.to_dict()
    undated = replay_stored(5, 2, 3, actions, [Trade(None, seller, buyer)])
    assert undated.to_dict() == state.to_dict()
    with pytest.raises(ReplayError, match=f"action {len(actions)}: .* has no walls left"):
        replay_stored(5, 2, 3, actions, [])
    just_in_time = Trade(len(actions) - 1, seller, buyer)
    assert replay_stored(5, 2, 3, actions, [just_in_time]).to_dict() == state.to_dict()
    with pytest.raises(ReplayError, match="has no walls left"):  # after the wall it paid for
        replay_stored(5, 2, 3, actions, [Trade(len(actions), seller, buyer)])
    with pytest.raises(ReplayError, match=f"stored as {seller.value}'s, but it was"):
        replay_stored(5, 2, 3, [dataclasses.replace(actions[0], seat=seller.value)], [])


def distance_of(state: GameState, step: Step, seat: Seat) -> int:
    after = state.copy()
    after.play(step)
    return after.distance(seat)


# --- backup ----------------------------------------------------------------------------


class Load(threading.Thread):
    """Plays one game move after move until told to stop."""

    def __init__(self, api: str, game: WanderingGame) -> None:
        super().__init__(daemon=True)
        self.api, self.game = api, game
        self.stopping = threading.Event()
        self.failures: list[str] = []

    def run(self) -> None:
        with httpx.Client(base_url=self.api, timeout=10.0) as client:
            while not self.stopping.is_set():
                response = self.game.move(client)
                if response.status_code != 201:
                    self.failures.append(response.text)
                    return


@pytest.mark.backend_neutral
@pytest.mark.slow
def test_a_backup_under_load_holds_every_acknowledged_move_and_passes_check(
    tmp_path: Path,
) -> None:
    database_url = f"sqlite:///{tmp_path / 'live.db'}"
    copy = tmp_path / "backup.db"
    with server_on(tmp_path / "server", database_url) as (api, _):
        with httpx.Client(base_url=api, timeout=10.0) as client:
            games = [
                WanderingGame(
                    client,
                    {f"bk{i}a": insert_user(database_url, f"bk{i}a"),
                     f"bk{i}b": insert_user(database_url, f"bk{i}b")},
                    seed=i,
                )
                for i in range(3)
            ]
        loads = [Load(api, game) for game in games]
        for load in loads:
            load.start()
        deadline = time.monotonic() + 15  # a loaded machine: until there is a load to back up
        while sum(len(game.played) for game in games) < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        acknowledged = {game.id: list(game.played) for game in games}
        result = cli(database_url, "backup", str(copy))
        time.sleep(0.3)  # pacing: the load went on during the backup and goes on after it
        for load in loads:
            load.stopping.set()
            load.join(10)
        assert not any(load.failures for load in loads), [load.failures for load in loads]
        assert result.exit_code == 0, result.output
        assert last_line(result).startswith(f"backed up {tmp_path / 'live.db'} to {copy} (")
        with httpx.Client(base_url=api, timeout=10.0) as client:
            live = {game.id: len(history(client, game.any_token, game.id)) for game in games}

    assert sum(len(moves) for moves in acknowledged.values()) >= 10  # there was a load
    with sqlite3.connect(copy) as db:
        for game_id, moves in acknowledged.items():
            stored = [
                notation
                for (notation,) in db.execute(
                    "SELECT notation FROM game_action WHERE game_id = ? ORDER BY n", (game_id,)
                )
            ]
            assert stored[: len(moves)] == moves, game_id
            assert len(stored) <= live[game_id]
    assert not Path(f"{copy}-wal").exists()
    checked = cli(f"sqlite:///{copy}", "check")
    assert checked.exit_code == 0, checked.output
    assert last_line(checked).endswith(", 3 games replay")


@pytest.mark.backend_neutral
def test_backup_refuses_to_overwrite_unless_forced(tmp_path: Path) -> None:
    database_url = f"sqlite:///{tmp_path / 'cq.db'}"
    assert cli(database_url, "migrate").exit_code == 0
    target = tmp_path / "copy.db"
    target.write_text("precious")
    refused = cli(database_url, "backup", str(target))
    assert refused.exit_code == 1
    assert last_line(refused) == (
        f"Error: backup failed: {target} already exists (--force replaces it)"
    )
    assert target.read_text() == "precious"
    forced = cli(database_url, "backup", "--force", str(target))
    assert forced.exit_code == 0, forced.output
    assert last_line(forced).startswith(f"backed up {tmp_path / 'cq.db'} to {target} (")
    assert cli(f"sqlite:///{target}", "check").exit_code == 0
    assert [path.name for path in tmp_path.iterdir() if "partial" in path.name] == []


@pytest.mark.backend_neutral
@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-journal", ".lock"])
def test_backup_refuses_the_files_of_the_running_servers_database_even_forced(
    suffix: str, tmp_path: Path
) -> None:
    """Writing a backup over the live database's write-ahead log would lose acknowledged
    writes after a crash (and over its lock file, let a second server start)."""
    database = tmp_path / "live.db"
    database_url = f"sqlite:///{database}"
    with server_on(tmp_path / "server", database_url) as (api, _):
        insert_user(database_url, "walker")  # the server's database has a -wal and a -shm
        target = Path(f"{database}{suffix}")
        before = target.stat() if target.exists() else None
        refused = cli(database_url, "backup", "--force", str(target))
        assert refused.exit_code == 1
        assert last_line(refused).startswith(
            f"Error: backup failed: {target} belongs to the database {database} ("
        )
        assert last_line(refused).endswith("): choose another file")
        assert "Traceback" not in refused.output
        if before is None:
            assert not target.exists()
        else:  # the very file the server uses, not a new one in its place
            assert target.stat().st_ino == before.st_ino
        assert [path.name for path in tmp_path.iterdir() if "partial" in path.name] == []
        with httpx.Client(base_url=api) as client:
            assert client.get("/server/info").status_code == 200


@pytest.mark.backend_neutral
def test_backup_and_restore_on_postgresql_point_to_pg_dump(tmp_path: Path) -> None:
    url = "postgresql://cq:secret@db.example:5433/corridorquest"
    result = cli(url, "backup", str(tmp_path / "cq.dump"))
    assert result.exit_code == 1
    assert "pg_dump --format=custom" in result.output
    assert "--host=db.example --port=5433 --username=cq corridorquest" in result.output
    assert "secret" not in result.output
    (tmp_path / "cq.dump").write_bytes(b"PGDMP")
    result = cli(url, "restore", "--yes", str(tmp_path / "cq.dump"))
    assert result.exit_code == 1
    assert "pg_restore" in result.output


# --- restore ---------------------------------------------------------------------------


@pytest.mark.backend_neutral
def test_restore_refuses_while_the_server_runs_and_works_once_it_is_stopped(
    tmp_path: Path,
) -> None:
    database = tmp_path / "live.db"
    database_url = f"sqlite:///{database}"
    backup = tmp_path / "backup.db"
    with server_on(tmp_path / "server", database_url) as (api, process):
        kept = insert_user(database_url, "kept")
        assert cli(database_url, "backup", str(backup)).exit_code == 0
        later = insert_user(database_url, "later")  # after the backup: lost by the restore

        refused = cli(database_url, "restore", "--yes", str(backup))
        assert refused.exit_code == 1
        assert last_line(refused).startswith(
            f"Error: restore refused: the SQLite database {database} is in use by another"
            f" Corridor Quest server (pid {process.pid}"
        )
        assert last_line(refused).endswith("stop the server first")

        sql(database_url, f"DELETE FROM schema_version WHERE version = {latest_version()}")
        pending = cli(database_url, "migrate")
        assert pending.exit_code == 1
        assert last_line(pending).startswith(
            f"Error: migration {latest_version()} is pending, but the SQLite database"
        )
        assert last_line(pending).endswith("stop it and run `corridorquest migrate` again")
        with httpx.Client(base_url=api) as client:  # the server never noticed
            assert client.get("/users/me", headers=auth(later)).status_code == 200
    assert cli(database_url, "migrate").exit_code == 0

    declined = cli(database_url, "restore", str(backup), input="n\n")
    assert declined.exit_code == 1
    assert "passed check (0 games). Replace the database" in declined.output
    assert sql(database_url, "SELECT username FROM user WHERE username = 'later'") == [("later",)]

    not_sqlite = tmp_path / "notes.txt"
    not_sqlite.write_text("hello")
    result = cli(database_url, "restore", "--yes", str(not_sqlite))
    assert result.exit_code == 1
    assert last_line(result) == f"Error: restore refused: {not_sqlite} is not an SQLite database"

    restored = cli(database_url, "restore", "--yes", str(backup))
    assert restored.exit_code == 0, restored.output
    assert last_line(restored) == (
        f"restored {database} from {backup} (0 games); start the server"
    )
    assert not Path(f"{database}-wal").exists() and not Path(f"{database}-shm").exists()
    assert [p.name for p in tmp_path.iterdir() if "restore" in p.name] == []
    assert cli(database_url, "check").exit_code == 0
    with server_on(tmp_path / "again", database_url) as (api, _):
        with httpx.Client(base_url=api) as client:
            assert client.get("/users/me", headers=auth(kept)).status_code == 200
            assert client.get("/users/me", headers=auth(later)).status_code == 401


@pytest.mark.backend_neutral
def test_restore_refuses_a_backup_that_does_not_pass_check(tmp_path: Path) -> None:
    database_url = f"sqlite:///{tmp_path / 'live.db'}"
    assert cli(database_url, "migrate").exit_code == 0
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).execute("CREATE TABLE t (x)").connection.close()
    result = cli(database_url, "restore", "--yes", str(empty))
    assert result.exit_code == 1
    assert last_line(result) == f"Error: restore refused: {empty} is not a Corridor Quest database"

    damaged = tmp_path / "damaged.db"
    assert cli(database_url, "backup", str(damaged)).exit_code == 0
    with sqlite3.connect(damaged) as db:
        db.execute("PRAGMA foreign_keys = OFF")
        db.execute("INSERT INTO session (token_hash, user_id, created_at, last_seen_at,"
                   " expires_at) VALUES ('x', 42, '2026-01-01', '2026-01-01', '2026-01-02')")
    result = cli(database_url, "restore", "--yes", str(damaged))
    assert result.exit_code == 1
    assert "database: foreign_key_check: session row" in result.output
    assert last_line(result) == f"Error: restore refused: {damaged} does not pass check"
    assert [p.name for p in tmp_path.iterdir() if "restore" in p.name] == []


@pytest.mark.backend_neutral
def test_restore_refuses_a_backup_with_a_damaged_page_in_one_line(tmp_path: Path) -> None:
    database = tmp_path / "live.db"
    database_url = f"sqlite:///{database}"
    assert cli(database_url, "migrate").exit_code == 0
    insert_user(database_url, "kept")
    damaged = tmp_path / "damaged.db"
    assert cli(database_url, "backup", str(damaged)).exit_code == 0
    with sqlite3.connect(damaged) as db:
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'user'").fetchone()
    db.close()
    with damaged.open("r+b") as file:  # the user table's first page: garbage
        file.seek((root - 1) * page_size)
        file.write(b"\xde\xad\xbe\xef" * (page_size // 4))
    before = database.read_bytes()

    result = cli(database_url, "restore", "--yes", str(damaged))
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert result.output.strip().splitlines() == [
        f"Error: restore refused: {damaged} is damaged (database disk image is malformed);"
        " the database was not changed"
    ]
    assert database.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if "restore" in p.name] == []
    assert sql(database_url, "SELECT username FROM user") == [("kept",)]

    # `check` of such a file says it in one line too
    checked = cli(f"sqlite:///{damaged}", "check")
    assert checked.exit_code == 1
    assert last_line(checked) == "Error: database error: database disk image is malformed"
    assert "Traceback" not in checked.output


@pytest.mark.backend_neutral
def test_restore_migrates_a_backup_of_an_older_schema_and_refuses_a_newer_one(
    tmp_path: Path,
) -> None:
    database_url = f"sqlite:///{tmp_path / 'live.db'}"
    assert cli(database_url, "migrate").exit_code == 0
    old, new = tmp_path / "old.db", tmp_path / "new.db"
    for copy in (old, new):
        assert cli(database_url, "backup", str(copy)).exit_code == 0
    latest = latest_version()
    previous = sorted(number for number, _, _ in STEPS)[-2]  # numbers may have gaps
    with sqlite3.connect(old) as db:
        db.execute("DELETE FROM schema_version WHERE version = ?", (latest,))
    with sqlite3.connect(new) as db:
        db.execute("INSERT INTO schema_version VALUES (?, 'x', '2030-01-01')", (latest + 1,))

    newer = cli(database_url, "restore", "--yes", str(new))
    assert newer.exit_code == 1
    assert last_line(newer) == (
        f"Error: restore refused: {new} has schema version {latest + 1}, newer than this"
        f" server's ({latest})"
    )
    restored = cli(database_url, "restore", "--yes", str(old))
    assert restored.exit_code == 0, restored.output
    assert f"{old} has schema version {previous}: migrated the copy to {latest}" in (
        restored.output
    )
    with sqlite3.connect(old) as db:  # the backup itself is left as it was
        assert db.execute("SELECT MAX(version) FROM schema_version").fetchone() == (previous,)
    assert cli(database_url, "migrate").output.strip() == (
        f"database is up to date (version {latest})"
    )


# --- init-admin ------------------------------------------------------------------------


def test_init_admin_prints_a_password_that_logs_in(tmp_path: Path) -> None:
    with fresh_database(tmp_path) as database_url:
        settings = {"admin_username": "boss", "admin_email": "boss@example.test"}
        first = cli(database_url, "init-admin", **settings)
        assert first.exit_code == 0, first.output
        assert len(first.output.strip().splitlines()) == 1
        match = re.fullmatch(
            r"administrator 'boss' \(re\)created; its password, shown only this once: (\S+)",
            first.output.strip(),
        )
        assert match, first.output
        with server_on(tmp_path / "server", database_url) as (api, _):
            login = httpx.post(f"{api}/sessions", json={"username": "boss", "password": match[1]})
            assert login.status_code == 201, login.text
            me = httpx.get(f"{api}/users/me", headers=auth(login.json()["token"]))
            assert me.json()["is_admin"] is True

            # again while the server runs: a new password, the old one and its session end
            second = cli(database_url, "init-admin", **settings)
            assert second.exit_code == 0, second.output
            password = second.output.strip().rsplit(" ", 1)[1]
            assert password != match[1]
            old = httpx.post(f"{api}/sessions", json={"username": "boss", "password": match[1]})
            assert old.status_code == 401
            new = httpx.post(f"{api}/sessions", json={"username": "boss", "password": password})
            assert new.status_code == 201, new.text

        bad = cli(database_url, "init-admin", admin_username="no spaces allowed")
        assert bad.exit_code == 1
        assert "ADMIN_USERNAME" in last_line(bad)

