"""An independent, deliberately slow reference implementation of the rules (SPEC §2).

Written from the rule text only, never from the engine's code: the tests compare the fast
engine with it. Everything is plain data (strings, tuples, sets) and every rule is checked
the obvious way: blocked edges are a set of square pairs, and the path rule runs one
breadth-first search per pawn for every candidate wall.

Coordinates are 0-based ``(col, row)`` with a1 = (0, 0). Seats are the strings
``"north"``, ``"east"``, ``"south"``, ``"west"``. Actions are canonical strings: the
destination square of a move or jump (``"e2"``) or a wall (``"c3h"``, ``"c3v"``).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

Square = tuple[int, int]
Wall = tuple[int, int, str]
Edge = tuple[Square, Square]

SIZES = (5, 7, 9, 11, 13, 15, 17)
CLOCKWISE = ("north", "east", "south", "west")
SEATS_BY_PLAYERS = {2: ("north", "south"), 4: CLOCKWISE}
WALLS_2P = {5: 5, 7: 7, 9: 10, 11: 12, 13: 15, 15: 17, 17: 20}
WALLS_4P = {5: 2, 7: 3, 9: 5, 11: 6, 13: 7, 15: 8, 17: 10}
PROGRESS_WEIGHT_2P = {5: 60, 7: 65, 9: 70, 11: 72, 13: 74, 15: 76, 17: 78}
PROGRESS_WEIGHT_4P = {5: 50, 7: 55, 9: 60, 11: 62, 13: 64, 15: 66, 17: 68}
COLUMNS = "abcdefghijklmnopq"
DIRECTIONS = {"north": (0, 1), "east": (1, 0), "south": (0, -1), "west": (-1, 0)}


class RefIllegal(ValueError):
    """The reference refuses an action (illegal or not canonical notation)."""


def initial_walls(size: int, players: int) -> int:
    return (WALLS_2P if players == 2 else WALLS_4P)[size]


def progress_weight(size: int, players: int) -> int:
    return (PROGRESS_WEIGHT_2P if players == 2 else PROGRESS_WEIGHT_4P)[size]


def format_square(square: Square) -> str:
    return f"{COLUMNS[square[0]]}{square[1] + 1}"


def format_wall(wall: Wall) -> str:
    return f"{COLUMNS[wall[0]]}{wall[1] + 1}{wall[2]}"


def parse_square(text: str, size: int) -> Square:
    if len(text) < 2 or text[0] not in COLUMNS[:size] or not text[1:].isdigit():
        raise RefIllegal(f"{text}: not a square")
    row = int(text[1:]) - 1
    if not 0 <= row < size or text[1] == "0":
        raise RefIllegal(f"{text}: not a square")
    return (COLUMNS.index(text[0]), row)


def parse_wall(text: str, size: int) -> Wall:
    if len(text) < 3 or text[-1] not in "hv":
        raise RefIllegal(f"{text}: not a wall")
    col, row = parse_square(text[:-1], size)
    if col > size - 2 or row > size - 2:
        raise RefIllegal(f"{text}: wall not fully on the board")
    return (col, row, text[-1])


def start_square(seat: str, size: int) -> Square:
    mid = size // 2
    return {"north": (mid, size - 1), "south": (mid, 0), "east": (size - 1, mid),
            "west": (0, mid)}[seat]


def is_goal(seat: str, square: Square, size: int) -> bool:
    col, row = square
    return {"north": row == 0, "south": row == size - 1, "east": col == 0,
            "west": col == size - 1}[seat]


def edge(a: Square, b: Square) -> Edge:
    """The edge between two adjacent squares, the same whichever way it is named."""
    return (a, b) if a < b else (b, a)


def wall_edges(wall: Wall) -> set[Edge]:
    """The two edges a wall blocks: c3v blocks c3|d3 and c4|d4; c3h blocks c3/c4 and d3/d4."""
    col, row, orientation = wall
    if orientation == "v":
        return {edge((col, row), (col + 1, row)), edge((col, row + 1), (col + 1, row + 1))}
    return {edge((col, row), (col, row + 1)), edge((col + 1, row), (col + 1, row + 1))}


def all_walls(size: int) -> list[Wall]:
    return [(c, r, o) for o in "hv" for c in range(size - 1) for r in range(size - 1)]


def neighbours(square: Square, size: int) -> Iterable[Square]:
    for dc, dr in DIRECTIONS.values():
        col, row = square[0] + dc, square[1] + dr
        if 0 <= col < size and 0 <= row < size:
            yield (col, row)


def shortest_distance(seat: str, start: Square, size: int, blocked: set[Edge]) -> int | None:
    """Breadth-first search over squares; pawns never block a path. None if no path."""
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        square, dist = queue.popleft()
        if is_goal(seat, square, size):
            return dist
        for nxt in neighbours(square, size):
            if nxt not in seen and edge(square, nxt) not in blocked:
                seen.add(nxt)
                queue.append((nxt, dist + 1))
    return None


GOAL_FIRST = {"north": ("east", "west", "north", "south"),
              "south": ("east", "west", "south", "north"),
              "east": ("north", "south", "east", "west"),
              "west": ("north", "south", "west", "east")}


def has_path(seat: str, start: Square, size: int, blocked: set[Edge]) -> bool:
    """Depth-first search for any goal square; pawns never block a path.

    The order in which neighbours are tried only changes the speed, never the answer: the
    step towards the goal is tried first (it is pushed last onto the stack).
    """
    seen = {start}
    stack = [start]
    while stack:
        square = stack.pop()
        if is_goal(seat, square, size):
            return True
        for name in GOAL_FIRST[seat]:
            dc, dr = DIRECTIONS[name]
            nxt = (square[0] + dc, square[1] + dr)
            if (0 <= nxt[0] < size and 0 <= nxt[1] < size and nxt not in seen
                    and edge(square, nxt) not in blocked):
                seen.add(nxt)
                stack.append(nxt)
    return False


@dataclass
class RefGame:
    """A position plus the bookkeeping needed to check the SPEC invariants."""

    size: int
    players: int
    first: str
    pawns: dict[str, Square] = field(default_factory=dict)
    walls: list[tuple[Wall, str]] = field(default_factory=list)
    walls_left: dict[str, int] = field(default_factory=dict)
    turn: str | None = None
    winner: str | None = None
    ply: int = 0
    passes: list[tuple[int, str]] = field(default_factory=list)

    @classmethod
    def new(cls, size: int = 9, players: int = 2, first: str = "north") -> RefGame:
        if size not in SIZES or players not in SEATS_BY_PLAYERS:
            raise RefIllegal(f"no {size}x{size} game for {players} players")
        seats = SEATS_BY_PLAYERS[players]
        if first not in seats:
            raise RefIllegal(f"{first} does not play in a {players}-player game")
        game = cls(size, players, first)
        game.pawns = {seat: start_square(seat, size) for seat in seats}
        game.walls_left = {seat: initial_walls(size, players) for seat in seats}
        game.turn = first
        return game

    @classmethod
    def from_moves(cls, size: int, players: int, first: str, moves: Iterable[str]) -> RefGame:
        game = cls.new(size, players, first)
        for text in moves:
            game.play(text)
        return game

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS_BY_PLAYERS[self.players]

    def copy(self) -> RefGame:
        return RefGame(self.size, self.players, self.first, dict(self.pawns), list(self.walls),
                       dict(self.walls_left), self.turn, self.winner, self.ply, list(self.passes))

    def blocked(self) -> set[Edge]:
        result: set[Edge] = set()
        for wall, _owner in self.walls:
            result |= wall_edges(wall)
        return result

    def distance(self, seat: str) -> int | None:
        return shortest_distance(seat, self.pawns[seat], self.size, self.blocked())

    # -- pawn actions -------------------------------------------------------------------
    def on_board(self, square: Square) -> bool:
        return 0 <= square[0] < self.size and 0 <= square[1] < self.size

    def pawn_destinations(self, seat: str) -> dict[Square, bool]:
        """Destination -> is_jump, for the pawn of ``seat``, written from the rule text."""
        blocked = self.blocked()
        occupied = set(self.pawns.values())
        here = self.pawns[seat]
        result: dict[Square, bool] = {}
        for dc, dr in DIRECTIONS.values():
            near = (here[0] + dc, here[1] + dr)
            if not self.on_board(near) or edge(here, near) in blocked:
                continue
            if near not in occupied:
                result[near] = False
                continue
            behind = (near[0] + dc, near[1] + dr)
            if (self.on_board(behind) and edge(near, behind) not in blocked
                    and behind not in occupied):
                result[behind] = True
                continue
            for sc, sr in ((dr, dc), (-dr, -dc)):
                side = (near[0] + sc, near[1] + sr)
                if (self.on_board(side) and edge(near, side) not in blocked
                        and side not in occupied):
                    result[side] = True
        return result

    # -- walls ----------------------------------------------------------------------------
    def wall_conflict(self, wall: Wall) -> str | None:
        """Why a wall may not be placed because of the walls already there (or None)."""
        new_edges = wall_edges(wall)
        for placed, _owner in self.walls:
            if wall_edges(placed) & new_edges:
                return f"overlaps wall {format_wall(placed)}"
            if placed[:2] == wall[:2] and placed[2] != wall[2]:
                return f"crosses wall {format_wall(placed)}"
        return None

    def wall_blocks_someone(self, wall: Wall) -> str | None:
        blocked = self.blocked() | wall_edges(wall)
        for seat in self.seats:
            if not has_path(seat, self.pawns[seat], self.size, blocked):
                return seat
        return None

    def legal_walls(self) -> list[Wall]:
        if self.turn is None or self.walls_left[self.turn] == 0:
            return []
        return [w for w in all_walls(self.size)
                if self.wall_conflict(w) is None and self.wall_blocks_someone(w) is None]

    # -- the whole turn -------------------------------------------------------------------
    def legal_actions(self) -> list[str]:
        """Every legal action of the player to move, as sorted canonical strings."""
        if self.turn is None:
            return []
        steps = [format_square(sq) for sq in self.pawn_destinations(self.turn)]
        walls = [format_wall(w) for w in self.legal_walls()]
        return sorted(set(steps) | set(walls))

    def is_jump(self, text: str) -> bool:
        assert self.turn is not None
        return self.pawn_destinations(self.turn)[parse_square(text, self.size)]

    def has_action(self, seat: str) -> bool:
        if self.pawn_destinations(seat):
            return True
        if self.walls_left[seat] == 0:
            return False
        saved = self.turn
        self.turn = seat
        try:
            return bool(self.legal_walls())
        finally:
            self.turn = saved

    def next_seat(self, seat: str) -> str:
        order = self.seats
        return order[(order.index(seat) + 1) % len(order)]

    def play(self, text: str) -> list[str]:
        """Apply a canonical action; returns the seats that passed afterwards."""
        seat = self.turn
        if seat is None:
            raise RefIllegal(f"{text}: the game is finished")
        if text[-1:] in ("h", "v"):
            wall = parse_wall(text, self.size)
            if self.walls_left[seat] == 0:
                raise RefIllegal(f"{text}: no walls left")
            conflict = self.wall_conflict(wall)
            if conflict:
                raise RefIllegal(f"{text}: {conflict}")
            sealed = self.wall_blocks_someone(wall)
            if sealed:
                raise RefIllegal(f"{text}: would leave {sealed} without a path")
            self.walls.append((wall, seat))
            self.walls_left[seat] -= 1
        else:
            square = parse_square(text, self.size)
            if square not in self.pawn_destinations(seat):
                raise RefIllegal(f"{text}: not a legal move or jump")
            self.pawns[seat] = square
            if is_goal(seat, square, self.size):
                self.winner = seat
        self.ply += 1
        if self.winner is not None:
            self.turn = None
            return []
        passed: list[str] = []
        candidate = self.next_seat(seat)
        for _ in range(self.players):
            if self.has_action(candidate):
                break
            passed.append(candidate)
            self.passes.append((self.ply, candidate))
            candidate = self.next_seat(candidate)
        else:
            raise RefIllegal(f"{text}: no player could act afterwards")
        self.turn = candidate
        return passed


def perft(game: RefGame, depth: int) -> int:
    """Number of legal action sequences of length ``depth`` (0 once the game is over)."""
    if depth == 0:
        return 1
    actions = game.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = game.copy()
        child.play(action)
        total += perft(child, depth - 1)
    return total


def divide(game: RefGame, depth: int) -> dict[str, int]:
    """perft split by first action, keyed by canonical notation."""
    result: dict[str, int] = {}
    for action in game.legal_actions():
        child = game.copy()
        child.play(action)
        result[action] = perft(child, depth - 1)
    return result


def round_half_up(value: Fraction) -> int:
    return int(math.floor(value + Fraction(1, 2)))


def score_game(size: int, players: int, winner: str, distances: dict[str, int],
               walls_placed: dict[str, int], trade_balance: dict[str, int]) -> dict[str, int]:
    """SPEC §6 in exact rational arithmetic."""
    weight = progress_weight(size, players)
    total_walls = initial_walls(size, players)
    base: dict[str, Fraction] = {}
    for seat in distances:
        progress = max(Fraction(0), 1 - Fraction(distances[seat], size - 1))
        walls = max(Fraction(0), 1 - Fraction(walls_placed[seat], total_walls))
        # the weights are points: 0 to 100 before the trade balance
        base[seat] = weight * progress + (100 - weight) * walls + trade_balance[seat]
    final = {seat: round_half_up(value) for seat, value in base.items() if seat != winner}
    best_other = max(final.values())
    final[winner] = max(round_half_up(base[winner]), best_other + 1)
    return final
