"""The board as SVG: `board_svg` on hand-made views (geometry, turn frame, last action,
markers, escaping), and `GET /games/{id}/board.svg` against the real server (what each
viewer may see, `?at=`, private games)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from corridorquest.drawing.board_svg import (
    CELL,
    GROOVE,
    IDLE_FRAME,
    NEUTRAL,
    SEAT_COLOURS,
    board_svg,
)
from tests.api.mode_helpers import Match, act, play_out, start
from tests.support.games import get_game, new_game, started_game
from tests.support.server import RunningServer, running_server
from tests.support.users import auth, insert_user

SVG = "{http://www.w3.org/2000/svg}"
Json = dict[str, Any]


def view(**fields: Any) -> Json:
    """A started 9x9 game's view, as `GET /games/{id}` answers it, with `fields` changed."""
    base: Json = {
        "id": 4,
        "status": "started",
        "size": 9,
        "players": 2,
        "masked": False,
        "invisible": False,
        "seats": [
            {"seat": "north", "username": "alice", "walls_left": 9, "distance": 7},
            {"seat": "south", "username": "bob", "walls_left": 10, "distance": 7},
        ],
        "turn": "south",
        "turn_username": "bob",
        "winner": None,
        "pawns": {"north": "e8", "south": "e2"},
        "walls": [{"wall": "c3h", "owner": "north"}],
        "markers": [],
        "last_actions": [
            {"n": 11, "seat": "south", "username": "bob", "type": "move", "notation": "e2"},
            {"n": 12, "seat": "north", "username": "alice", "type": "wall",
             "notation": "c3h"},
        ],
    }
    base.update(fields)
    return base


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def groups(root: ET.Element, attribute: str) -> dict[str, ET.Element]:
    """The <g> elements that have `attribute`, by its value."""
    return {g.get(attribute, ""): g for g in root.iter(SVG + "g") if g.get(attribute)}


def pawn_squares(root: ET.Element) -> dict[str, str]:
    return {seat: g.get("data-square", "") for seat, g in groups(root, "data-seat").items()}


def rect_of(group: ET.Element) -> ET.Element:
    found = group.find(SVG + "rect")
    assert found is not None
    return found


def box(rect: ET.Element) -> tuple[float, float, float, float]:
    return tuple(float(rect.get(k, "0")) for k in ("x", "y", "width", "height"))  # type: ignore[return-value]


def square_box(root: ET.Element, square: str) -> tuple[float, float]:
    """The top-left corner of a square, found from the coordinates drawn on the board."""
    texts = [(t.text, float(t.get("x", 0)), float(t.get("y", 0))) for t in root.iter(SVG + "text")]
    x = next(x for text, x, _ in texts if text == square[0]) - CELL / 2
    y = next(y for text, _, y in texts if text == square[1:]) - CELL / 2
    return x, y


def frame(root: ET.Element) -> ET.Element:
    return next(r for r in root.iter(SVG + "rect") if r.get("class") == "frame")


# -- board_svg on hand-made views --------------------------------------------------------------


def test_the_picture_is_an_svg_document_that_scales_and_describes_itself() -> None:
    root = parse(board_svg(view()))
    assert root.tag == SVG + "svg"
    assert root.get("viewBox", "").startswith("0 0 ")
    assert root.get("role") == "img"
    label = "Game 4 (9x9), after 12 actions: South (bob) to move"
    assert root.get("aria-label") == label
    title = root.find(SVG + "title")
    assert title is not None and title.text == label
    desc = root.find(SVG + "desc")
    assert desc is not None and "North (alice) on e8" in (desc.text or "")
    assert "Last action: North (alice) placed a wall at c3h." in (desc.text or "")
    assert [t.text for t in root.iter(SVG + "text") if t.get("class") == "caption"] == [label]
    uncaptioned = parse(board_svg(view(), caption=False))
    assert not [t for t in uncaptioned.iter(SVG + "text") if t.get("class") == "caption"]
    assert float(uncaptioned.get("height", 0)) < float(root.get("height", 0))


