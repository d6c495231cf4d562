"""The leak test (SPEC §4): games in every wall mode, for 2 and 4 players, played through
the API; after EVERY action each kind of user (each player, a non-player, an anonymous
caller) fetches everything it can fetch, and nobody receives what the mode hides from it:
opponents' invisible walls (not even their notation anywhere in the raw answer), wall
owners and counts when masked, others' markers, DMs between others, private games.
In a masked game the history says only "a wall was placed" (no square anywhere in the
raw history: with the turn order a square would tell whose wall it is), the board lists
its walls in its own order, not the order they were placed, and no earlier position is
shown (409). Once the game is finished everything is revealed.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from corridorquest.engine import GameState, Seat
from tests.api.mode_helpers import Match, play_out, start
from tests.support.server import RunningServer
from tests.support.users import auth, insert_user

PLAYERS = ("lkann", "lkbob", "lkcid", "lkdee")
WATCHER = "lkwatch"
HAS_MESSAGES = (Path(__file__).resolve().parents[2] / "corridorquest/api/messages.py").exists()
MODES = {
    "masked": {"masked": True},
    "invisible": {"invisible": True},
    "both-private": {"masked": True, "invisible": True, "private": True},
}
MARKERS = {"north": "a1v", "east": "a2v", "south": "b1h", "west": "b2h"}


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in (*PLAYERS, WATCHER)}


def fetch_all(client: httpx.Client, token: str | None, match: Match) -> dict[str, httpx.Response]:
    """Everything a caller can ask about the game (and the game list)."""
    headers = auth(token) if token else {}
    game = f"/games/{match.id}"
    paths = {
        "view": game,
        "history": f"{game}/actions",
        "list": "/games?limit=500",
        "markers": f"{game}/markers",
        "legal": f"{game}/legal-actions",
        "position": f"{game}?at={match.mirror.ply}",
        "earlier": f"{game}?at={max(0, match.mirror.ply - 1)}",
        "earlier_svg": f"{game}/board.svg?at={max(0, match.mirror.ply - 1)}",
    }
    if HAS_MESSAGES:
        paths["messages"] = f"{game}/messages"
    return {name: client.get(path, headers=headers) for name, path in paths.items()}


def hidden_walls(match: Match, seat: str | None) -> list[str]:
    """The walls this viewer may not know of while the game is played (invisible mode)."""
    if not match.game["invisible"]:
        return []
    return [str(wall) for wall, owner in match.mirror.walls if owner.value != seat]


def known_legal(match: Match, seat: str) -> dict[str, list[str]]:
    """The viewer's legal actions computed by the test from the pawns and its own walls."""
    data = match.mirror.to_dict()
    if match.game["invisible"]:
        data["walls"] = [w for w in data["walls"] if w[1] == seat]
    known = GameState.from_dict(data)
    known.turn = Seat(seat)
    steps = known.legal_steps(Seat(seat))
    return {
        "moves": sorted(str(s.to) for s in steps if not s.jump),
        "jumps": sorted(str(s.to) for s in steps if s.jump),
        "walls": sorted(str(w.wall) for w in known.legal_walls(Seat(seat))),
    }


def raw_without_codes(response: httpx.Response) -> str:
    """The body, minus invitation codes (random text could look like a wall)."""
    text = response.text
    for code in re.findall(r'"invitation_code":\s*"([^"]+)"', text):
        text = text.replace(code, "")
    return text


