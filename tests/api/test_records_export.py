"""GET /api/v1/games/{id}/record against the real server (issue 31 item 2): the record
of a finished game replays to the game's final position; during play the record shows
each viewer what it may see and nothing more (visibility), a private game only to its
players."""

from __future__ import annotations

import httpx
import pytest

from corridorquest.records import parse_records, record_from_json, replay
from tests.api.mode_helpers import Match, act, pick_wall, play_out, start
from tests.support.games import new_game
from tests.support.server import RunningServer
from tests.support.users import auth, insert_user

NAMES = ("rcann", "rcbob", "rcwatch", "rccarl", "rcdora")


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in NAMES}


def pair(tokens: dict[str, str]) -> dict[str, str]:
    return {"rcann": tokens["rcann"], "rcbob": tokens["rcbob"]}


def record_text(client: httpx.Client, token: str, game_id: int) -> str:
    response = client.get(f"/games/{game_id}/record", headers=auth(token))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return response.text


def seat_of(match: Match, name: str) -> str:
    return next(seat for seat, user in match.names.items() if user == name)


def opponents_wall(client: httpx.Client, match: Match, viewer_seat: str) -> str:
    """Let the seat that is not `viewer_seat` place a wall (playing a step first if
    needed); return the wall's notation."""
    while match.mirror.turn is not None and match.mirror.turn.value == viewer_seat:
        step = match.mirror.legal_steps()[0]
        act(client, match, "jump" if step.jump else "move", str(step.to))
    wall = pick_wall(match.mirror, frozenset())
    assert wall is not None
    act(client, match, "wall", wall)
    return wall


@pytest.mark.parametrize(
    "mode", [{}, {"masked": True}, {"invisible": True}, {"masked": True, "invisible": True}]
)
def test_a_finished_game_replays_to_its_final_position(
    client: httpx.Client, tokens: dict[str, str], mode: dict[str, bool]
) -> None:
    match = start(client, pair(tokens), size=5, **mode)
    final = play_out(client, match, walls_each=1)
    assert final["status"] == "finished"
    for viewer in ("rcann", "rcwatch"):  # a player and a spectator see it all at the end
        text = record_text(client, tokens[viewer], match.id)
        [record] = parse_records(text)
        assert replay(record)[-1].to_dict() == match.mirror.to_dict()
        assert f'[{seat_of(match, "rcann").title()} "rcann"]' in text
        assert match.mirror.winner is not None
        assert f'[Result "{match.mirror.winner.value}"]' in text
        assert "[Scores " in text and '[Status "finished"]' in text
    as_json = client.get(
        f"/games/{match.id}/record", params={"format": "json"}, headers=auth(tokens["rcbob"])
    )
    assert as_json.status_code == 200
    assert replay(record_from_json(as_json.json()))[-1].to_dict() == match.mirror.to_dict()


def test_an_invisible_wall_is_never_in_the_record_of_a_game_in_play(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    match = start(client, pair(tokens), size=7, invisible=True)
    ann = seat_of(match, "rcann")
    wall = opponents_wall(client, match, ann)  # rcbob's wall
    for viewer in ("rcann", "rcwatch"):
        text = record_text(client, tokens[viewer], match.id)
        movetext = text.split("\n\n", 1)[1]
        assert "?" in movetext.split()
        # the wall is in no orientation of the record: no wall shows at all
        assert not any(word.endswith(("h", "v")) for word in movetext.split()), text
        assert wall not in text
        body = client.get(
            f"/games/{match.id}/record", params={"format": "json"}, headers=auth(tokens[viewer])
        ).json()
        assert None in body["actions"]
        with pytest.raises(ValueError, match="hidden"):
            replay(record_from_json(body))
    owner_text = record_text(client, tokens["rcbob"], match.id)
    assert "?" not in owner_text.split("\n\n", 1)[1].split()
    assert replay(parse_records(owner_text)[0])[-1].walls == match.mirror.walls


def test_a_masked_game_in_play_names_no_owner_no_wall_nor_scores(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    """SPEC §4: during play a masked game's history says "a wall was placed" without its
    square; a record in play order with the squares would tell whose each wall is (the
    turn order), so every wall is `?`, to its owner too (the history hides it alike)."""
    match = start(client, pair(tokens), size=7, masked=True)
    walls = [opponents_wall(client, match, seat_of(match, "rcann"))]
    walls.append(opponents_wall(client, match, seat_of(match, "rcbob")))
    for viewer in ("rcann", "rcbob", "rcwatch"):
        text = record_text(client, tokens[viewer], match.id)
        assert "[Scores" not in text and '[Result "*"]' in text
        movetext = text.split("\n\n", 1)[1].split()
        assert movetext.count("?") == 2, text
        assert not any(word.endswith(("h", "v")) for word in movetext), text
        body = client.get(
            f"/games/{match.id}/record", params={"format": "json"}, headers=auth(tokens[viewer])
        ).json()
        assert "owner" not in str(body) and "walls_left" not in str(body)
        assert body["actions"].count(None) == 2
        assert not any(wall in str(body) for wall in walls), body
        with pytest.raises(ValueError, match="hidden"):
            replay(record_from_json(body))


def test_a_private_game_only_to_its_players(client: httpx.Client, tokens: dict[str, str]) -> None:
    match = start(client, pair(tokens), size=5, private=True)
    assert record_text(client, tokens["rcbob"], match.id).startswith("[Game ")
    refused = client.get(f"/games/{match.id}/record", headers=auth(tokens["rcwatch"]))
    assert refused.status_code == 404
    assert refused.json()["reason"] == "game_not_found"


def test_a_four_player_game_in_play(client: httpx.Client, tokens: dict[str, str]) -> None:
    four = {name: tokens[name] for name in ("rcann", "rcbob", "rccarl", "rcdora")}
    match = start(client, four, size=9, players=4)
    for _ in range(6):
        step = match.mirror.legal_steps()[0]
        act(client, match, "jump" if step.jump else "move", str(step.to))
    [record] = parse_records(record_text(client, tokens["rcwatch"], match.id))
    assert record.players == 4 and record.first == match.mirror.first
    assert replay(record)[-1].to_dict() == match.mirror.to_dict()


def test_a_waiting_game_has_no_record_yet(client: httpx.Client, tokens: dict[str, str]) -> None:
    game = new_game(client, tokens["rcann"], size=5, players=2)
    refused = client.get(f"/games/{game['id']}/record", headers=auth(tokens["rcann"]))
    assert refused.status_code == 409
    assert refused.json()["reason"] == "game_not_started"
    bad = client.get(
        f"/games/{game['id']}/record", params={"format": "pgn"}, headers=auth(tokens["rcann"])
    )
    assert bad.status_code == 400 and bad.json()["reason"]
