"""cq in the wall modes against the real server: mark/unmark, what `game show` draws for
each player (own walls and marks only, masked counts, the finished reveal with marks over
walls), `game show --at N`, and completion that never reveals an invisible wall."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from client.legal import legal_targets
from client.render.board import render_board
from client.render.themes import get_theme
from tests.client.conftest import runner_in
from tests.client.play_helpers import created_id, game_json, play_to_the_end

pytestmark = pytest.mark.backend_neutral  # cq's output; the server: tests/api on both backends

Cq = Callable[..., Result]
PLAYERS = ["mia", "max"]


@pytest.fixture
def cq(players_cq: Cq) -> Cq:
    return players_cq


def ok(result: Result) -> Result:
    assert result.exit_code == 0, result.output
    return result


def started(cq: Cq, *modes: str) -> tuple[int, str, str]:
    """A started 5x5 game with `modes`; (id, the player to move, the other)."""
    game_id = created_id(ok(cq("game", "new", "-b", "5", *modes, profile="mia")))
    ok(cq("game", "join", "-g", str(game_id), profile="max"))
    mover = game_json(cq, game_id, "mia")["turn_username"]
    return game_id, mover, next(p for p in PLAYERS if p != mover)


def board_row(output: str, row: int) -> str:
    """The board line of squares of `row` (without the coordinates)."""
    line = next(x for x in output.splitlines() if re.match(rf"^\s*{row} [|+]", x))
    return line.strip()[len(str(row)) + 1:-len(str(row)) - 1]


@pytest.fixture(scope="module")
def invisible(players_config: Path) -> dict[str, Any]:
    """An invisible game in which the player to move placed d1v (d1|e1 and d2|e2)."""
    with runner_in(players_config) as cq:
        game_id, placer, victim = started(cq, "-x")
        ok(cq("game", "place", "-g", str(game_id), "d1v", profile=placer))
    return {"id": game_id, "placer": placer, "victim": victim}


def test_each_player_sees_only_its_own_walls(cq: Cq, invisible: dict[str, Any]) -> None:
    game_id = str(invisible["id"])
    mine = ok(cq("game", "show", "-g", game_id, profile=invisible["placer"])).output
    theirs = ok(cq("game", "show", "-g", game_id, profile=invisible["victim"])).output
    assert board_row(mine, 1).count("|") == 3 and board_row(mine, 2).count("|") == 3
    assert board_row(theirs, 1).count("|") == 2 and board_row(theirs, 2).count("|") == 2
    assert "walls left:  4" in theirs  # counts stay visible in invisible mode
    assert "placed a wall" in theirs and "d1v" not in theirs


def test_marks_are_drawn_for_their_owner_and_refused_on_own_walls(
    cq: Cq, invisible: dict[str, Any]
) -> None:
    game_id = str(invisible["id"])
    marked = ok(cq("game", "mark", "-g", game_id, "D1V", profile=invisible["victim"]))
    assert "Marked d1v" in marked.output and "Your markers: d1v" in marked.output
    assert ":" in board_row(marked.output, 1)
    placer_view = ok(cq("game", "show", "-g", game_id, profile=invisible["placer"])).output
    assert ":" not in board_row(placer_view, 1) and "markers" not in placer_view
    own = cq("game", "mark", "-g", game_id, "d2v", profile=invisible["placer"])
    assert own.exit_code == 4 and "your own walls" in own.output
    bad = cq("game", "mark", "-g", game_id, "e1v", profile=invisible["victim"])
    assert bad.exit_code == 4 and "east edge" in bad.output
    ok(cq("game", "mark", "-g", game_id, "a2h", profile=invisible["victim"]))
    ok(cq("game", "unmark", "-g", game_id, "a2h", profile=invisible["victim"]))
    again = cq("game", "unmark", "-g", game_id, "a2h", profile=invisible["victim"])
    assert again.exit_code == 4 and "no marker there" in again.output


def test_a_wall_bumping_into_an_invisible_wall_names_no_hidden_wall(
    cq: Cq, invisible: dict[str, Any]
) -> None:
    game = game_json(cq, invisible["id"], invisible["victim"])
    assert game["turn_username"] == invisible["victim"]
    bump = cq("game", "place", "-g", str(invisible["id"]), "d1h", profile=invisible["victim"])
    assert bump.exit_code == 4 and "d1h: crosses a wall" in bump.output
    assert game_json(cq, invisible["id"], invisible["victim"])["revision"] == game["revision"]


def test_completion_offers_what_the_player_knows_and_reveals_no_wall(
    cq: Cq, invisible: dict[str, Any]
) -> None:
    victim = game_json(cq, invisible["id"], invisible["victim"])
    assert "d1v" in legal_targets(victim, "wall")  # unknown to the victim, so offered
    placer = game_json(cq, invisible["id"], invisible["placer"])
    victim["turn"] = placer["turn"] = placer["seats"][0]["seat"]
    assert "d1v" not in legal_targets(placer, "wall")


def test_show_at_an_earlier_action_and_the_finished_reveal(
    cq: Cq, invisible: dict[str, Any]
) -> None:
    game_id = str(invisible["id"])
    early = ok(cq("game", "show", "-g", game_id, "--at", "1", profile=invisible["victim"]))
    assert "The board after action 1" in early.output
    assert board_row(early.output, 1).count("|") == 2
    far = cq("game", "show", "-g", game_id, "--at", "99", profile=invisible["victim"])
    assert far.exit_code == 4 and "takes 0 to" in far.output
    negative = cq("game", "show", "-g", game_id, "--at", "-1", profile=invisible["victim"])
    assert negative.exit_code == 2
    marked = cq("game", "mark", "-g", game_id, "d1v", profile=invisible["victim"])
    assert marked.exit_code == 0 or "already marked" in marked.output  # run alone or not
    final = play_to_the_end(cq, invisible["id"], PLAYERS, walls_each=0)
    assert final["status"] == "finished"
    shown = ok(cq("game", "show", "-g", game_id, profile=invisible["placer"])).output
    assert "#" in board_row(shown, 1)  # the victim's mark over the placer's wall
    assert board_row(shown, 2).count("|") == 3
    assert "Markers of" in shown and "Scores:" in shown
    early_now = ok(cq("game", "show", "-g", game_id, "-a", "1", profile="mia")).output
    assert board_row(early_now, 1).count("|") == 3  # revealed, without the marks


def test_masked_walls_are_neutral_and_counts_hidden(cq: Cq) -> None:
    game_id, mover, other = started(cq, "-m")
    placed = ok(cq("game", "place", "-g", str(game_id), "d1v", profile=mover)).output
    assert "a wall was placed" in placed.splitlines()[0]
    ok(cq("game", "place", "-g", str(game_id), "a4h", profile=other))
    for who in (mover, other):
        shown = ok(cq("game", "show", "-g", str(game_id), profile=who)).output
        assert shown.count("walls left: hidden") == 2
        assert board_row(shown, 1).count("|") == 3
        # SPEC §4: "a wall was placed", no square nor player (the turn order would tell
        # whose wall each square is)
        history = shown.split("Last actions:", 1)[1].splitlines()[1:]
        assert [line.strip() for line in history] == [
            "#1 a wall was placed", "#2 a wall was placed"], shown
        # no earlier position either: the boards one by one would list the walls in order
        early = cq("game", "show", "-g", str(game_id), "--at", "1", profile=who)
        assert early.exit_code != 0 and "once it is finished" in early.output, early.output
    game = game_json(cq, game_id, mover)
    theme = get_theme("dark")
    coloured = "\n".join(render_board(game, theme))
    # d1v (two squares and the point between) in the neutral colour: the owner is unknown
    assert coloured.count(theme.seat("┃", None, bold=True)) == 3


REVEALED = {
    "id": 9, "status": "finished", "size": 5, "players": 2, "turn": None,
    "pawns": {"north": "c1", "south": "c5"},
    "walls": [{"wall": "a1v", "owner": "north"}, {"wall": "c3h", "owner": "south"}],
    "markers": [{"marker": "a1v", "owner": "south"}, {"marker": "d3h", "owner": "north"},
                {"marker": "b4v", "owner": "north"}],
}


def test_the_finished_reveal_colours_walls_by_owner_with_marks_over_them() -> None:
    theme = get_theme("dark")
    lines = render_board(REVEALED, theme)
    text = "\n".join(lines)
    assert theme.seat("╏", "south", bold=True) in text  # south's mark over north's a1v
    assert theme.seat("┃", "north", bold=True) in text  # the other half of a1v
    assert theme.seat("╍╍╍", "north", bold=True) in text  # north's mark over south's c3h
    assert theme.seat("━━━", "south", bold=True) in text  # the other half of c3h
    assert theme.seat("┆", "north", bold=True) in text  # a mark on no wall
    plain = render_board(REVEALED, None)
    assert plain[4:11] == [
        " 4 | .   . : .   .   . | 4",  # north's mark b4v on no wall
        "   |        ----###    |",  # south's c3h, north's mark d3h over its east half
        " 3 | .   .   .   .   . | 3",
        "   |                   |",
        " 2 | . | .   .   .   . | 2",  # north's a1v
        "   |   |               |",
        " 1 | . # .   N   .   . | 1",  # south's mark a1v over north's wall
    ]
