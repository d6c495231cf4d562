"""/api/v1/games/{id}/analysis against the real server (issue 31 item 3): a 5x5 game played
to the end through the API is analysed once in a worker process and stored, one row per
ply, its missed win marked a mistake; a game in play is refused with nothing computed; a
private game's analysis is for its players only."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import httpx
import pytest

from corridorquest.engine import Seat, is_goal, parse_square
from corridorquest.store import Store
from corridorquest.store.models import GameAnalysis, utcnow
from tests.api.mode_helpers import Match, act, best_step, play_out, start
from tests.support.games import history
from tests.support.server import RunningServer
from tests.support.users import auth, insert_user

NAMES = ("anann", "anbob", "anwatch")


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in NAMES}


def pair(tokens: dict[str, str]) -> dict[str, str]:
    return {"anann": tokens["anann"], "anbob": tokens["anbob"]}


def in_database(database_url: str, work: Callable[[], Any]) -> Any:
    """`work` in one transaction on the server's database (SQLite or PostgreSQL)."""
    store = Store.open(database_url, pool_size=1, migrate=False)
    try:
        return store.run(work)
    finally:
        store.close()


def analysis_rows(server: RunningServer) -> int:
    return int(in_database(server.database_url, lambda: GameAnalysis.select().count()))


def wait_done(client: httpx.Client, token: str, game_id: int) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        response = client.get(f"/games/{game_id}/analysis", headers=auth(token))
        if response.status_code == 200:
            return dict(response.json())
        assert response.status_code == 202, response.text
        assert response.json()["status"] == "pending"
        time.sleep(0.05)
    raise AssertionError(f"the analysis of game {game_id} did not end in 60 s")


def play_missing_a_win(client: httpx.Client, match: Match) -> int:
    """Both walk their shortest paths; the first player who could step onto its goal steps
    elsewhere instead (once); then the game is played out. The ply of the missed win."""
    missed = 0
    for _ in range(60):
        state = match.mirror
        seat = state.turn
        assert seat is not None
        steps = state.legal_steps()
        if not missed and any(is_goal(seat, step.to, state.size) for step in steps):
            other = next(step for step in steps if not is_goal(seat, step.to, state.size))
            act(client, match, "jump" if other.jump else "move", str(other.to))
            missed = state.ply  # GameState.ply counts the actions played
            break
        step = best_step(state)
        act(client, match, "jump" if step.jump else "move", str(step.to))
    assert missed
    play_out(client, match, walls_each=0)
    return missed


