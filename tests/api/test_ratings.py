"""Ratings end to end (SPEC §14): the real server, real SQLite; games played to the end
move the ratings, once, as the libraries compute them; cancelled games change nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce

from corridorquest.ratings import glicko2
from corridorquest.ratings.glicko2 import Glicko
from corridorquest.store.models import User, UserRating, utcnow
from tests.support.finishing_games import TWO_PLAYER_SCRIPT
from tests.support.games import play
from tests.support.rated_games import duel, finish, four_player, in_store, seeded_game
from tests.support.server import RunningServer
from tests.support.users import auth, insert_user

NAMES = ("rta", "rtb", "rtc", "rtd", "rtn", "rte", "rts", "rtw", "rtx", "rty", "rtlead",
         "rtnew", "rtidle", "rtfew", "rtsecond")


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in NAMES}


def ratings_of(client: httpx.Client, name: str, **params: Any) -> dict[str, dict[str, Any]]:
    response = client.get(f"/users/{name}/ratings", params=params)
    assert response.status_code == 200, response.text
    return {pool["pool"]: pool for pool in response.json()["pools"]}


def test_a_finished_duel_moves_both_ratings_as_glicko2_computes(
    client: httpx.Client, server: RunningServer, tokens: dict[str, str]
) -> None:
    assert ratings_of(client, "rta")["2p"] | {"last_played_at": None} == {
        "pool": "2p", "rating": 1500, "deviation": 350, "provisional": True,
        "shown": "1500?", "games": 0, "last_played_at": None, "last_change": None,
    }
    game = duel(client, server.database_url, tokens, loser="rta", winner="rtb")
    winner, loser = glicko2.rate_duel(Glicko(), Glicko(), 1.0)
    mine = ratings_of(client, "rtb")["2p"]
    assert (mine["rating"], mine["deviation"], mine["games"]) == (
        round(winner.rating), round(winner.deviation), 1)
    assert mine["shown"] == f"{round(winner.rating)}?"
    assert mine["last_change"] == round(winner.rating) - 1500
    theirs = ratings_of(client, "rta")["2p"]
    assert theirs["rating"] == round(loser.rating) < 1500
    assert ratings_of(client, "rta")["4p"]["games"] == 0

    changes = client.get(f"/games/{game['id']}/ratings", headers=auth(tokens["rta"])).json()
    assert changes["rated"] and changes["pool"] == "2p"
    by_name = {p["username"]: p for p in changes["players"]}
    assert by_name["rtb"]["before"] == 1500 and by_name["rtb"]["after"] == round(winner.rating)
    assert by_name["rtb"]["change"] > 0 > by_name["rta"]["change"]


def test_a_retried_finishing_move_rates_the_game_once(
    client: httpx.Client, server: RunningServer, tokens: dict[str, str]
) -> None:
    game = seeded_game(client, server.database_url, tokens, ["rtc", "rtd"], 5)
    key = {"Idempotency-Key": "rating-once-1"}
    finished = finish(client, game, tokens, TWO_PLAYER_SCRIPT, last_headers=key)
    once = ratings_of(client, "rtd")["2p"]
    again = play(client, tokens["rtd"], game["id"], "move", "c5", headers=key)
    assert again.status_code == 201 and again.json()["revision"] == finished["revision"]
    late = play(client, tokens["rtd"], game["id"], "move", "c5")  # no key: refused
    assert late.status_code == 409
    assert ratings_of(client, "rtd")["2p"] == once
    assert once["games"] == 1


def test_a_cancelled_game_changes_no_rating(
    client: httpx.Client, server: RunningServer, tokens: dict[str, str]
) -> None:
    duel(client, server.database_url, tokens, loser="rtx", winner="rty")
    before = {name: ratings_of(client, name, history="true") for name in ("rtx", "rty")}
    game = seeded_game(client, server.database_url, tokens, ["rtx", "rty"], 5)
    assert play(client, tokens["rty"], game["id"], "move", "c2").status_code == 201
    gone = client.delete(f"/games/{game['id']}/players/me", headers=auth(tokens["rtx"]))
    assert gone.status_code == 200, gone.text
    assert gone.json()["status"] == "cancelled"
    assert {name: ratings_of(client, name, history="true") for name in before} == before
    shown = client.get(f"/games/{game['id']}/ratings", headers=auth(tokens["rtx"])).json()
    assert shown["rated"] is False and shown["players"] == []


def test_a_four_player_game_ranks_by_final_score_as_openskill_does(
    client: httpx.Client, server: RunningServer, tokens: dict[str, str]
) -> None:
    game = four_player(client, server.database_url, tokens, ["rtn", "rte", "rts", "rtw"])
    scores = game["scores"]
    model = PlackettLuce(mu=1500, sigma=350, beta=175, tau=3.5)
    names = list(scores)
    ids = in_store(server.database_url, lambda: {
        u.username: u.id for u in User.select().where(User.username.in_(names))})
    names = sorted(names, key=ids.__getitem__)  # the service rates in user-id order
    expected = model.rate([[model.rating()] for _ in names], scores=[scores[n] for n in names])
    for name, team in zip(names, expected, strict=True):
        got = ratings_of(client, name)["4p"]
        assert (got["rating"], got["deviation"], got["games"]) == (
            round(team[0].mu), round(team[0].sigma), 1)
    by_score = sorted(scores, key=scores.__getitem__, reverse=True)
    assert by_score[0] == "rts"
    ratings = [ratings_of(client, n)["4p"]["rating"] for n in by_score]
    assert ratings == sorted(ratings, reverse=True) and ratings[0] > 1500


def test_the_history_has_one_point_per_rated_game(
    client: httpx.Client, server: RunningServer, tokens: dict[str, str]
) -> None:
    duel(client, server.database_url, tokens, loser="rtsecond", winner="rtnew")
    hidden = duel(client, server.database_url, tokens, loser="rtnew", winner="rtsecond",
                  private=True)
    outsider = client.get(f"/games/{hidden['id']}/ratings", headers=auth(tokens["rta"]))
    assert outsider.status_code == 404 and outsider.json()["reason"] == "game_not_found"
    inside = client.get(f"/games/{hidden['id']}/ratings", headers=auth(tokens["rtnew"]))
    assert inside.status_code == 200 and inside.json()["rated"]
    mine = ratings_of(client, "rtnew", history="true")["2p"]
    assert [p["change"] > 0 for p in mine["history"]] == [True, False]
    assert mine["history"][-1]["rating"] == mine["rating"]
    # a private game's id is for its players only
    assert mine["history"][1]["game_id"] is None and mine["history"][1]["private"]
    with_login = client.get("/users/rtnew/ratings", params={"history": "true"},
                            headers=auth(tokens["rtnew"])).json()
    assert with_login["pools"][0]["history"][1]["game_id"] is not None


def test_the_leaderboard_by_rating_lists_established_active_players(
    client: httpx.Client, server: RunningServer, tokens: dict[str, str]
) -> None:
    now = utcnow()

    def seed() -> None:
        rows = {
            "rtlead": (1810.0, 60.0, 12, now),
            "rtfew": (1900.0, 60.0, 4, now),  # too few games
            "rtidle": (1850.0, 60.0, 30, now - timedelta(days=91)),  # inactive
            "rtsecond": (1700.0, 140.0, 9, now),  # provisional
        }
        for name, (rating, deviation, games, at) in rows.items():
            user = User.get(User.username == name)
            UserRating.delete().where(UserRating.user == user.id).execute()
            UserRating.create(user=user, pool="2p", rating=rating, deviation=deviation,
                              volatility=0.06, games=games, last_played_at=at)

    in_store(server.database_url, seed)
    board = client.get("/leaderboards/ratings", params={"pool": "2p"}).json()
    names = [e["username"] for e in board["entries"]]
    assert names[0] == "rtlead"
    assert not {"rtfew", "rtidle", "rtsecond"} & set(names)
    assert board["entries"][0] | {"last_played_at": None} == {
        "rank": 1, "username": "rtlead", "rating": 1810, "deviation": 60, "games": 12,
        "last_played_at": None}
    assert client.get("/leaderboards/ratings", params={"pool": "4p"}).json()["entries"] == []
    bad = client.get("/leaderboards/ratings", params={"pool": "3p"})
    assert bad.status_code == 400 and bad.json()["reason"]
