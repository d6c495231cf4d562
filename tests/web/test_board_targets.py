"""The hit targets of a player's board (drawing/board_svg.py, `targets=True`): one per
square, per place of a wall and (invisible games) per edge; a wall's preview bar is the
wall as it stands once placed; the API's board.svg and a watcher's board have none."""

from __future__ import annotations

import re

from corridorquest.drawing.board_svg import board_svg

VIEW = {"id": 1, "size": 5, "pawns": {"north": "c5", "south": "c1"}, "walls": [],
        "markers": [], "turn": "north", "status": "started"}


def _attributes(svg: str, selector: str) -> dict[str, str]:
    found = {}
    for tag in re.findall(r"<[^>]+>", svg):
        name = re.search(selector + r'="([^"]+)"', tag)
        if name:
            found[name.group(1)] = tag
    return found


def test_every_square_wall_place_and_edge_has_one_target() -> None:
    plain = board_svg(VIEW, standalone=False, targets=True)
    assert len(_attributes(plain, "data-to")) == 25
    assert len(_attributes(plain, "data-slot")) == 2 * 4 * 4
    assert _attributes(plain, "data-edge") == {}  # markers are for invisible games
    hidden = board_svg({**VIEW, "invisible": True}, standalone=False, targets=True)
    assert len(_attributes(hidden, "data-edge")) == 2 * 5 * 4
    assert "hit" not in board_svg(VIEW, standalone=False)  # a watcher's, the API's


def test_a_walls_preview_is_the_wall_it_places() -> None:
    slots = _attributes(board_svg(VIEW, standalone=False, targets=True), "data-slot")
    for slot, tag in slots.items():
        bar = re.search(r'data-bar="([^"]+)"', tag)
        assert bar, tag
        placed = board_svg({**VIEW, "walls": [{"wall": slot, "owner": "north"}]})
        rect = re.search(rf'data-wall="{slot}"[^>]*><rect x="(\d+)" y="(\d+)" '
                         r'width="(\d+)" height="(\d+)"', placed)
        assert rect, slot
        assert bar.group(1).split() == list(rect.groups()), slot
