"""Scripted games that finish, shared by the scoring tests of the API and of migration
steps 7 and 25 (each action: the seat that plays it, its type and its square or wall)."""

from __future__ import annotations

# 5x5, 2 players: South walls twice, North once, then South walks up column c and wins;
# North ends on a3 (distance 2).
TWO_PLAYER_SCRIPT = [
    ("south", "wall", "d1v"), ("north", "wall", "b1v"), ("south", "wall", "d3v"),
    ("north", "move", "b5"), ("south", "move", "c2"), ("north", "move", "a5"),
    ("south", "move", "c3"), ("north", "move", "a4"), ("south", "move", "c4"),
    ("north", "move", "a3"), ("south", "move", "c5"),
]
# 5x5, 4 players (S, W, N, E): West places both its walls, South wins on c5.
# Final: West b3 (distance 3), North a4 (3), East c2 (3: a1v blocks c2-b2-a2).
FOUR_PLAYER_SCRIPT = [
    ("south", "move", "c2"), ("west", "wall", "d4h"), ("north", "move", "b5"),
    ("east", "move", "e2"), ("south", "move", "c3"), ("west", "wall", "a1v"),
    ("north", "move", "b4"), ("east", "move", "d2"), ("south", "move", "c4"),
    ("west", "move", "b3"), ("north", "move", "a4"), ("east", "move", "c2"),
    ("south", "move", "c5"),
]
# 5x5, 2 players, South first: b1h and d1h close row 1 but for column a; North walks away
# to e4, whose path is 7 long (e4 d4 c4 b4 a4 a3 a2 a1): longer than the board (4).
# North placed 1 wall: 60 * max(0, 1 - 7/4) + 40 * 0.8 = 32 (-45 + 32 = -13 unclamped);
# South won with 1 wall: 60 + 32 = 92.
LONG_PATH_SCRIPT = [
    ("south", "move", "c2"), ("north", "wall", "b1h"), ("south", "wall", "d1h"),
    ("north", "move", "d5"), ("south", "move", "c3"), ("north", "move", "e5"),
    ("south", "move", "c4"), ("north", "move", "e4"), ("south", "move", "c5"),
]
