"""cq game show --svg against the real server: the board the server draws, written to a
file or to standard output, with --at; and its refusals."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from tests.client.conftest import runner_in
from tests.client.play_helpers import best_step, created_id, game_json

pytestmark = pytest.mark.backend_neutral  # cq's output; the server: tests/api on both backends

Cq = Callable[..., Result]
PLAYERS = ["svgann", "svgben", "svgcat"]
INSERT_PLAYERS = True
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def cq(players_cq: Cq) -> Cq:
    return players_cq


def pawns(root: ET.Element) -> dict[str, str]:
    return {
        g.get("data-seat", ""): g.get("data-square", "")
        for g in root.iter(SVG + "g")
        if g.get("data-seat")
    }


@pytest.fixture(scope="module")
def game_id(players_config: Path) -> int:
    """A started 5x5 game of svgann and svgben in which one move has been played."""
    with runner_in(players_config) as cq:
        created = cq("game", "new", "-b", "5", profile="svgann")
        assert created.exit_code == 0, created.output
        game = created_id(created)
        assert cq("game", "join", "-g", str(game), profile="svgben").exit_code == 0
        state = game_json(cq, game, "svgann")
        kind, to = best_step(state)
        moved = cq("game", kind, "-g", str(game), to, profile=state["turn_username"])
        assert moved.exit_code == 0, moved.output
        return game


def test_svg_writes_the_board_to_a_file_and_says_where(
    cq: Cq, game_id: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = cq("game", "show", "-g", str(game_id), "--svg", "out.svg", profile="svgcat")
    assert result.exit_code == 0, result.output
    target = tmp_path / "out.svg"
    assert result.output == f"Wrote the board of game {game_id} to {target}.\n"
    root = ET.fromstring(target.read_text(encoding="utf-8"))
    assert root.tag == SVG + "svg"
    assert pawns(root) == game_json(cq, game_id, "svgcat")["pawns"]


def test_svg_at_writes_an_earlier_board(cq: Cq, game_id: int, tmp_path: Path) -> None:
    target = tmp_path / "start.svg"
    result = cq("game", "show", "-g", str(game_id), "--at", "0", "--svg", str(target),
                profile="svgann")
    assert result.exit_code == 0, result.output
    assert f"Wrote the board of game {game_id} after 0 actions to {target}." in result.output
    root = ET.fromstring(target.read_text(encoding="utf-8"))
    assert pawns(root) == {"north": "c5", "south": "c1"}
    assert root.get("data-at") == "0"


def test_svg_dash_writes_the_picture_to_standard_output(cq: Cq, game_id: int) -> None:
    result = cq("game", "show", "-g", str(game_id), "--svg", "-", profile="svgann")
    assert result.exit_code == 0, result.output
    root = ET.fromstring(result.output)
    assert len(pawns(root)) == 2
    assert "Wrote" not in result.output


def test_svg_refusals_write_nothing(cq: Cq, game_id: int, tmp_path: Path) -> None:
    target = tmp_path / "none.svg"
    missing = cq("game", "show", "-g", "999999", "--svg", str(target), profile="svgann")
    assert missing.exit_code == 4, missing.output
    too_late = cq("game", "show", "-g", str(game_id), "--at", "99", "--svg", str(target),
                  profile="svgann")
    assert too_late.exit_code == 4, too_late.output
    assert "invalid_action_number" in too_late.output or "'at' takes" in too_late.output
    assert not target.exists()
    both = cq("game", "show", "-g", str(game_id), "--json", "--svg", str(target),
              profile="svgann")
    assert both.exit_code == 2 and "--svg and --json" in both.output
    nowhere = tmp_path / "no" / "such" / "dir" / "x.svg"
    unwritable = cq("game", "show", "-g", str(game_id), "--svg", str(nowhere),
                    profile="svgann")
    assert unwritable.exit_code == 2, unwritable.output
    assert f"cannot write {nowhere}" in unwritable.output
    assert not os.path.exists(nowhere)