def test_north_is_at_the_top_and_pawns_point_to_their_goal_with_their_initial() -> None:
    four = view(
        players=4,
        pawns={"north": "e9", "east": "i5", "south": "e1", "west": "a5"},
        walls=[],
        last_actions=[],
    )
    root = parse(board_svg(four))
    assert pawn_squares(root) == {"north": "e9", "east": "i5", "south": "e1", "west": "a5"}
    a1, i9 = square_box(root, "a1"), square_box(root, "i9")
    assert i9[0] > a1[0] and i9[1] < a1[1]  # files west to east, ranks south to north
    for seat, group in groups(root, "data-seat").items():
        polygon = group.find(SVG + "polygon")
        letter = group.find(SVG + "text")
        assert polygon is not None and letter is not None
        assert letter.text == seat[0].upper()
        assert polygon.get("fill") == SEAT_COLOURS[seat]
        points = [tuple(map(float, p.split(","))) for p in polygon.get("points", "").split()]
        x, y = square_box(root, group.get("data-square", ""))
        assert all(x <= px <= x + CELL and y <= py <= y + CELL for px, py in points)
        apex = next(p for p in points if sum(1 for q in points if q[0] == p[0]) == 1
                    and sum(1 for q in points if q[1] == p[1]) == 1)
        centre = (x + CELL / 2, y + CELL / 2)
        pointing = {"north": apex[1] > centre[1], "south": apex[1] < centre[1],
                    "east": apex[0] < centre[0], "west": apex[0] > centre[0]}
        assert pointing[seat], (seat, points)


def test_walls_lie_on_their_grooves_in_their_owners_colour_with_the_owners_initial() -> None:
    walls = [{"wall": "c3h", "owner": "north"}, {"wall": "e5v", "owner": "south"}]
    root = parse(board_svg(view(walls=walls, last_actions=[])))
    found = groups(root, "data-wall")
    assert set(found) == {"c3h", "e5v"}
    c3x, c3y = square_box(root, "c3")
    x, y, width, height = box(rect_of(found["c3h"]))
    # north of c3 and d3: from c3's west side, across two squares and the groove between
    assert (x, y + height, width, height) == (c3x, c3y, 2 * CELL + GROOVE, GROOVE)
    e6x, e6y = square_box(root, "e6")
    x, y, width, height = box(rect_of(found["e5v"]))
    # east of e5 and e6: from e6's top side down across two squares
    assert (x, y, width, height) == (e6x + CELL, e6y, GROOVE, 2 * CELL + GROOVE)
    for notation, owner in (("c3h", "north"), ("e5v", "south")):
        group = found[notation]
        assert group.get("data-owner") == owner
        assert rect_of(group).get("fill") == SEAT_COLOURS[owner]
        assert [t.text for t in group.iter(SVG + "text")] == [owner[0].upper()]


def test_walls_of_hidden_owners_are_neutral_and_carry_no_owner() -> None:
    root = parse(board_svg(view(masked=True, walls=[{"wall": "c3h", "owner": None}])))
    wall = groups(root, "data-wall")["c3h"]
    assert wall.get("data-owner") is None
    assert rect_of(wall).get("fill") == NEUTRAL
    assert list(wall.iter(SVG + "text")) == []


def test_the_frame_takes_the_colour_of_the_seat_to_move() -> None:
    for seat in ("north", "east", "south", "west"):
        root = parse(board_svg(view(turn=seat)))
        assert frame(root).get("stroke") == SEAT_COLOURS[seat]
        assert root.get("data-turn") == seat
    finished = view(status="finished", turn=None, turn_username=None, winner="alice")
    root = parse(board_svg(finished))
    assert frame(root).get("stroke") == IDLE_FRAME
    assert root.get("aria-label") == "Game 4 (9x9), after 12 actions: alice won"
    waiting = view(status="waiting", turn=None, seats=[], pawns={}, walls=[], last_actions=[])
    root = parse(board_svg(waiting))
    assert frame(root).get("stroke") == IDLE_FRAME and pawn_squares(root) == {}
    assert root.get("aria-label") == "Game 4 (9x9), waiting for players"


def test_the_last_move_outlines_its_square_and_the_last_wall_is_outlined() -> None:
    moved = view(last_actions=[
        {"n": 13, "seat": "south", "username": "bob", "type": "jump", "notation": "e4"}
    ], pawns={"north": "e8", "south": "e4"})
    root = parse(board_svg(moved))
    lasts = [e for e in root.iter() if e.get("data-last")]
    assert [e.get("data-last") for e in lasts] == ["e4"]
    pawn = groups(root, "data-seat")["south"]
    assert pawn.find(SVG + "rect") is lasts[0]  # drawn with the pawn, under its triangle

    walled = parse(board_svg(view()))  # the last action is north's wall c3h
    wall = groups(walled, "data-wall")["c3h"]
    assert wall.get("data-last") == "c3h" and "last" in wall.get("class", "")
    assert rect_of(wall).get("stroke") and float(rect_of(wall).get("stroke-width", 0)) > 0
    assert not [e for e in walled.iter(SVG + "rect") if e.get("data-last") == "e2"]

    unknown = view(last_actions=[
        {"n": 12, "seat": "north", "username": "alice", "type": "wall", "notation": None}
    ])
    root = parse(board_svg(unknown))
    assert not [e for e in root.iter() if e.get("data-last")]
    assert "Last action: North (alice) placed a wall." in (root.findtext(SVG + "desc") or "")


