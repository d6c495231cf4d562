"""The board drawing of `cq game show`, from fixed positions, with and without colour."""

from __future__ import annotations

import re

import click
import pytest

from client.render.board import render_board
from client.render.game_text import render_game, render_game_list
from client.render.themes import THEMES, get_theme

pytestmark = pytest.mark.backend_neutral  # no database: the board's drawing

ANSI = re.compile(r"\x1b\[[0-9;]*m")

FOUR_PLAYERS = {
    "id": 3, "status": "started", "revision": 9, "size": 9, "players": 4,
    "masked": False, "invisible": False, "private": False, "admin": "alice",
    "seats": [
        {"seat": "north", "username": "alice", "walls_left": 4, "distance": 7},
        {"seat": "east", "username": "bob", "walls_left": 5, "distance": 8},
        {"seat": "south", "username": "carol", "walls_left": 5, "distance": 8},
        {"seat": "west", "username": "dave", "walls_left": 4, "distance": 8},
    ],
    "turn": "east", "turn_username": "bob", "winner": None,
    "pawns": {"north": "e8", "east": "i5", "south": "e1", "west": "a5"},
    "walls": [
        {"wall": "c3h", "owner": "north"},
        {"wall": "d7v", "owner": "west"},
    ],
    "wall_cost": 8,
    "last_actions": [
        {"n": 1, "seat": "north", "username": "alice", "type": "move", "notation": "e8"},
        {"n": 2, "seat": "east", "username": "bob", "type": "move", "notation": "i5"},
        {"n": 3, "seat": "south", "username": "carol", "type": "wall", "notation": None},
    ],
}

EXPECTED_PLAIN = """\
     a   b   c   d   e   f   g   h   i
   +-----------------------------------+
 9 | .   .   .   .   .   .   .   .   . | 9
   |                                   |
 8 | .   .   .   . | N   .   .   .   . | 8
   |               |                   |
 7 | .   .   .   . | .   .   .   .   . | 7
   |                                   |
 6 | .   .   .   .   .   .   .   .   . | 6
   |                                   |
 5 | W   .   .   .   .   .   .   .   E | 5
   |                                   |
 4 | .   .   .   .   .   .   .   .   . | 4
   |        -------                    |
 3 | .   .   .   .   .   .   .   .   . | 3
   |                                   |
 2 | .   .   .   .   .   .   .   .   . | 2
   |                                   |
 1 | .   .   .   .   S   .   .   .   . | 1
   +-----------------------------------+
     a   b   c   d   e   f   g   h   i"""


def test_board_without_colour_uses_letters_and_ascii_walls() -> None:
    assert "\n".join(render_board(FOUR_PLAYERS, None)) == EXPECTED_PLAIN


def test_board_without_colour_has_no_escape_codes_or_triangles() -> None:
    text = render_game(FOUR_PLAYERS, None)
    assert "\x1b" not in text
    assert not set("▲▼◀▶┃━") & set(text)


@pytest.mark.parametrize("name", sorted(THEMES))
def test_each_theme_colours_pawns_walls_and_border(name: str) -> None:
    theme = THEMES[name]
    lines = render_board(FOUR_PLAYERS, theme)
    text = "\n".join(lines)
    # pawns are triangles pointing to their goal, in their seat's colour
    for seat, icon in (("north", "▼"), ("east", "◀"), ("south", "▲"), ("west", "▶")):
        assert click.style(icon, fg=theme.seats[seat], bold=True) in text
    # North's wall c3h is drawn in North's colour; West's d7v in West's colour
    assert click.style("━━━", fg=theme.seats["north"], bold=True) in text
    assert click.style("┃", fg=theme.seats["west"], bold=True) in text
    # the border has the colour of the player to move (east)
    assert lines[1] == "   " + click.style("┏" + "━" * 35 + "┓", fg=theme.seats["east"], bold=True)
    # stripped of colour, the picture is the same as the plain one, with the box glyphs
    plain = ANSI.sub("", text)
    assert plain.splitlines()[6] == " 7 ┃ ·   ·   ·   · ┃ ·   ·   ·   ·   · ┃ 7"


def test_themes_differ_from_each_other() -> None:
    drawings = {name: "\n".join(render_board(FOUR_PLAYERS, t)) for name, t in THEMES.items()}
    assert len(set(drawings.values())) == len(THEMES)


