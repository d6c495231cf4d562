"""What the replay worker process runs (services/replay_runs.py): reading and replaying an
import's records, and replaying a stored game up to an action. Plain data in and out.

The engine is pure Python: in a thread of the server it would hold the interpreter's lock
while it works, and every request of the event loop would wait for it at each database
call and each socket write (measured: people's moves fell to a twentieth while one user
imported long records back to back). In a process of its own it takes another core.
Imports nothing of the server: a spawned worker starts in a fraction of a second.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from corridorquest.engine import GameState, Seat
from corridorquest.records.errors import RecordError
from corridorquest.records.position_cache import Kept, Key, kept_positions
from corridorquest.records.text import Record, parse_records, played

_PLENTY = 10_000  # walls in hand while replaying (bought walls are not in the history)
# people's moves first on a busy machine, but less so than for the bots' and analyses'
# workers (10): a replay is a request somebody waits for, and takes milliseconds
WORKER_NICE = 5


def start_worker() -> None:
    """The initializer of the worker: a lower priority than the server's (on a busy
    machine people's moves go first). It ends with the server however the server ends:
    worker_processes.worker_pool, as the bots' and analyses' workers."""
    try:
        os.nice(WORKER_NICE)
    except OSError:  # not allowed here: run at the same priority
        pass


# -- imports ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    """Why an import is refused (services/record_import.py makes the 422 of it)."""

    reason: str
    message: str
    line: int | None = None
    action: int | None = None
    record: int | None = None


@dataclass(frozen=True)
class Checked:
    """A record that replays: its final position (`GameState.to_json`) and the seat and
    kind of each action."""

    record: Record
    final: str
    movers: list[tuple[str, str]]


def check_import(
    text: str, max_actions: int, max_records: int, max_total: int
) -> list[Checked] | Refusal:
    """Every record of `text` read and replayed, or the first problem: a record of more
    than `max_actions` actions, more than `max_records` records or `max_total` actions in
    all are refused before anything is replayed; then unfinished games and a Result tag
    that names another winner."""
    try:
        records = parse_records(text, max_actions)
    except RecordError as error:
        return Refusal(error.reason, str(error), error.line, error.action)
    if len(records) > max_records:
        return Refusal(
            "too_many_records", f"at most {max_records} games in one import ({len(records)})"
        )
    total = sum(len(record.actions) for record in records)
    if total > max_total:
        return Refusal(
            "too_many_actions",
            f"at most {max_total} actions in one import ({total}); nothing was replayed: "
            "import the games in several parts",
        )
    several = len(records) > 1
    found = []
    for index, record in enumerate(records, start=1):
        number = index if several else None
        where = f"record {index}: " if several else ""
        try:
            positions, movers = played(record)
        except RecordError as error:
            message = f"record {index}, {error}" if several else str(error)
            return Refusal(error.reason, message, error.line, error.action, number)
        final = positions[-1]
        if final.winner is None:
            return Refusal(
                "unfinished_record",
                f"{where}the game has no winner after its {len(record.actions)} actions "
                "(only finished games are imported)",
                record=number,
            )
        result = record.tags.get("Result", "*").strip().lower()
        if result not in ("*", "") and result != final.winner.value:
            return Refusal(
                "result_mismatch",
                f"{where}Result says {result}, but {final.winner.value} wins the game",
                record=number,
            )
        found.append(
            Checked(record, final.to_json(), [(seat.value, kind) for seat, kind in movers])
        )
    return found


# -- replays of stored games -------------------------------------------------------------


def replay_stored(
    key: Key, size: int, players: int, first: str, rows: Sequence[tuple[str, str, str]], at: int
) -> tuple[dict[str, Any], dict[str, int]]:
    """The position after the first `at` of a stored game's actions `rows` ((seat, type,
    notation) in play order, at least `at` of them; passes are implied by who acted next)
    and the walls each seat placed by then, as plain data (`GameState.to_dict`). It
    starts from the nearest position kept of the game `key` and keeps every EVERY-th
    position it passes; walls in hand are not counted (bought walls are not in the
    history): the caller counts them."""
    start = kept_positions.nearest(key, at)
    if start is None:
        state = GameState.new(size=size, players=players, first=Seat(first))
        start = Kept(0, state, dict.fromkeys(state.seats, 0))
    state, placed, n = start.state, start.placed, start.n
    for seat_text, kind, notation in rows[n:at]:
        seat = Seat(seat_text)
        state.turn = seat
        state.walls_left[seat] = _PLENTY
        state.play_notation(notation, kind)
        if kind == "wall":
            placed[seat] += 1
        n += 1
        kept_positions.keep(key, n, state, placed)
    return state.to_dict(), {seat.value: count for seat, count in placed.items()}