def test_a_finished_game_is_analysed_once_with_its_mistake(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> None:
    match = start(client, pair(tokens), size=5)
    missed = play_missing_a_win(client, match)
    plies = match.mirror.ply
    assert match.game["status"] == "finished"

    never = client.get(f"/games/{match.id}/analysis", headers=auth(tokens["anwatch"]))
    assert never.status_code == 404 and never.json()["reason"] == "analysis_not_requested"

    # a spectator of a public game may ask
    first = client.post(f"/games/{match.id}/analysis", headers=auth(tokens["anwatch"]))
    assert first.status_code in (200, 202), first.text
    done = wait_done(client, tokens["anann"], match.id)
    assert done["status"] == "done" and done["level"] == 3
    rows = done["plies"]
    assert [row["ply"] for row in rows] == list(range(1, plies + 1))
    assert {row["player"] for row in rows} == {"anann", "anbob"}
    entries = history(client, tokens["anann"], match.id)
    assert [row["action"] for row in rows] == [entry["notation"] for entry in entries]

    missed_row = rows[missed - 1]
    assert missed_row["mistake"] and missed_row["best_after"] == 1000.0
    assert is_goal(Seat(missed_row["seat"]), parse_square(missed_row["best"], 5), 5)
    for row in rows:
        if row["mistake"]:  # marked only where the evaluation dropped (or a win was missed)
            assert row["after"] < row["before"] or row["best_after"] == 1000.0
            assert row["best_after"] >= row["after"] + done["mistake_drop"]
    assert rows[-1]["after"] == 1000.0  # the winning step

    # stored once: asking again answers the same rows at once, one row in the table
    again = client.post(f"/games/{match.id}/analysis", headers=auth(tokens["anbob"]))
    assert again.status_code == 200 and again.json()["plies"] == rows
    assert analysis_rows(server) >= 1


def test_a_game_in_play_is_refused_and_nothing_computed(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> None:
    match = start(client, pair(tokens), size=5)
    step = best_step(match.mirror)
    act(client, match, "jump" if step.jump else "move", str(step.to))
    before = analysis_rows(server)
    for method in ("post", "get"):
        refused = client.request(method.upper(), f"/games/{match.id}/analysis",
                                 headers=auth(tokens["anann"]))
        assert refused.status_code == 403, refused.text
        assert refused.json()["reason"] == "game_in_play"
    assert analysis_rows(server) == before


def test_a_private_games_analysis_is_for_its_players_only(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    match = start(client, pair(tokens), size=5, private=True)
    play_out(client, match, walls_each=1)
    for method in ("POST", "GET"):
        refused = client.request(method, f"/games/{match.id}/analysis",
                                 headers=auth(tokens["anwatch"]))
        assert refused.status_code == 404
        assert refused.json()["reason"] == "game_not_found"
    asked = client.post(f"/games/{match.id}/analysis", headers=auth(tokens["anbob"]))
    assert asked.status_code in (200, 202)
    done = wait_done(client, tokens["anann"], match.id)
    assert len(done["plies"]) == match.mirror.ply
    refused = client.get(f"/games/{match.id}/analysis", headers=auth(tokens["anwatch"]))
    assert refused.status_code == 404 and "plies" not in refused.text


def test_an_imported_game_is_analysed_with_its_records_names(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    from tests.analysis.test_plies import GAME

    moves = " ".join(
        f"{n // 2 + 1}. {GAME[n]} {GAME[n + 1] if n + 1 < len(GAME) else ''}".strip()
        for n in range(0, len(GAME), 2)
    )
    text = f'[Size "5"]\n[South "Ada"]\n[North "Bert"]\n{moves}\n'
    imported = client.post("/games/imported", json={"record": text},
                           headers=auth(tokens["anwatch"]))
    assert imported.status_code == 201, imported.text
    [game_id] = imported.json()["games"]
    asked = client.post(f"/games/{game_id}/analysis", headers=auth(tokens["anann"]))
    assert asked.status_code in (200, 202), asked.text
    rows = wait_done(client, tokens["anann"], game_id)["plies"]
    assert [row["action"] for row in rows] == GAME
    assert [row["player"] for row in rows[:2]] == ["Ada", "Bert"]
    # Ada's c1h (ply 17) is a wall behind her own pawn: spent for nothing (a wall in hand is
    # worth 1.6 steps to the level-3 evaluation since the bots keep theirs); 26: Bert's step away
    assert [row["ply"] for row in rows if row["mistake"]] == [17, 26]


def test_an_analysis_left_pending_by_a_stopped_server_is_computed_on_a_new_request(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> None:
    match = start(client, pair(tokens), size=5)
    play_out(client, match, walls_each=0)
    in_database(  # as a server stopped in the middle leaves it
        server.database_url,
        lambda: GameAnalysis.create(
            game=match.id, status="pending", level=3, requested_at=utcnow() - timedelta(hours=1)
        ),
    )
    pending = client.get(f"/games/{match.id}/analysis", headers=auth(tokens["anann"]))
    assert pending.status_code == 202
    again = client.post(f"/games/{match.id}/analysis", headers=auth(tokens["anann"]))
    assert again.status_code == 202
    assert len(wait_done(client, tokens["anann"], match.id)["plies"]) == match.mirror.ply