def test_masked_wall_without_owner_is_neutral() -> None:
    game = dict(FOUR_PLAYERS, walls=[{"wall": "c3h", "owner": None}])
    theme = get_theme("dark")
    text = "\n".join(render_board(game, theme))
    assert click.style("━━━", fg=theme.neutral, bold=True) in text
    assert click.style("━━━", fg=theme.seats["north"], bold=True) not in text


def test_border_is_neutral_when_game_is_not_started() -> None:
    game = dict(FOUR_PLAYERS, status="finished", winner="alice")
    theme = get_theme("light")
    lines = render_board(game, theme)
    assert lines[1] == "   " + click.style("┏" + "━" * 35 + "┓", fg=theme.idle_border)


def test_wall_crossing_point_belongs_to_its_wall() -> None:
    game = dict(FOUR_PLAYERS, walls=[{"wall": "b2v", "owner": "south"}])
    lines = render_board(game, None)
    # b2v blocks b2|c2 and b3|c3 and passes through the point between rows 2 and 3
    assert lines[14] == " 3 | .   . | .   .   .   .   .   .   . | 3"
    assert lines[15] == "   |       |                           |"
    assert lines[16] == " 2 | .   . | .   .   .   .   .   .   . | 2"


@pytest.mark.parametrize("size", [5, 7, 9, 11, 13, 15, 17])
@pytest.mark.parametrize("theme_name", [None, "dark", "light", "translucent"])
def test_every_board_size_fits_80_columns(size: int, theme_name: str | None) -> None:
    last = chr(ord("a") + size - 1)
    game = {
        "size": size, "status": "started", "turn": "north",
        "pawns": {"north": f"{last}{size}", "south": "a1"},
        "walls": [{"wall": "a1h", "owner": "south"}, {"wall": f"a{size - 1}v", "owner": None}],
    }
    theme = get_theme(theme_name) if theme_name else None
    lines = [ANSI.sub("", line) for line in render_board(game, theme)]
    assert len(lines) == 2 * size + 3
    assert max(len(line) for line in lines) <= 80
    assert lines[-1].split()[-1] == last


def test_game_details_list_players_walls_turn_and_last_actions() -> None:
    text = render_game(FOUR_PLAYERS, None, me="carol")
    assert "Game 3 · Active · revision 9" in text
    assert "Variant: 9x9, 4 players, masked walls: No, invisible walls: No" in text
    assert "Wall cost: 8" in text
    assert "E east  bob    walls left:  5  distance: 8  <- to move" in text
    assert "S south carol  walls left:  5  distance: 8  <- you" in text
    assert "Turn: bob (east)" in text
    assert "#3 carol (south) placed a wall" in text
    assert "#2 bob (east) moved to i5" in text


def test_masked_walls_left_are_shown_as_hidden() -> None:
    seats = [dict(s, walls_left=None) for s in FOUR_PLAYERS["seats"]]  # type: ignore[attr-defined]
    text = render_game(dict(FOUR_PLAYERS, seats=seats, masked=True), None)
    assert text.count("walls left: hidden") == 4
    assert "masked walls: Yes" in text


def test_waiting_game_shows_who_is_waiting_and_no_board() -> None:
    game = {
        "id": 7, "status": "waiting", "revision": 1, "size": 5, "players": 2,
        "masked": False, "invisible": False, "private": True, "admin": "alice",
        "invitation_code": "XYZ", "seats": [], "waiting_players": ["alice"],
        "pawns": {}, "walls": [], "last_actions": [],
    }
    text = render_game(game, None)
    assert "Waiting for players: 1 of 2 joined (alice)" in text
    assert "Invitation code: XYZ" in text
    assert "+---" not in text


def test_game_list_marks_the_player_to_move() -> None:
    games = [
        {"id": 4, "status": "started", "players": 2, "size": 5, "private": False,
         "masked": False, "invisible": False, "winner": None,
         "usernames": ["alice", "bob"], "turn_username": "bob"},
        {"id": 2, "status": "finished", "players": 2, "size": 13, "private": True,
         "masked": True, "invisible": False, "winner": "dave",
         "usernames": ["carol", "dave"], "turn_username": None},
    ]
    lines = render_game_list(games).splitlines()
    assert lines[0].split() == ["Game", "ID", "Status", "Players", "Size", "Private?",
                                "Masked?", "Invisible?", "Won", "By", "Players"]
    assert lines[1].split() == ["4", "Active", "2", "5X5", "No", "No", "No", "?", "alice,", ">bob"]
    assert lines[2].split() == ["2", "Finished", "2", "13X13", "Yes", "Yes", "No", "dave",
                                "carol,", "dave"]
    assert render_game_list([]) == "No games found."
