"""Migration step 7: finished games scored on the old scale get their 0-100 scores; step
25: scores below 0 from a path longer than the board (progress now clamped at 0).

A real server plays the games (with trades through the API) on a real database; the test
then writes back what the server wrote before step 7, when the engine divided progress
and wall thrift by 100 (the old scores and the winner's message with them), forgets step
7, and starts the server again: it migrates on start, and the API shows the new scores,
the rewritten message and the leaderboards built on them. Games that are not finished
are left alone. Scores come from the games' actions replayed, not from their stored final
state: a game whose stored state was edited by hand is scored as it was played, with a
WARNING in the log naming it.

Seeds are fixed through the store (as in tests/api/test_scores.py): 2 players, seed 5:
the creator is North and South moves first; 4 players, seed 9: seats in join order North,
East, South, West, South first.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from corridorquest.engine import GameState, Seat, final_scores
from corridorquest.store import Store
from corridorquest.store.migrations.rescore import FINISHED_MARK, Scored, rewrite_finish_text
from corridorquest.store.models import Game, GameMessage, GamePlayer, SchemaVersion, User
from tests.support.finishing_games import (
    FOUR_PLAYER_SCRIPT,
    LONG_PATH_SCRIPT,
    TWO_PLAYER_SCRIPT,
)
from tests.support.games import get_game, history, join, new_game, play
from tests.support.server import (
    free_port,
    fresh_database,
    server_env,
    start_process,
    stop,
    wait_until_up,
)
from tests.support.users import auth, insert_user

RESCORE_STEP = 7
CLAMP_STEP = 25



@contextmanager
def serving(tmp_path: Path, database_url: str) -> Iterator[httpx.Client]:
    """The real server on `database_url` (migrating it on start), and a client of its API."""
    tmp_path.mkdir()
    port = free_port()
    process, log_path = start_process(tmp_path, server_env(tmp_path, database_url, port))
    try:
        base_url = f"http://127.0.0.1:{port}"
        wait_until_up(base_url, process, log_path)
        with httpx.Client(base_url=base_url + "/api/v1", timeout=10.0) as client:
            yield client
    finally:
        stop(process)


def in_store(database_url: str, fn: Any) -> Any:
    store = Store.open(database_url, pool_size=1, migrate=False)
    try:
        return store.run(fn)
    finally:
        store.close()


def seeded_game(
    client: httpx.Client, url: str, tokens: dict[str, str], names: list[str], seed: int
) -> dict[str, Any]:
    game = new_game(client, tokens[names[0]], size=5, players=len(names))
    game_id = game["id"]
    in_store(url, lambda: Game.update(seed=seed).where(Game.id == game_id).execute())
    for name in names[1:]:
        response = join(client, tokens[name], game_id, invitation_code=game["invitation_code"])
        assert response.status_code == 201, response.text
        game = response.json()
    assert game["status"] == "started"
    return game


def sell(client: httpx.Client, tokens: dict[str, str], game_id: int, seller: str,
         buyer: str) -> None:
    offer = client.post(f"/games/{game_id}/offers", json={"mode": "selling"},
                        headers=auth(tokens[seller]))
    assert offer.status_code == 201, offer.text
    trade = client.post(f"/games/{game_id}/trades", json={"mode": "buying", "partner": seller},
                        headers=auth(tokens[buyer]))
    assert trade.status_code == 201, trade.text


def run_script(client: httpx.Client, tokens: dict[str, str], game: dict[str, Any],
               script: list[tuple[str, str, str]]) -> dict[str, Any]:
    by_seat = {s["seat"]: tokens[s["username"]] for s in game["seats"]}
    for seat, kind, to in script:
        response = play(client, by_seat[seat], game["id"], kind, to)
        assert response.status_code == 201, response.text
        game = response.json()
    assert game["status"] == "finished"
    return game


def run_script_until(client: httpx.Client, tokens: dict[str, str], game: dict[str, Any],
                     script: list[tuple[str, str, str]]) -> dict[str, Any]:
    """Play `script` (which does not finish the game)."""
    by_seat = {s["seat"]: tokens[s["username"]] for s in game["seats"]}
    for seat, kind, to in script:
        response = play(client, by_seat[seat], game["id"], kind, to)
        assert response.status_code == 201, response.text
        game = response.json()
    assert game["status"] == "started"
    return game


def messages(client: httpx.Client, token: str, game_id: int) -> list[str]:
    response = client.get(f"/games/{game_id}/messages", headers=auth(token))
    assert response.status_code == 200, response.text
    return [m["text"] for m in response.json()["messages"]]


def replayed_scores(client: httpx.Client, tokens: dict[str, str],
                    game: dict[str, Any]) -> dict[str, int]:
    """The scores of the game's stored actions replayed through the engine, with each
    player's trade balance as the API shows it to that player."""
    seats = {s["seat"]: s["username"] for s in game["seats"]}
    actions = history(client, tokens[seats["south"]], game["id"])
    state = GameState.new(game["size"], game["players"], Seat(actions[0]["seat"]))
    for action in actions:
        seat = Seat(action["seat"])
        state.walls_left[seat] = 99  # walls in hand: trades moved some
        state.play_notation(action["notation"], action["type"])
    balances = {
        Seat(seat): get_game(client, tokens[name], game["id"])["trade_balance"]
        for seat, name in seats.items()
    }
    return {seats[seat.value]: score for seat, score in final_scores(state, balances).items()}


