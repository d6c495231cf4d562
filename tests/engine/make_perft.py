"""Regenerate the perft data files in tests/engine/perft/ with the slow reference.

    .venv/bin/python tests/engine/make_perft.py

Each entry: name, size, players, first (the seat that moves first), moves (canonical
actions played from the start, space separated), depth, count, and divide (count per
legal first action, canonical notation). The engine must reproduce every number.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from reference import SIZES, RefGame, divide  # noqa: E402

# Hand-made mid-game positions: (name, size, players, first, moves, depth).
MIDGAME: list[tuple[str, int, int, str, str, int]] = [
    ("2p pawns face to face, straight jump", 9, 2, "north", "e8 e2 e7 e3 e6 e4 e5", 1),
    ("2p straight jump blocked by a wall, diagonals", 9, 2, "north",
     "e8 e2 e7 e3 e6 e4 e5 a1h e5h", 1),
    ("2p straight jump blocked by a wall, one diagonal walled", 9, 2, "north",
     "e8 e2 e7 e3 e6 e4 e5 a1h e5h h8h d5v", 1),
    ("2p jump against the west edge", 5, 2, "north", "c4 c2 b4 b2 a4 b3 a3", 1),
    ("2p winning jumps over a pawn on the north edge", 5, 2, "north",
     "b5 c2 a1h c3 d1h c4 c5", 1),
    ("2p corridor of walls", 9, 2, "north",
     "d8v e1h c8v a1h d6v g1h c6v a7h d4v g7h", 1),
    ("2p T and L shaped walls", 9, 2, "north",
     "d4h e4v c6h f7h g7v a1h b1v h1h", 1),
    ("2p last wall each", 5, 2, "north", "c1h d2v b3h c4v a1h d4h c2h a3v", 1),
    ("2p a wall left but no legal place", 5, 2, "north",
     "c1h d2v b3h c4v a1h d4h c2h a3v c4 b1v", 1),
    ("2p no walls left", 5, 2, "north", "c1h d2v b3h c4v a1h d4h c2h a3v c4 b1v b4", 1),
    ("2p 17x17 walls near borders", 17, 2, "south",
     "a1h p16h a16v p1v h8h i9v b9h o8h", 1),
    ("4p crowd in the centre", 5, 4, "north", "c4 d3 c2 b3 c3", 1),
    ("4p crowd, west to move", 5, 4, "north", "c4 d3 c2 b3 c3 a1h", 1),
    ("4p crowd with walls", 7, 4, "east", "f4 d2 b4 d6 e4 d3 c4 d5 d4h", 1),
    ("4p three pawns in a row", 7, 4, "north", "d6 f4 d2 b4 d5 e4 d3 c4 d4", 1),
    ("4p 9x9 mid-game", 9, 4, "west", "b5 e8 h5 e2 c5 e7 g5 e3 d5 d7h f5 c2v", 1),
    ("2p depth 2 with jump", 7, 2, "north", "d6 d2 d5 d3 d4", 2),
    ("4p depth 2 crowd", 5, 4, "north", "c4 d3 c2 b3 c3", 2),
]

RANDOM_GAMES = [(size, players, seed) for size in SIZES for players in (2, 4) for seed in (1, 2)]


def entry(name: str, size: int, players: int, first: str, moves: list[str],
          depth: int) -> dict[str, Any]:
    game = RefGame.from_moves(size, players, first, moves)
    split = divide(game, depth)
    return {"name": name, "size": size, "players": players, "first": first,
            "moves": " ".join(moves), "depth": depth, "count": sum(split.values()),
            "divide": split}


def random_moves(size: int, players: int, seed: int, plies: int) -> tuple[str, list[str]]:
    """A seeded random game from the reference: pawns walk towards the middle, walls mixed in."""
    rng = random.Random(seed * 1000 + size * 10 + players)
    first = rng.choice(["north", "south"] if players == 2 else ["north", "east", "south", "west"])
    game = RefGame.new(size, players, first)
    moves: list[str] = []
    for _ in range(plies):
        actions = game.legal_actions()
        if not actions or game.turn is None:
            break
        steps = [a for a in actions if a[-1] not in "hv"]
        walls = [a for a in actions if a[-1] in "hv"]
        choice = rng.choice(walls) if walls and rng.random() < 0.45 else rng.choice(steps)
        game.play(choice)
        moves.append(choice)
        if game.turn is None:
            moves.pop()
            break
    return first, moves


def moves_before_a_pass(size: int, seed: int) -> tuple[str, list[str]] | None:
    """A crowded 4-player game (walls spent early, pawns herded to the centre) up to the
    action after which a player has to pass; None if no pass happens in 60 plies."""
    rng = random.Random(seed)
    first = rng.choice(["north", "east", "south", "west"])
    game = RefGame.new(size, 4, first)
    middle = size // 2
    moves: list[str] = []
    for _ in range(60):
        actions = game.legal_actions()
        if game.turn is None or not actions:
            return None
        steps = [a for a in actions if a[-1] not in "hv"]
        walls = [a for a in actions if a[-1] in "hv"]
        if walls and (rng.random() < 0.5 or not steps):
            choice = rng.choice(walls)
        else:
            choice = min(steps, key=lambda a: (abs("abcdefghijklmnopq".index(a[0]) - middle)
                                               + abs(int(a[1:]) - 1 - middle), a))
        passed = game.copy().play(choice)
        if passed:
            return first, moves
        game.play(choice)
        moves.append(choice)
    return None


def main() -> None:
    argparse.ArgumentParser(description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    out = HERE / "perft"
    out.mkdir(exist_ok=True)
    start = []
    for size in SIZES:
        for players in (2, 4):
            start.append(entry(f"start {size}x{size} {players}p", size, players, "north", [], 1))
    for size, players, first in [(9, 2, "south"), (9, 4, "east"), (9, 4, "west"),
                                 (17, 4, "south"), (5, 4, "west")]:
        start.append(entry(f"start {size}x{size} {players}p {first} first", size, players,
                           first, [], 1))
    for size in (5, 7, 9):
        for players in (2, 4):
            start.append(entry(f"start {size}x{size} {players}p", size, players, "north", [], 2))
    for size, players in [(5, 2), (5, 4), (7, 2), (9, 2)]:
        start.append(entry(f"start {size}x{size} {players}p", size, players, "north", [], 3))
    (out / "start.json").write_text(json.dumps(start, indent=1) + "\n")
    print(f"start.json: {len(start)} entries")

    midgame = [entry(name, size, players, first, moves.split(), depth)
               for name, size, players, first, moves, depth in MIDGAME]
    found = 0
    for seed in range(200):
        before = moves_before_a_pass(5, seed)
        if before and found < 3:
            found += 1
            first, moves = before
            for depth in (1, 2):
                midgame.append(entry(f"4p 5x5 a pass follows, seed {seed}", 5, 4, first, moves,
                                     depth))
    for size, players, seed in RANDOM_GAMES:
        first, moves = random_moves(size, players, seed, plies=6 + size)
        midgame.append(entry(f"random {size}x{size} {players}p seed {seed}", size, players,
                             first, moves, 1))
    (out / "midgame.json").write_text(json.dumps(midgame, indent=1) + "\n")
    print(f"midgame.json: {len(midgame)} entries")


if __name__ == "__main__":
    main()