def check_during_play(
    match: Match, seat: str | None, answers: dict[str, httpx.Response], secrets: list[str]
) -> None:
    game = match.game
    if seat is None and game["private"]:
        for name, response in answers.items():
            if name == "list":
                assert match.id not in [g["id"] for g in response.json()["games"]]
            else:
                assert response.status_code == 404, (name, response.text)
        return
    earlier = match.mirror.ply > 0 and game["masked"]
    for name, response in answers.items():
        if name == "legal" and seat is None:
            assert response.status_code == 403
            continue
        if name.startswith("earlier") and earlier:
            assert response.status_code == 409, (name, response.text)
            assert response.json()["reason"] == "position_hidden_during_play"
            continue
        assert response.status_code == 200, (name, response.text)
        body = raw_without_codes(response)
        for secret in secrets:
            assert secret not in body, (name, secret)
        if name == "legal":
            continue  # lists walls the player could place: checked below instead
        for wall in hidden_walls(match, seat):
            assert not re.search(rf"\b{wall}\b", body), (seat, name, wall, body)
    for name in ("view", "position"):
        view = answers[name].json()
        own = [w for w in view["walls"] if w["owner"] is not None]
        if game["masked"]:
            assert own == [] and all(s["walls_left"] is None for s in view["seats"])
            shown = [w["wall"] for w in view["walls"]]
            assert shown == sorted(shown), (name, shown)  # not in the order placed
        if game["invisible"]:
            assert all(s["distance"] is None for s in view["seats"])
            expected = sorted(str(w) for w, o in match.mirror.walls if o.value == seat)
            assert sorted(w["wall"] for w in view["walls"]) == expected
    history = answers["history"].json()["actions"] + answers["view"].json()["last_actions"]
    if game["masked"]:  # "a wall was placed": not one square in the raw history
        placed = [str(wall) for wall, _ in match.mirror.walls]
        for name in ("history", "messages"):
            if name in answers:
                for wall in placed:
                    assert not re.search(rf"\b{wall}\b", answers[name].text), (name, wall)
    for entry in history:
        if entry["type"] == "wall" and game["masked"]:
            assert entry["seat"] is None and entry["username"] is None
            assert entry["notation"] is None, entry
        if entry["type"] == "wall" and game["invisible"] and entry["notation"] is not None:
            assert entry["notation"] in match.walls_by_seat.get(seat or "", [])
    markers = answers["markers"].json()["markers"] + answers["view"].json()["markers"]
    assert all(m["owner"] == seat for m in markers)
    if seat is not None:
        assert {k: v for k, v in answers["legal"].json().items() if k in (
            "moves", "jumps", "walls")} == known_legal(match, seat)
    if "messages" in answers and game["masked"]:
        for message in answers["messages"].json()["messages"]:
            assert not re.search(r"placed (a )?wall", message["text"]), message


def check_revealed(match: Match, answers: dict[str, httpx.Response]) -> None:
    view = answers["view"].json()
    assert sorted((w["wall"], w["owner"]) for w in view["walls"]) == sorted(
        (str(w), o.value) for w, o in match.mirror.walls
    )
    assert all(s["walls_left"] is not None for s in view["seats"])
    history = answers["history"].json()["actions"]
    assert all(a["seat"] and a["username"] and a["notation"] for a in history)
    if match.game["invisible"]:
        owners = {m["owner"] for m in answers["markers"].json()["markers"]}
        assert owners == set(match.by_seat)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("mode", list(MODES))
def test_nobody_receives_what_the_mode_hides(
    client: httpx.Client, tokens: dict[str, str], mode: str, players: int
) -> None:
    names = PLAYERS[:players]
    match = start(client, {n: tokens[n] for n in names}, size=5, **MODES[mode])
    secrets: dict[str, list[str]] = {seat: [] for seat in match.by_seat}
    secrets["watcher"] = []
    if match.game["invisible"]:
        for seat, token in match.by_seat.items():
            response = client.post(
                f"/games/{match.id}/markers", json={"marker": MARKERS[seat]}, headers=auth(token)
            )
            assert response.status_code == 201, response.text
    if HAS_MESSAGES and players == 4:
        seats = list(match.by_seat)
        sender, receiver = seats[0], seats[1]
        secret = f"secret-{mode}-{sender}-note"
        response = client.post(
            f"/games/{match.id}/messages",
            json={"text": secret, "to": match.names[receiver]},
            headers=auth(match.by_seat[sender]),
        )
        assert response.status_code == 201, response.text
        for seat in seats[2:]:
            secrets[seat].append(secret)
        secrets["watcher"].append(secret)

    def check_everyone(m: Match) -> None:
        if m.mirror.is_finished:
            return
        for seat, token in m.by_seat.items():
            check_during_play(m, seat, fetch_all(client, token, m), secrets[seat])
        check_during_play(m, None, fetch_all(client, tokens[WATCHER], m), secrets["watcher"])
        for name, response in fetch_all(client, None, m).items():
            if name == "earlier_svg":  # a public game's picture is anyone's (docs/api.md)
                hidden = m.game["masked"] and m.mirror.ply > 0
                expected = 404 if m.game["private"] else 409 if hidden else 200
                assert response.status_code == expected, (name, response.text)
                continue
            assert response.status_code == 401, (name, response.text)

    check_everyone(match)
    play_out(
        client, match, walls_each=1, after_each=check_everyone,
        avoid=frozenset(MARKERS.values()),
    )
    assert match.game["status"] == "finished"
    viewer = next(iter(match.by_seat.values())) if match.game["private"] else tokens[WATCHER]
    check_revealed(match, fetch_all(client, viewer, match))
