"""Tournaments through the real API (SPEC §15, issue 30): create, join, leave, add a bot,
start; the server makes and starts the round's games; a withdrawal forfeits the game being
played and the next round comes at once; every bad request a 4xx with a reason, changing
nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from corridorquest.store.models import Game, User, UserRating, utcnow
from tests.support.games import get_game
from tests.support.rated_games import in_store
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user, mail_text, mails_to, wait_for_mail

NAMES = ["ann", "bob", "cid", "dee", "eve"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    # BOT_WORKERS=0: no bot plays, the games stay as the server made them
    with running_server(
        tmp_path_factory.mktemp("server"), BOT_WORKERS=0, SCHEDULER_INTERVAL="1s"
    ) as running:
        yield running


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in NAMES}


def post(client: httpx.Client, token: str, path: str, **body: Any) -> httpx.Response:
    return client.post(path, json=body, headers=auth(token))


def show(client: httpx.Client, token: str, tid: int) -> dict[str, Any]:
    response = client.get(f"/tournaments/{tid}", headers=auth(token))
    assert response.status_code == 200, response.text
    return response.json()


def new(client: httpx.Client, token: str, **options: Any) -> dict[str, Any]:
    response = post(client, token, "/tournaments", **options)
    assert response.status_code == 201, response.text
    return response.json()


@pytest.mark.parametrize(
    ("body", "status", "reason"),
    [
        ({"name": "x", "kind": "knockout"}, 422, "invalid_tournament_kind"),
        ({"name": "x"}, 400, "bad_request"),
        ({"name": "", "kind": "swiss", "rounds": 3}, 422, "invalid_tournament_name"),
        ({"name": "x", "kind": "swiss"}, 422, "invalid_rounds"),
        ({"name": "x", "kind": "swiss", "rounds": 0}, 422, "invalid_rounds"),
        ({"name": "x", "kind": "round_robin", "rounds": 2}, 422, "rounds_not_for_round_robin"),
        ({"name": "x", "kind": "round_robin", "players": 4}, 422,
         "round_robin_needs_two_players"),
        ({"name": "x", "kind": "swiss", "rounds": 2, "size": 6}, 422, "invalid_size"),
        ({"name": "x", "kind": "swiss", "rounds": 2, "players": 3}, 422, "invalid_players"),
    ],
)
def test_bad_creations_are_refused_with_a_reason_and_make_nothing(
    client: httpx.Client, tokens: dict[str, str], body: dict[str, Any], status: int,
    reason: str,
) -> None:
    before = client.get("/tournaments", headers=auth(tokens["eve"])).json()["tournaments"]
    response = post(client, tokens["eve"], "/tournaments", **body)
    assert response.status_code == status, response.text
    assert response.json()["reason"] == reason
    after = client.get("/tournaments", headers=auth(tokens["eve"])).json()["tournaments"]
    assert after == before


def test_entering_and_the_admins_rights(client: httpx.Client, tokens: dict[str, str]) -> None:
    ann, bob = tokens["ann"], tokens["bob"]
    tournament = new(client, ann, name="Friday night", kind="swiss", rounds=2, size=5)
    tid = tournament["id"]
    assert tournament["status"] == "entering" and tournament["admin"] == "ann"
    assert tournament["entrants"] == 0, "creating does not enter the admin"
    assert post(client, bob, f"/tournaments/{tid}/join").status_code == 201
    again = post(client, bob, f"/tournaments/{tid}/join")
    assert (again.status_code, again.json()["reason"]) == (409, "already_entered")
    refused = post(client, bob, f"/tournaments/{tid}/bots", level=1)
    assert (refused.status_code, refused.json()["reason"]) == (403, "not_tournament_admin")
    bad = post(client, ann, f"/tournaments/{tid}/bots", level=9)
    assert (bad.status_code, bad.json()["reason"]) == (422, "invalid_bot_level")
    assert post(client, ann, f"/tournaments/{tid}/bots", level=1).status_code == 201
    early = post(client, bob, f"/tournaments/{tid}/start")
    assert (early.status_code, early.json()["reason"]) == (403, "not_tournament_admin")
    assert post(client, bob, f"/tournaments/{tid}/leave").status_code == 200
    nobody = post(client, bob, f"/tournaments/{tid}/leave")
    assert (nobody.status_code, nobody.json()["reason"]) == (409, "not_entered")
    few = post(client, ann, f"/tournaments/{tid}/start")
    assert (few.status_code, few.json()["reason"]) == (409, "too_few_entrants")
    view = show(client, ann, tid)
    assert [e["username"] for e in view["entrant_list"]] == ["bot-1"]
    assert view["status"] == "entering" and view["pairings"] == []
    missing = client.get("/tournaments/999999", headers=auth(ann))
    assert (missing.status_code, missing.json()["reason"]) == (404, "tournament_not_found")


def test_round_robin_starts_its_first_round_and_a_withdrawal_forfeits(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> None:
    ann = tokens["ann"]
    tid = new(client, ann, name="Round robin", kind="round_robin", size=5)["id"]
    for name in ("ann", "bob", "cid"):
        assert post(client, tokens[name], f"/tournaments/{tid}/join").status_code == 201
    started = post(client, ann, f"/tournaments/{tid}/start")
    assert started.status_code == 200, started.text
    view = started.json()
    assert view["status"] == "started" and view["round"] == 1 and view["rounds"] == 3
    first = view["pairings"][0]
    assert len(first["games"]) == 1 and len(first["byes"]) == 1, "3 entrants: one sits out"
    table = first["games"][0]
    game = get_game(client, ann, table["game_id"])
    assert game["status"] == "started" and game["size"] == 5
    assert sorted(s["username"] for s in game["seats"]) == sorted(table["players"])
    assert game["turn_username"] == table["players"][0], "the first listed moves first"
    # each paired player is told whom they play (one mail: the pairing, not the start)
    first_mover, second_mover = table["players"]
    subject = f"Round robin, round 1: game {table['game_id']}"
    for me, other in ((first_mover, second_mover), (second_mover, first_mover)):
        mail = mail_text(wait_for_mail(server.mail_dir, f"{me}@example.test", subject=subject))
        assert (f"Tournament Round robin, round 1: you play {other} in game "
                f"{table['game_id']} (2 players, 5x5)." in mail), mail
        assert ("It is your turn." in mail) == (me == first_mover), mail
        started = f"game {table['game_id']} started"
        assert mails_to(server.mail_dir, f"{me}@example.test", started) == []
    late = post(client, tokens["dee"], f"/tournaments/{tid}/join")
    assert (late.status_code, late.json()["reason"]) == (409, "tournament_started")
    # the first player of the table withdraws: its game is cancelled, the other wins
    quitter, other = table["players"]
    left = post(client, tokens[quitter], f"/tournaments/{tid}/leave")
    assert left.status_code == 200, left.text
    assert get_game(client, ann, table["game_id"])["status"] == "cancelled"
    deadline = time.monotonic() + 10
    while (view := show(client, ann, tid))["round"] < 2:
        assert time.monotonic() < deadline, "the next round did not come"
        time.sleep(0.05)
    settled = view["pairings"][0]["games"][0]
    assert settled["status"] == "settled" and settled["winner"] == other
    assert settled["forfeited"] == [quitter]
    points = {line["username"]: line["points"] for line in view["standings"]}
    assert points[other] >= 1 and points[quitter] == 0
    withdrawn = {e["username"]: e["withdrawn"] for e in view["entrant_list"]}
    assert withdrawn[quitter] is True
    # every later pairing of the quitter is a forfeit without a game
    for played in view["pairings"][1:]:
        for later in played["games"]:
            if quitter in later["players"]:
                assert later["game_id"] is None and later["forfeited"] == [quitter]


def test_a_game_ended_without_an_event_is_caught_up_by_the_sweep(
    server: RunningServer, client: httpx.Client, tokens: dict[str, str]
) -> None:
    """As after a restart, or a process that died between the commit and the nudge: the
    game's end is in the database only; the scheduler's sweep makes the next round."""
    cid = tokens["cid"]
    tid = new(client, cid, name="Sweep", kind="round_robin", size=5)["id"]
    for name in ("cid", "dee", "eve"):
        assert post(client, tokens[name], f"/tournaments/{tid}/join").status_code == 201
    view = post(client, cid, f"/tournaments/{tid}/start").json()
    table = view["pairings"][0]["games"][0]
    winner = table["players"][1]

    def finish() -> None:
        user = User.get(User.username == winner)
        Game.update(status="finished", winner=user.id, turn_user=None).where(
            Game.id == table["game_id"]
        ).execute()

    in_store(server.database_url, finish)
    deadline = time.monotonic() + 10
    while (view := show(client, cid, tid))["round"] < 2:
        assert time.monotonic() < deadline, "the sweep did not make round 2"
        time.sleep(0.05)
    first = view["pairings"][0]["games"][0]
    assert first["status"] == "settled" and first["winner"] == winner
    assert len(view["pairings"]) == 2, "round 2 made once"
    second = view["pairings"][1]
    assert second["games"][0]["game_id"] is not None
    assert get_game(client, cid, second["games"][0]["game_id"])["status"] == "started"


def test_tables_of_four_seat_four_and_give_the_rest_a_bye(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    eve = tokens["eve"]
    tid = new(client, eve, name="Fours", kind="swiss", rounds=2, players=4, size=7)["id"]
    for name in NAMES:
        assert post(client, tokens[name], f"/tournaments/{tid}/join").status_code == 201
    view = post(client, eve, f"/tournaments/{tid}/start").json()
    first = view["pairings"][0]
    assert len(first["games"]) == 1 and first["byes"] == ["eve"], "the last entered sits out"
    table = first["games"][0]
    game = get_game(client, eve, table["game_id"])
    assert game["players"] == 4 and game["status"] == "started" and game["size"] == 7
    assert sorted(s["username"] for s in game["seats"]) == sorted(table["players"])
    assert game["turn_username"] == table["players"][0]
    points = {line["username"]: line["points"] for line in view["standings"]}
    assert points["eve"] == 1, "a bye counts 1"


def test_the_first_swiss_round_pairs_by_rating_top_half_against_bottom_half(
    server: RunningServer, client: httpx.Client
) -> None:
    """Entered from the weakest to the strongest, paired by rating all the same: the
    strongest meets the third, the second the weakest (the Dutch system's first round)."""
    rated = {"low": 1300.0, "mid": 1450.0, "high": 1600.0, "top": 1800.0}
    tokens = {name: insert_user(server.database_url, name) for name in rated}

    def rate() -> None:
        for name, rating in rated.items():
            UserRating.create(user=User.get(User.username == name).id, pool="2p",
                              rating=rating, deviation=60.0, volatility=0.06, games=30,
                              last_played_at=utcnow())

    in_store(server.database_url, rate)
    tid = new(client, tokens["low"], name="Rated", kind="swiss", rounds=2, size=5)["id"]
    for name in rated:  # low, mid, high, top: the order of entry is the reverse of rating
        assert post(client, tokens[name], f"/tournaments/{tid}/join").status_code == 201
    view = post(client, tokens["low"], f"/tournaments/{tid}/start").json()
    tables = [table["players"] for table in view["pairings"][0]["games"]]
    assert tables == [["top", "mid"], ["low", "high"]], tables