def leaderboard(client: httpx.Client, players: int) -> list[tuple[str, int]]:
    response = client.get("/leaderboards", params={"size": 5, "players": players})
    assert response.status_code == 200, response.text
    return [(e["username"], e["score"]) for e in response.json()["entries"]]


def as_before_step_7(url: str, game_id: int, scores: dict[str, int], text: str) -> None:
    """What the server wrote before step 7: the old scores and the winner's message."""

    def write() -> None:
        for name, score in scores.items():
            user = User.get(User.username == name)
            GamePlayer.update(score=score).where(
                (GamePlayer.game == game_id) & (GamePlayer.user == user.id)
            ).execute()
        updated = GameMessage.update(text=text).where(
            (GameMessage.game == game_id) & GameMessage.text.contains(FINISHED_MARK)
        ).execute()
        assert updated == 1

    in_store(url, write)


def tamper_with_state(url: str, game_id: int, seat: str, square: str) -> GameState:
    """Move `seat`'s pawn to `square` in the game's stored final state (an edit by hand:
    its actions no longer give it); the tampered position."""

    def write() -> GameState:
        game = Game.get_by_id(game_id)
        state = json.loads(str(game.state))
        state["pawns"][seat] = square
        Game.update(state=json.dumps(state)).where(Game.id == game_id).execute()
        return GameState.from_dict(state)

    tampered: GameState = in_store(url, write)
    return tampered


def warnings_in(log_text: str) -> list[str]:
    return [line for line in log_text.splitlines() if "WARNING" in line]


