"""The replay shows the analysis's best action (issue 31 item 3): at step N of a finished
game's replay (the position before ply N + 1) the board outlines ply N + 1's best action
in dashes (a ring on a move's square), drawn by the server in the SVG, and says under the
board "Best here: ..." and, for a mistake, "played: ... ??"; nothing without an analysis."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.api.mode_helpers import start
from tests.api.test_analysis import play_missing_a_win, wait_done
from tests.support.server import RunningServer
from tests.support.users import auth

CELL, GROOVE, EDGE = 40, 12, 30  # drawing/board_svg.py: a square, a groove, margin + frame


def square_centre(square: str, size: int) -> tuple[float, float]:
    col, row = ord(square[0]) - ord("a"), int(square[1:]) - 1
    return EDGE + col * (CELL + GROOVE) + CELL / 2, EDGE + (size - 1 - row) * (
        CELL + GROOVE) + CELL / 2


def page(server: RunningServer, token: str, path: str) -> str:
    answer = httpx.get(f"{server.base_url}{path}", headers=auth(token), timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.text


@pytest.fixture(scope="module")
def analysed(server: RunningServer, client: httpx.Client, tokens: Any
             ) -> tuple[int, str, int, dict[str, Any], str]:
    names = tokens(("boann", "bobob"))
    match = start(client, names, size=5)
    missed = play_missing_a_win(client, match)
    token = names["boann"]
    # the replay before an analysis exists: no outline, no caption
    before = page(server, token, f"/games/{match.id}?at={missed - 1}")
    asked = client.post(f"/games/{match.id}/analysis", headers=auth(token))
    assert asked.status_code in (200, 202)
    return match.id, token, missed, wait_done(client, token, match.id), before


def test_without_an_analysis_the_replay_has_no_outline(
    analysed: tuple[int, str, int, dict[str, Any], str]
) -> None:
    _, _, _, _, before = analysed
    assert 'class="best"' not in before and "Best here" not in before
    assert 'class="cq-board"' in before


@pytest.mark.parametrize("where", ["/games/{id}?at={at}", "/web/games/{id}/live?at={at}"])
def test_the_step_before_the_mistake_outlines_the_missed_win(
    server: RunningServer, analysed: tuple[int, str, int, dict[str, Any], str], where: str
) -> None:
    game_id, token, missed, analysis, _ = analysed
    row = analysis["plies"][missed - 1]
    assert row["mistake"] and row["best"] != row["action"]
    html = page(server, token, where.format(id=game_id, at=missed - 1))
    board = html[html.index('<svg xmlns="http://www.w3.org/2000/svg"'):]
    board = board[:board.index("</svg>")]
    outline = re.search(r'<g class="best" data-best="([a-z0-9]+)" data-kind="move">'
                        r'<circle cx="([\d.]+)" cy="([\d.]+)" r="[\d.]+" fill="none" '
                        r'stroke="(#[0-9a-f]{6})"[^>]*stroke-dasharray', board)
    assert outline is not None, board[-800:]
    assert outline[1] == row["best"]
    cx, cy = square_centre(row["best"], 5)
    assert (float(outline[2]), float(outline[3])) == (cx, cy)  # on the winning square
    assert outline[4] not in ("#d70000", "#af5f00", "#005faf", "#008700", "#303030", "#000000")
    assert (f'<p class="best-caption">Best here: {row["best"]} · played: {row["action"]} ??</p>'
            in html)


def test_other_steps_show_their_own_best_and_the_end_shows_none(
    server: RunningServer, analysed: tuple[int, str, int, dict[str, Any], str]
) -> None:
    game_id, token, _, analysis, _ = analysed
    first = analysis["plies"][0]
    opening = page(server, token, f"/games/{game_id}?at=0")
    assert f'data-best="{first["best"]}"' in opening
    assert f"Best here: {first['best']}" in opening
    end = page(server, token, f"/games/{game_id}")
    assert 'class="best"' not in end and "Best here" not in end
    last = len(analysis["plies"])
    assert "Best here" not in page(server, token, f"/games/{game_id}?at={last}")


def test_a_best_wall_is_a_dashed_outline_on_its_grooves() -> None:
    from corridorquest.drawing.best_outline import best_outline
    from corridorquest.drawing.board_svg import board_svg

    view = {"size": 5, "status": "finished", "pawns": {"south": "c1", "north": "c5"}}
    drawn = board_svg(view, overlay=best_outline(view, "b2h", "south"))
    # b2h: the groove north of b2 and c2, from x 82 (west side of b) and y 174 (above rank 2)
    assert ('<g class="best" data-best="b2h" data-kind="wall"><rect x="81" y="173" '
            'width="94" height="14" rx="2" fill="none" stroke="#c2188c"') in drawn
    assert best_outline(view, "z9h", "south") == [] and best_outline(view, "<b>", None) == []
    assert 'class="best"' not in board_svg(view)  # the signature without it: as before
