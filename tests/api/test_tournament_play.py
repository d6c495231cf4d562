"""Acceptance (issue 30): a round robin of 4 entrants and a Swiss of 6 (3 rounds), played
to the end by bots of level 1 on a 5x5 board, by themselves: the server pairs, starts
every round's games when the last game of the round before has ended, and finishes the
tournament. Every pairing valid, no repeat in Swiss, byes rotate, the standings match a
hand count of the games' results; a forfeit (a withdrawal, a removal) is handled.

The bots: users inserted in the database, entered by joining, then marked as bots of
level 1 (the server's own bot users are one per level; a tournament of six needs six).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from corridorquest.store.models import User
from tests.support.games import get_game
from tests.support.rated_games import in_store
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user

BOUND = 60.0  # seconds a tournament may take to play out
BOTS = [f"b{i}" for i in range(1, 7)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(
        tmp_path_factory.mktemp("server"), BOT_WORKERS=1, BOT_SAFETY_INTERVAL="1s",
        BOTS_ONLY_PACE="0",  # the bots' games between themselves at full speed
    ) as running:
        yield running


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in ["host", *BOTS]}


def make_bots(server: RunningServer, names: list[str]) -> None:
    in_store(server.database_url,
             lambda: User.update(bot_level=1).where(User.username.in_(names)).execute())


def post(client: httpx.Client, token: str, path: str, **body: Any) -> dict[str, Any]:
    response = client.post(path, json=body, headers=auth(token))
    assert response.status_code in (200, 201), response.text
    return response.json()


def show(client: httpx.Client, token: str, tid: int) -> dict[str, Any]:
    response = client.get(f"/tournaments/{tid}", headers=auth(token))
    assert response.status_code == 200, response.text
    return response.json()


def wait_until(client: httpx.Client, token: str, tid: int, done: Any) -> dict[str, Any]:
    deadline = time.monotonic() + BOUND
    while True:
        view = show(client, token, tid)
        if done(view):
            return view
        assert time.monotonic() < deadline, f"tournament {tid} stuck: {view}"
        time.sleep(0.05)


def hand_count(view: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Points, Buchholz (Swiss) and score of every entrant, counted from the rounds."""
    names = [e["username"] for e in view["entrant_list"]]
    points = Counter({name: 0 for name in names})
    score = Counter({name: 0 for name in names})
    met: dict[str, list[str]] = {name: [] for name in names}
    for played in view["pairings"]:
        for name in played["byes"]:
            points[name] += 1
        for table in played["games"]:
            assert table["status"] == "settled", table
            if table["winner"]:
                points[table["winner"]] += 1
            for name, value in table["scores"].items():
                score[name] += value
            for name in table["players"]:
                met[name] += [other for other in table["players"] if other != name]
    return {
        name: {
            "points": points[name],
            "buchholz": sum(points[o] for o in met[name]) if view["kind"] == "swiss" else 0,
            "score": score[name],
        }
        for name in names
    }


def assert_standings_match(view: dict[str, Any]) -> None:
    counted = hand_count(view)
    shown = {
        line["username"]: {k: line[k] for k in ("points", "buchholz", "score")}
        for line in view["standings"]
    }
    assert shown == counted
    keys = [(-line["points"], -line["buchholz"], -line["score"]) for line in view["standings"]]
    assert keys == sorted(keys), "best first: points, Buchholz, score"


def test_round_robin_of_four_plays_out_with_a_withdrawal(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> None:
    host = tokens["host"]
    entrants = ["host", "b1", "b2", "b3"]
    tid = post(client, host, "/tournaments", name="RR", kind="round_robin", size=5)["id"]
    for name in entrants:
        post(client, tokens[name], f"/tournaments/{tid}/join")
    make_bots(server, ["b1", "b2", "b3"])
    time.sleep(1.5)  # pacing: the bot driver learns who the bots are (BOT_SAFETY_INTERVAL)
    started = time.monotonic()
    view = post(client, host, f"/tournaments/{tid}/start")
    host_table = next(t for t in view["pairings"][0]["games"] if "host" in t["players"])
    # the host (a person who will not move) withdraws: its game is cancelled, lost by it
    post(client, host, f"/tournaments/{tid}/leave")
    assert get_game(client, host, host_table["game_id"])["status"] == "cancelled"
    view = wait_until(client, host, tid, lambda v: v["status"] == "finished")
    assert time.monotonic() - started < BOUND
    assert view["round"] == view["rounds"] == 3
    pairs = [frozenset(t["players"]) for r in view["pairings"] for t in r["games"]]
    assert len(pairs) == 6 and len(set(pairs)) == 6, "every pairing exactly once"
    for played in view["pairings"]:
        seen = [p for t in played["games"] for p in t["players"]]
        assert sorted(seen) == sorted(entrants), "every entrant once per round"
        for table in played["games"]:
            if "host" in table["players"]:
                other = next(p for p in table["players"] if p != "host")
                assert table["forfeited"] == ["host"] and table["winner"] == other
            else:
                assert table["game_id"] is not None and table["winner"] in table["players"]
                assert get_game(client, host, table["game_id"])["status"] == "finished"
    assert view["pairings"][0]["games"][0]["game_id"] is not None
    later_host = [t for r in view["pairings"][1:] for t in r["games"] if "host" in t["players"]]
    assert all(t["game_id"] is None for t in later_host), "no game after a withdrawal"
    assert_standings_match(view)
    points = {line["username"]: line["points"] for line in view["standings"]}
    assert points["host"] == 0 and sum(points.values()) == 6
    assert view["standings"][-1]["username"] == "host"


def test_swiss_of_six_plays_three_rounds_with_a_removal_and_rotating_byes(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> None:
    host = tokens["host"]
    tid = post(client, host, "/tournaments", name="Swiss", kind="swiss", rounds=3, size=5)["id"]
    for name in BOTS:
        post(client, tokens[name], f"/tournaments/{tid}/join")
    make_bots(server, BOTS)
    time.sleep(1.5)  # pacing: BOT_SAFETY_INTERVAL, as above
    started = time.monotonic()
    view = post(client, host, f"/tournaments/{tid}/start")
    assert len(view["pairings"][0]["games"]) == 3 and view["pairings"][0]["byes"] == []
    # the admin removes b6: it forfeits what is left; five players: a bye each round
    post(client, host, f"/tournaments/{tid}/remove", username="b6")
    view = wait_until(client, host, tid, lambda v: v["status"] == "finished")
    assert time.monotonic() - started < BOUND
    assert [r["round"] for r in view["pairings"]] == [1, 2, 3]
    pairs = [frozenset(t["players"]) for r in view["pairings"] for t in r["games"]]
    assert len(set(pairs)) == len(pairs), "no repeat pairing (avoidable with 5 or 6 players)"
    byes = [name for r in view["pairings"] for name in r["byes"]]
    assert len(byes) == 2 and len(set(byes)) == 2, "byes rotate"
    for played in view["pairings"][1:]:
        seen = [p for t in played["games"] for p in t["players"]] + played["byes"]
        assert sorted(seen) == sorted(BOTS[:5]), "every active player once; b6 no more"
        assert len(played["byes"]) == 1
    assert_standings_match(view)
    lines = {line["username"]: line for line in view["standings"]}
    assert lines["b6"]["withdrawn"] is True
    assert lines["b6"]["played"] == 1