def test_step_7_rescores_finished_games_and_their_messages_on_the_0_to_100_scale(
    tmp_path: Path,
) -> None:
    names = ("rsa", "rsb", "rsn", "rse", "rss", "rsw", "rsx", "rsy", "rst", "rsu")
    with fresh_database(tmp_path) as url:
        with serving(tmp_path / "before", url) as client:
            tokens = {name: insert_user(url, name) for name in names}
            two = seeded_game(client, url, tokens, ["rsa", "rsb"], 5)
            sell(client, tokens, two["id"], seller="rsa", buyer="rsb")  # North to South
            two = run_script(client, tokens, two, TWO_PLAYER_SCRIPT)
            four = seeded_game(client, url, tokens, ["rsn", "rse", "rss", "rsw"], 9)
            sell(client, tokens, four["id"], seller="rse", buyer="rsn")  # East to North
            four = run_script(client, tokens, four, FOUR_PLAYER_SCRIPT)
            # the same 2-player game without a trade, whose stored state is edited below
            tampered = seeded_game(client, url, tokens, ["rst", "rsu"], 5)
            tampered = run_script(client, tokens, tampered, TWO_PLAYER_SCRIPT)
            assert tampered["scores"] == {"rst": 62, "rsu": 84}
            # a started game and a cancelled one: no scores, nothing to rescore
            started = seeded_game(client, url, tokens, ["rsx", "rsy"], 5)
            started = run_script_until(client, tokens, started, TWO_PLAYER_SCRIPT[:3])
            cancelled = seeded_game(client, url, tokens, ["rsy", "rsx"], 5)
            left = client.delete(f"/games/{cancelled['id']}/players/me",
                                 headers=auth(tokens["rsy"]))
            assert left.is_success, left.text
            cancelled = get_game(client, tokens["rsx"], cancelled["id"])
            assert cancelled["status"] == "cancelled"
            started_messages = messages(client, tokens["rsx"], started["id"])
            cancelled_messages = messages(client, tokens["rsx"], cancelled["id"])

        # Before step 7 (5x5 2 players: progress_weight 60, wall_weight 40, 5 walls,
        # wall cost 8; trade balances North +8, South -8):
        #   North: (60 * 0.5 + 40 * 0.8) / 100 + 8 = 0.62 + 8 = 8.62 -> 9
        #   South: (60 * 1 + 40 * 0.6) / 100 - 8 = 0.84 - 8 = -7.16 -> -7; max(-7, 9 + 1) = 10
        as_before_step_7(url, two["id"], {"rsa": 9, "rsb": 10},
                         "rsb won the game. Scores: rsb 10, rsa 9")
        # (5x5 4 players: progress_weight 50, wall_weight 50, 2 walls, wall cost 25;
        # East +25, North -25):
        #   North: (50 * 0.25 + 50 * 1) / 100 - 25 = 0.625 - 25 = -24.375 -> -24
        #   East:  0.625 + 25 = 25.625 -> 26
        #   West:  (50 * 0.25 + 50 * 0) / 100 = 0.125 -> 0
        #   South: (50 + 50) / 100 = 1; max(1, 26 + 1) = 27
        as_before_step_7(url, four["id"], {"rsn": -24, "rse": 26, "rss": 27, "rsw": 0},
                         "rss won the game. Scores: rss 27, rse 26, rsw 0, rsn -24")
        # (no trades: North (60 * 0.5 + 40 * 0.8) / 100 = 0.62 -> 1, South 0.84 -> 1;
        # max(1, 1 + 1) = 2)
        as_before_step_7(url, tampered["id"], {"rst": 1, "rsu": 2},
                         "rsu won the game. Scores: rsu 2, rst 1")
        # North's pawn put back on its start row by hand: scored from this stored state,
        # North's progress would be 0
        edited = tamper_with_state(url, tampered["id"], "north", "a5")
        edited_scores = final_scores(edited, {Seat.NORTH: 0, Seat.SOUTH: 0})
        assert edited_scores[Seat.NORTH] == 32  # 60 * 0 + 40 * 0.8, not 62
        in_store(url, lambda: SchemaVersion.delete().where(
            SchemaVersion.version >= RESCORE_STEP).execute())

        with serving(tmp_path / "after", url) as client:
            # North: 60 * 0.5 + 40 * 0.8 + 8 = 30 + 32 + 8 = 70
            # South: 60 * 1 + 40 * 0.6 - 8 = 60 + 24 - 8 = 76
            rescored = get_game(client, tokens["rsa"], two["id"])
            assert rescored["scores"] == {"rsa": 70, "rsb": 76}
            assert rescored["revision"] == two["revision"] + 1
            assert messages(client, tokens["rsa"], two["id"])[-1] == (
                "rsb won the game. Scores: rsb 76, rsa 70"
            )
            # North: 50 * 0.25 + 50 * 1 - 25 = 12.5 + 50 - 25 = 37.5 -> 38
            # East:  12.5 + 50 + 25 = 87.5 -> 88
            # West:  12.5 + 0 = 12.5 -> 13 (halves round up)
            # South: 50 + 50 = 100
            # West and North change places in the message: scores now follow the play.
            rescored = get_game(client, tokens["rsw"], four["id"])
            assert rescored["scores"] == {"rsn": 38, "rse": 88, "rss": 100, "rsw": 13}
            assert messages(client, tokens["rsw"], four["id"])[-1] == (
                "rss won the game. Scores: rss 100, rse 88, rsn 38, rsw 13"
            )
            # the same as replaying the stored actions through the engine
            assert replayed_scores(client, tokens, two) == {"rsa": 70, "rsb": 76}
            assert replayed_scores(client, tokens, four) == rescored["scores"]
            # the tampered game: scored from its 11 actions replayed, as it was played
            # (North: 60 * 0.5 + 40 * 0.8 = 62; South: 60 * 1 + 40 * 0.6 = 84)
            rescored = get_game(client, tokens["rst"], tampered["id"])
            assert rescored["scores"] == {"rst": 62, "rsu": 84}
            assert replayed_scores(client, tokens, tampered) == rescored["scores"]
            assert messages(client, tokens["rst"], tampered["id"])[-1] == (
                "rsu won the game. Scores: rsu 84, rst 62"
            )
            # ... with a warning naming it and what differs; none for the other games
            warned = warnings_in((tmp_path / "after" / "server.log").read_text())
            assert [line for line in warned if f"game {tampered['id']}:" in line and
                    "stored state is not what its 11 actions give (pawns)" in line], warned
            for game in (two, four, started, cancelled):
                assert not [line for line in warned if f"game {game['id']}:" in line], warned
            assert leaderboard(client, 2) == [("rsu", 84), ("rsb", 76), ("rsa", 70),
                                              ("rst", 62)]
            assert leaderboard(client, 4) == [("rss", 100), ("rse", 88), ("rsn", 38),
                                              ("rsw", 13)]
            best = client.get("/users/rsn/highscores").json()["highscores"]
            assert [(h["players"], h["score"]) for h in best] == [(4, 38)]
            # untouched
            for game, token in ((started, "rsx"), (cancelled, "rsx")):
                now = get_game(client, tokens[token], game["id"])
                assert (now["status"], now["revision"]) == (game["status"], game["revision"])
                assert not now.get("scores")
            assert messages(client, tokens["rsx"], started["id"]) == started_messages
            assert messages(client, tokens["rsx"], cancelled["id"]) == cancelled_messages


