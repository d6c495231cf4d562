"""The engine reproduces the perft counts that the slow reference computed (perft/*.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from corridorquest.engine import format_action

from .engine_helpers import engine_perft, legal, position, reference

PERFT_DIR = Path(__file__).parent / "perft"


def load(name: str) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = json.loads((PERFT_DIR / name).read_text())
    return entries


START = load("start.json")
MIDGAME = load("midgame.json")


def test_data_files_cover_every_size_and_player_count() -> None:
    depth1 = {(e["size"], e["players"]) for e in START if e["depth"] == 1 and not e["moves"]}
    depth2 = {(e["size"], e["players"]) for e in START if e["depth"] == 2}
    assert depth1 == {(s, p) for s in (5, 7, 9, 11, 13, 15, 17) for p in (2, 4)}
    assert depth2 == {(s, p) for s in (5, 7, 9) for p in (2, 4)}
    assert len(MIDGAME) >= 10


def test_nine_by_nine_start_has_three_moves_and_128_walls() -> None:
    entry = next(e for e in START if e["name"] == "start 9x9 2p" and e["depth"] == 1)
    assert entry["count"] == 131
    assert sorted(a for a in entry["divide"] if a[-1] not in "hv") == ["d9", "e8", "f9"]


def check(entry: dict[str, Any]) -> None:
    state = position(entry["size"], entry["players"], entry["first"], entry["moves"])
    if entry["depth"] == 1:
        assert legal(state) == sorted(entry["divide"]), entry["name"]
        assert len(state.legal_actions()) == entry["count"], "duplicate legal actions"
        return
    split: dict[str, int] = {}
    for action in state.legal_actions():
        child = state.copy()
        child.play(action)
        split[format_action(action)] = engine_perft(child, entry["depth"] - 1)
    assert split == entry["divide"], entry["name"]
    assert sum(split.values()) == entry["count"]


@pytest.mark.parametrize("entry", START, ids=lambda e: f"{e['name']} d{e['depth']}")
def test_perft_from_the_start(entry: dict[str, Any]) -> None:
    check(entry)


@pytest.mark.parametrize("entry", MIDGAME, ids=lambda e: f"{e['name']} d{e['depth']}")
def test_perft_mid_game(entry: dict[str, Any]) -> None:
    check(entry)


@pytest.mark.parametrize("entry", [e for e in MIDGAME if e["depth"] == 1],
                         ids=lambda e: e["name"])
def test_data_files_agree_with_the_reference(entry: dict[str, Any]) -> None:
    """The checked-in numbers are the reference's (regenerate with make_perft.py)."""
    game = reference(entry["size"], entry["players"], entry["first"], entry["moves"])
    assert game.legal_actions() == sorted(entry["divide"])
    assert entry["count"] == len(entry["divide"]) == sum(entry["divide"].values())