def test_markers_are_dashed_outlines_of_one_edge() -> None:
    markers = [{"marker": "e4v", "owner": "south"}, {"marker": "b7h", "owner": "south"}]
    root = parse(board_svg(view(invisible=True, walls=[], markers=markers)))
    found = groups(root, "data-marker")
    assert set(found) == {"e4v", "b7h"}
    for group in found.values():
        outline = next(r for r in group.iter(SVG + "rect") if r.get("stroke-dasharray"))
        assert group.get("data-owner") == "south"
        assert outline.get("stroke-dasharray") and outline.get("fill") == "none"
        assert outline.get("stroke") == SEAT_COLOURS["south"]
        assert [t.text for t in group.iter(SVG + "text")] == ["S"]
    e4x, e4y = square_box(root, "e4")
    x, y, width, height = box(rect_of(found["e4v"]))
    assert e4x + CELL <= x and x + width <= e4x + CELL + GROOVE  # in the groove east of e4
    assert e4y <= y and y + height <= e4y + CELL  # one square long
    b7x, b7y = square_box(root, "b7")
    x, y, width, height = box(rect_of(found["b7h"]))
    assert b7y - GROOVE <= y and y + height <= b7y  # in the groove north of b7
    assert b7x <= x and x + width <= b7x + CELL


def test_every_text_is_escaped() -> None:
    hostile = '<script>alert("x")</script> & \'q\' \x01\x1b]'
    seats = [
        {"seat": "north", "username": hostile, "walls_left": 9, "distance": 7},
        {"seat": "south", "username": "bob", "walls_left": 10, "distance": 7},
    ]
    text = board_svg(view(seats=seats, turn="north", turn_username=hostile))
    root = parse(text)  # still well-formed XML
    assert "<script" not in text and "\x01" not in text and "\x1b" not in text
    cleaned = '<script>alert("x")</script> & \'q\' ]'
    assert root.get("aria-label") == f"Game 4 (9x9), after 12 actions: North ({cleaned}) to move"
    assert root.findtext(SVG + "title") == root.get("aria-label")
    assert not list(root.iter(SVG + "script"))
    weird = parse(board_svg(view(walls=[{"wall": '"><x a="', "owner": "north"}],
                                 pawns={"north": "z99", "south": "e2"}, last_actions=[])))
    assert groups(weird, "data-wall") == {} and pawn_squares(weird) == {"south": "e2"}


# -- GET /games/{id}/board.svg -------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("server")) as running:
        yield running


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.api, timeout=10.0) as http:
        yield http


@pytest.fixture(scope="module")
def tokens(server: RunningServer) -> dict[str, str]:
    return {name: insert_user(server.database_url, name) for name in ("svann", "svbob", "svwatch")}


def pair(tokens: dict[str, str]) -> dict[str, str]:
    return {"svann": tokens["svann"], "svbob": tokens["svbob"]}


def board(
    client: httpx.Client, token: str, game_id: int, **params: Any
) -> tuple[ET.Element, str]:
    response = client.get(f"/games/{game_id}/board.svg", params=params, headers=auth(token))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert "no-cache" in response.headers["cache-control"]
    return parse(response.text), response.text