def test_step_25_rescores_a_score_below_0_from_a_path_longer_than_the_board(
    tmp_path: Path,
) -> None:
    with fresh_database(tmp_path) as url:
        with serving(tmp_path / "before", url) as client:
            tokens = {name: insert_user(url, name) for name in ("rla", "rlb", "rlc", "rld")}
            long = seeded_game(client, url, tokens, ["rla", "rlb"], 5)  # rla North
            long = run_script(client, tokens, long, LONG_PATH_SCRIPT)
            # North ends 7 squares from its goal on a board of 5: no progress, not less.
            # 60 * 0 + 40 * 0.8 = 32 (it was 60 * (1 - 7/4) + 32 = -13); South 60 + 32 = 92
            assert long["scores"] == {"rla": 32, "rlb": 92}
            assert get_game(client, tokens["rla"], long["id"])["scores"] == long["scores"]
            assert messages(client, tokens["rla"], long["id"])[-1] == (
                "rlb won the game. Scores: rlb 92, rla 32"
            )
            plain = seeded_game(client, url, tokens, ["rlc", "rld"], 5)
            plain = run_script(client, tokens, plain, TWO_PLAYER_SCRIPT)
            assert plain["scores"] == {"rlc": 62, "rld": 84}

        ids = in_store(url, lambda: {
            name: User.get(User.username == name).id for name in ("rla", "rlb")
        })
        # what the server stored before step 25 (names by id since step 8)
        as_before_step_7(url, long["id"], {"rla": -13, "rlb": 92},
                         f"{{user:{ids['rlb']}}} won the game. Scores: "
                         f"{{user:{ids['rlb']}}} 92, {{user:{ids['rla']}}} -13")
        in_store(url, lambda: SchemaVersion.delete().where(
            SchemaVersion.version >= CLAMP_STEP).execute())

        with serving(tmp_path / "after", url) as client:
            rescored = get_game(client, tokens["rla"], long["id"])
            assert rescored["scores"] == {"rla": 32, "rlb": 92}
            assert rescored["revision"] == long["revision"] + 1
            assert messages(client, tokens["rla"], long["id"])[-1] == (
                "rlb won the game. Scores: rlb 92, rla 32"
            )
            assert replayed_scores(client, tokens, long) == rescored["scores"]
            assert ("rla", 32) in leaderboard(client, 2)
            # a game whose scores did not change is not written
            untouched = get_game(client, tokens["rlc"], plain["id"])
            assert (untouched["scores"], untouched["revision"]) == (
                plain["scores"], plain["revision"]
            )
            log_text = (tmp_path / "after" / "server.log").read_text()
            assert "rescored 1 finished games: progress no longer goes below 0" in log_text
            assert warnings_in(log_text) == []


# The winner's message, read back: names are matched to players by the order of the old
# scores (highest first, equal ones in join order), whatever the names say.

def test_the_message_gets_the_new_scores_in_the_new_order_under_the_names_it_had() -> None:
    # join order: ann (renamed since: the message keeps "ann"), bob, cy, dee
    players = [Scored(1, 1, 63), Scored(2, 1, 63), Scored(3, 2, 100), Scored(4, 0, 64)]
    text = "cy won the game. Scores: cy 2, ann 1, bob 1, dee 0"
    assert rewrite_finish_text(text, players) == (
        "cy won the game. Scores: cy 100, dee 64, ann 63, bob 63"
    )


def test_a_message_that_does_not_list_the_old_scores_is_left_alone() -> None:
    players = [Scored(1, 9, 70), Scored(2, 10, 76)]
    assert rewrite_finish_text("bob won the game. Scores: bob 10, ann 8", players) is None
    assert rewrite_finish_text("bob won the game. Scores: bob 10", players) is None
    assert rewrite_finish_text("bob won the game", players) is None
    # a name that is no username any more ("a former player") is kept as written
    assert rewrite_finish_text("bob won the game. Scores: bob 10, a former player 9",
                               players) == (
        "bob won the game. Scores: bob 76, a former player 70"
    )
