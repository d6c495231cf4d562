"""An imported game's players (issue 48 item 1): the record's names, shown by every view
of the real server (the game, its history, the game list, the game page and the lobby),
and never linked to the user who happens to have the same name, nor to the importer.

The record: South "alice" (a user of this server too), North "Bob Smith" (no user),
South wins on c5; North ends on b3. `cq` shows the same views: tests/client/
test_cli_imported_players.py.
"""

from __future__ import annotations

import re

import httpx
import pytest

from tests.support.server import RunningServer
from tests.support.users import auth, insert_user

NAMES = ("alice", "imp_importer", "imp_watcher")
RECORD = (
    '[Size "5"]\n[South "alice"]\n[North "Bob Smith"]\n[Result "south"]\n\n'
    "1. c2 b5 2. c3 b4 3. c4 b3 4. c5\n"
)
SEATS = {"south": "alice", "north": "Bob Smith"}


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in NAMES}


@pytest.fixture(scope="module")
def imported(client: httpx.Client, tokens: dict[str, str]) -> int:
    answer = client.post(
        "/games/imported", json={"record": RECORD}, headers=auth(tokens["imp_importer"])
    )
    assert answer.status_code == 201, answer.text
    [game_id] = answer.json()["games"]
    return int(game_id)


def test_the_game_view_names_the_records_players_and_its_winner(
    client: httpx.Client, tokens: dict[str, str], imported: int
) -> None:
    for viewer in ("imp_watcher", "alice", "imp_importer"):
        view = client.get(f"/games/{imported}", headers=auth(tokens[viewer])).json()
        assert view["imported"] is True
        assert {s["seat"]: s["username"] for s in view["seats"]} == SEATS
        assert view["winner"] == "alice"
        assert view["admin"] == "imp_importer"  # who imported it
        # names, not accounts: nobody's scores, no viewer's own fields for alice
        assert view["scores"] == {}
        assert view["trade_balance"] is None and view["invitation_code"] is None
        assert view["bots"] == {} and view["guests"] == []
    earlier = client.get(
        f"/games/{imported}", params={"at": 2}, headers=auth(tokens["imp_watcher"])
    ).json()
    assert {s["seat"]: s["username"] for s in earlier["seats"]} == SEATS


def test_every_history_line_names_the_player_of_its_seat_not_the_importer(
    client: httpx.Client, tokens: dict[str, str], imported: int
) -> None:
    actions = client.get(f"/games/{imported}/actions", headers=auth(tokens["imp_watcher"]))
    assert actions.status_code == 200, actions.text
    lines = [(a["seat"], a["username"]) for a in actions.json()["actions"]]
    assert lines == [("south", "alice"), ("north", "Bob Smith")] * 3 + [("south", "alice")]
    view = client.get(f"/games/{imported}", headers=auth(tokens["imp_watcher"])).json()
    assert [(a["seat"], a["username"]) for a in view["last_actions"]] == lines[-5:]


def test_the_game_list_shows_the_names_and_the_winner_but_credits_no_user(
    client: httpx.Client, tokens: dict[str, str], imported: int
) -> None:
    listed = client.get(
        "/games", params={"status": "finished"}, headers=auth(tokens["imp_watcher"])
    ).json()["games"]
    [row] = [game for game in listed if game["id"] == imported]
    assert row["imported"] is True
    assert row["usernames"] == ["Bob Smith", "alice"]  # North first, clockwise
    assert row["winner"] == "alice"
    # the user alice did not play it, nor win it; the importer did not play it either
    for user, relation in (("alice", "player"), ("alice", "won"), ("imp_importer", "player")):
        found = client.get(
            "/games", params={"user": user, "relation": relation},
            headers=auth(tokens["imp_watcher"]),
        ).json()["games"]
        assert imported not in [game["id"] for game in found], (user, relation)
    best = client.get("/users/alice/highscores").json()["highscores"]
    assert best == []


def page(server: RunningServer, path: str, token: str | None = None) -> str:
    cookies = {"cq_session": token} if token else None
    answer = httpx.get(f"{server.base_url}{path}", cookies=cookies, timeout=10.0)
    assert answer.status_code == 200, answer.text[:500]
    return answer.text


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_game_page_shows_the_winner_and_links_no_account(
    server: RunningServer, tokens: dict[str, str], imported: int
) -> None:
    for token in (None, tokens["alice"]):
        html = page(server, f"/games/{imported}", token)
        shown = text_of(html)
        assert "won by alice" in shown
        assert "Bob Smith" in shown
        # (a logged-in alice's own name heads the page: her account, not the record's)
        body = re.sub(r'<form method="post" action="/logout".*?</form>', "", html, flags=re.S)
        assert 'href="/users/alice"' not in body
        # alice of this server is not the record's alice: no rematch for her
        assert 'id="rematch-button"' not in html
    # a replay step names them too
    assert "Bob Smith" in text_of(page(server, f"/games/{imported}?at=3"))


def test_the_lobby_lists_the_names_as_plain_text(
    server: RunningServer, tokens: dict[str, str], imported: int
) -> None:
    html = page(server, "/", tokens["imp_watcher"])
    [entry] = re.findall(rf'<li><a href="/games/{imported}">.*?</li>', html, re.S)
    assert "Bob Smith" in entry and "won by" in text_of(entry)
    assert "won by alice" in text_of(entry)
    assert "/users/" not in entry