def test_the_board_shows_the_pawns_where_the_game_has_them_and_at_0_the_start(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    match = start(client, pair(tokens), size=5)
    first = act(client, match, "move", "c4" if match.game["turn"] == "north" else "c2")
    act(client, match, "wall", "a2h" if first["turn"] == "north" else "d3h")
    for token in (*match.by_seat.values(), tokens["svwatch"]):
        root, _ = board(client, token, match.id)
        shown = get_game(client, token, match.id)
        assert pawn_squares(root) == shown["pawns"]
        assert set(groups(root, "data-wall")) == {w["wall"] for w in shown["walls"]}
        assert root.get("data-turn") == shown["turn"]
        assert frame(root).get("stroke") == SEAT_COLOURS[shown["turn"]]
    root, _ = board(client, tokens["svwatch"], match.id, at=0)
    assert pawn_squares(root) == {"north": "c5", "south": "c1"}
    assert groups(root, "data-wall") == {} and root.get("data-at") == "0"
    root, _ = board(client, tokens["svwatch"], match.id, at=1)
    assert set(pawn_squares(root).values()) & {"c4", "c2"}
    assert [e.get("data-last") for e in root.iter() if e.get("data-last")] in (["c4"], ["c2"])
    late = client.get(f"/games/{match.id}/board.svg", params={"at": 3},
                      headers=auth(tokens["svwatch"]))
    assert late.status_code == 422 and late.json()["reason"] == "invalid_action_number"
    for query in ({"caption": ""}, {"at": ""}, {"caption": "maybe"}):  # the document's types
        blank = client.get(f"/games/{match.id}/board.svg", params=query,
                           headers=auth(tokens["svwatch"]))
        assert blank.status_code == 400 and blank.json()["reason"] == "bad_request", query


def test_a_masked_games_walls_carry_no_owner_until_the_finish(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    match = start(client, pair(tokens), size=5, masked=True)
    placer = match.game["turn"]
    act(client, match, "wall", "b4h" if placer == "south" else "b1h")
    for token in (*match.by_seat.values(), tokens["svwatch"]):
        root, _ = board(client, token, match.id)
        walls = groups(root, "data-wall")
        assert len(walls) == 1
        assert all(w.get("data-owner") is None for w in walls.values())
    play_out(client, match, walls_each=0)
    root, _ = board(client, tokens["svwatch"], match.id)
    assert [w.get("data-owner") for w in groups(root, "data-wall").values()] == [placer]


def test_an_invisible_wall_is_in_its_placers_picture_only(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    match: Match = start(client, pair(tokens), size=5, invisible=True)
    placer = match.game["turn"]
    victim = next(seat for seat in match.by_seat if seat != placer)
    wall = "b4h" if placer == "south" else "b1h"
    act(client, match, "wall", wall)
    marked = client.post(f"/games/{match.id}/markers", json={"marker": "d2v"},
                         headers=auth(match.by_seat[victim]))
    assert marked.status_code in (200, 201), marked.text
    root, _ = board(client, match.by_seat[placer], match.id)
    assert groups(root, "data-wall")[wall].get("data-owner") == placer
    assert groups(root, "data-wall")[wall].get("data-last") == wall
    assert groups(root, "data-marker") == {}
    for token, markers in ((match.by_seat[victim], {"d2v"}), (tokens["svwatch"], set())):
        for params in ({}, {"at": 1}):
            root, text = board(client, token, match.id, **params)
            assert groups(root, "data-wall") == {}
            assert wall not in text
            assert "placed a wall." in (root.findtext(SVG + "desc") or "")
        root, _ = board(client, token, match.id)
        assert set(groups(root, "data-marker")) == markers
    finished = play_out(client, match, walls_each=0, avoid=frozenset({"d2v"}))
    assert finished["status"] == "finished"
    root, _ = board(client, tokens["svwatch"], match.id)
    assert wall in groups(root, "data-wall")
    assert set(groups(root, "data-marker")) == {"d2v"}


def test_a_private_game_is_404_to_others_unless_they_have_its_code(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = started_game(client, pair(tokens), size=5, private=True)
    root, _ = board(client, tokens["svann"], game["id"])
    assert len(pawn_squares(root)) == 2
    hidden = client.get(f"/games/{game['id']}/board.svg", headers=auth(tokens["svwatch"]))
    assert hidden.status_code == 404 and hidden.json()["reason"] == "game_not_found"
    at_start = client.get(f"/games/{game['id']}/board.svg", params={"at": 0},
                          headers=auth(tokens["svwatch"]))
    assert at_start.status_code == 404
    root, _ = board(client, tokens["svwatch"], game["id"],
                    invitation_code=game["invitation_code"])
    assert len(pawn_squares(root)) == 2
    missing = client.get("/games/999999/board.svg", headers=auth(tokens["svwatch"]))
    assert missing.status_code == 404


def test_a_waiting_game_has_an_empty_board_and_no_earlier_positions(
    client: httpx.Client, tokens: dict[str, str]
) -> None:
    game = new_game(client, tokens["svann"], size=7)
    root, _ = board(client, tokens["svwatch"], game["id"])
    assert pawn_squares(root) == {} and root.get("data-size") == "7"
    early = client.get(f"/games/{game['id']}/board.svg", params={"at": 0},
                       headers=auth(tokens["svwatch"]))
    assert early.status_code == 409 and early.json()["reason"] == "game_not_started"
    bad = client.get(f"/games/{game['id']}/board.svg", params={"at": "-1"},
                     headers=auth(tokens["svwatch"]))
    assert bad.status_code == 400
