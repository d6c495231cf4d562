"""What a bot may know: a seat's view of a game (SPEC §4 and §13), and the position it plays on.

A bot is given either the whole game (an open game, or the analysis of a finished one: an
``engine.GameRecord``, the actions with size/players, or a ``GameState``) or a ``SeatView``:
exactly what its seat sees in the API.

- Masked walls: every wall is on the board, but not who placed it nor how many walls each
  seat has left; the view has ``walls_left = None`` and only ``own_walls_left``.
- Invisible walls: the view holds only the seat's own walls, plus the edges it has bumped
  into (``blocked``, marker notation: ``e4v`` = the edge east of e4), as a player would note
  them, and the actions refused this turn (``refused``), which it does not try again.

``seat_view`` builds the view of one seat from a whole record; the bot never reads more.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from corridorquest.bots.race import replay_with_trails
from corridorquest.engine import (
    GameRecord,
    GameState,
    NotationError,
    Seat,
    Square,
    Wall,
    format_square,
    initial_walls,
    is_under,
    markers_under,
    parse_marker,
    parse_square,
    parse_wall,
)
from corridorquest.engine.board import board_for
from corridorquest.engine.walls import overlap_reason


@dataclass(frozen=True)
class SeatView:
    """One seat's view of a game in play (what the API shows that seat)."""

    size: int
    players: int
    seat: Seat
    first: Seat
    turn: Seat | None
    ply: int
    pawns: Mapping[Seat, str]
    walls: tuple[str, ...]
    own_walls_left: int
    walls_left: Mapping[Seat, int] | None = None  # None: counts are masked
    blocked: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()
    own_walls: tuple[str, ...] = field(default=())  # the seat's own walls (also in walls)
    invisible: bool = False  # walls holds only the seat's own walls
    # the squares the seat's pawn stood on since the last wall was placed, the current one
    # last (``race.trail_from_history``): the bot never steps back onto one to wait
    trail: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "players": self.players,
            "seat": self.seat.value,
            "first": self.first.value,
            "turn": self.turn.value if self.turn else None,
            "ply": self.ply,
            "pawns": {seat.value: square for seat, square in self.pawns.items()},
            "walls": list(self.walls),
            "own_walls_left": self.own_walls_left,
            "walls_left": (
                None
                if self.walls_left is None
                else {seat.value: n for seat, n in self.walls_left.items()}
            ),
            "blocked": list(self.blocked),
            "refused": list(self.refused),
            "own_walls": list(self.own_walls),
            "invisible": self.invisible,
            "trail": list(self.trail),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatView:
        counts = data.get("walls_left")
        return cls(
            size=int(data["size"]),
            players=int(data["players"]),
            seat=Seat(data["seat"]),
            first=Seat(data["first"]),
            turn=Seat(data["turn"]) if data.get("turn") else None,
            ply=int(data.get("ply", 0)),
            pawns={Seat(name): str(square) for name, square in data["pawns"].items()},
            walls=tuple(data.get("walls", ())),
            own_walls_left=int(data["own_walls_left"]),
            walls_left=None if counts is None else {Seat(k): int(n) for k, n in counts.items()},
            blocked=tuple(data.get("blocked", ())),
            refused=tuple(data.get("refused", ())),
            own_walls=tuple(data.get("own_walls", ())),
            invisible=bool(data.get("invisible", False)),
            trail=tuple(data.get("trail", ())),
        )


def seat_view(
    game: GameRecord | GameState,
    seat: Seat,
    *,
    masked: bool = False,
    invisible: bool = False,
    blocked: tuple[str, ...] | list[str] = (),
    refused: tuple[str, ...] | list[str] = (),
    trail: tuple[str, ...] | list[str] = (),
) -> SeatView:
    """What ``seat`` sees of ``game`` during play (SPEC §4), as a bot's input. Of a
    ``GameRecord`` the seat's ``trail`` comes from its actions (every seat sees the pawns'
    steps and that a wall was placed); of a ``GameState``, from ``trail``."""
    if isinstance(game, GameRecord):
        state, trails = replay_with_trails(game)
        trail = trails[seat]
    else:
        state = game
    own = tuple(str(wall) for wall, owner in state.walls if owner is seat)
    walls = own if invisible else tuple(str(wall) for wall, _ in state.walls)
    return SeatView(
        size=state.size,
        players=state.players,
        seat=seat,
        first=state.first,
        turn=state.turn,
        ply=state.ply,
        pawns={s: format_square(square) for s, square in state.pawns.items()},
        walls=walls,
        own_walls_left=state.walls_left[seat],
        walls_left=None if masked else dict(state.walls_left),
        blocked=tuple(blocked),
        refused=tuple(refused),
        own_walls=own,
        invisible=invisible,
        trail=tuple(trail),
    )


def _estimated_counts(view: SeatView) -> dict[Seat, int]:
    """Walls left per seat as the viewer can know or work them out."""
    if view.walls_left is not None:
        counts = dict(view.walls_left)
        counts[view.seat] = view.own_walls_left
        return counts
    start = initial_walls(view.size, view.players)
    others = [seat for seat in view.pawns if seat is not view.seat]
    counts = {view.seat: view.own_walls_left}
    if not view.invisible:
        # masked: every wall is on the board; the others placed those that are not ours
        own_placed = start - view.own_walls_left
        others_left = max(0, start * len(others) - max(0, len(view.walls) - own_placed))
    else:  # masked and invisible: nothing to count by; assume the opponents kept them all
        others_left = start * len(others)
    share, extra = divmod(others_left, len(others))
    for index, seat in enumerate(others):
        counts[seat] = min(start, share + (1 if index < extra else 0))
    return counts


_MAX_TRIES = 256  # positions tried when fitting walls to bumped edges


def _wall_options(view: SeatView, text: str) -> list[Wall]:
    """The walls (on the board) that would cover the bumped edge ``text``."""
    marker = parse_marker(text, view.size)
    if marker.orientation == "v":
        options = [Wall(marker.col, marker.row, "v"), Wall(marker.col, marker.row - 1, "v")]
    else:
        options = [Wall(marker.col, marker.row, "h"), Wall(marker.col - 1, marker.row, "h")]
    return [w for w in options if 0 <= w.col < view.size - 1 and 0 <= w.row < view.size - 1]


def knowledge(view: SeatView) -> GameState:
    """The position as the viewer knows it: its known walls (and bumped edges), estimated counts.

    Each bumped edge that no known wall covers gets one of the two walls that could cover
    it, chosen so that all of them fit together with the known walls and leave every pawn
    a path (the walls that really stand there are such a choice).
    """
    counts = _estimated_counts(view)
    owner = next((seat for seat in view.pawns if seat is not view.seat), view.seat)
    own = set(view.own_walls)
    known = [parse_wall(text, view.size) for text in view.walls]
    data: dict[str, Any] = {
        "size": view.size,
        "players": view.players,
        "first": view.first.value,
        "turn": view.turn.value if view.turn else None,
        "winner": None,
        "ply": view.ply,
        "pawns": {seat.value: square for seat, square in view.pawns.items()},
        "walls": [[str(wall), (view.seat if str(wall) in own else owner).value] for wall in known],
        "walls_left": {seat.value: n for seat, n in counts.items()},
        "passes": [],
    }
    state = GameState.from_dict(data)
    open_edges = [
        marker
        for marker in dict.fromkeys(parse_marker(text, view.size) for text in view.blocked)
        if not is_under(marker, known)
    ]
    if not open_edges:
        return state
    owner_name = owner.value
    board = board_for(view.size)
    h = v = 0
    for wall in known:
        if wall.orientation == "h":
            h |= 1 << board.slot(wall)
        else:
            v |= 1 << board.slot(wall)
    tries = [0]

    def cover(index: int, h: int, v: int, chosen: list[Wall]) -> GameState | None:
        """Walls for the open edges from ``index`` on that fit together and leave paths."""
        while index < len(open_edges) and is_under(open_edges[index], chosen):
            index += 1
        if index == len(open_edges):
            tries[0] += 1
            trial = dict(data)
            trial["walls"] = [*data["walls"], *([str(w), owner_name] for w in chosen)]
            try:
                return GameState.from_dict(trial)
            except ValueError:
                return None
        options = _wall_options(view, str(open_edges[index]))
        # a wall that covers two bumped edges first: likely the wall that stands there
        options.sort(key=lambda wall: -sum(m in markers_under(wall) for m in open_edges))
        for wall in options:
            if tries[0] > _MAX_TRIES or overlap_reason(board, h, v, wall) is not None:
                continue
            bit = 1 << board.slot(wall)
            found = cover(
                index + 1,
                h | bit if wall.orientation == "h" else h,
                v | bit if wall.orientation == "v" else v,
                [*chosen, wall],
            )
            if found is not None:
                return found
        return None

    # the walls that really stand there are one answer, so there is one unless the bumped
    # edges are wrong or the tries run out; then each edge in turn gets a wall that fits
    # with those before it (the bot must never plan a way through an edge it bumped into)
    found = cover(0, h, v, [])
    if found is not None:
        return found
    return _cover_one_by_one(view, data, open_edges, known) or state


def _cover_one_by_one(
    view: SeatView, data: dict[str, Any], open_edges: list[Any], known: list[Wall]
) -> GameState | None:
    """A wall on as many of the bumped ``open_edges`` as fit, one edge after the other."""
    board = board_for(view.size)
    chosen: list[Wall] = []
    best: GameState | None = None
    walls = list(known)
    for marker in open_edges:
        if is_under(marker, walls):
            continue
        for wall in _wall_options(view, str(marker)):
            h = v = 0
            for placed in walls:
                bit = 1 << board.slot(placed)
                if placed.orientation == "h":
                    h |= bit
                else:
                    v |= bit
            if overlap_reason(board, h, v, wall) is not None:
                continue
            trial = dict(data)
            extra = [[str(w), _guess_owner(view)] for w in [*chosen, wall]]
            trial["walls"] = [*data["walls"], *extra]
            try:
                best = GameState.from_dict(trial)
            except ValueError:
                continue
            chosen.append(wall)
            walls.append(wall)
            break
    return best


_BETWEEN = re.compile(r"wall between ([a-z]+[0-9]+) and ([a-z]+[0-9]+)")


def bumped_edge(message: str, size: int) -> str | None:
    """The edge (marker notation) a refused step ran into, from the refusal's message
    ("e6: wall between e5 and e6", as the API tells the seat: squares, never the wall), or
    None. A jump's bump is the edge that stopped it (behind the jumped pawn, say), which the
    squares of the step alone do not tell."""
    found = _BETWEEN.search(message)
    if found is None:
        return None
    try:
        a, b = (parse_square(text, size) for text in found.groups())
    except NotationError:
        return None
    return edge_between(a, b)


def crossed_edges(pawns: Mapping[Seat, Square], pawn: Square, to: Square) -> list[str]:
    """The edges a step from ``pawn`` to ``to`` crosses: one for a move, two for a jump (over
    the pawn it jumps, straight or diagonally)."""
    edge = edge_between(pawn, to)
    if edge is not None:
        return [edge]
    occupied = set(pawns.values())
    middles = [Square((pawn.col + to.col) // 2, (pawn.row + to.row) // 2)]
    if abs(pawn.col - to.col) == 1:  # diagonal: over the pawn beside or ahead
        middles = [Square(pawn.col, to.row), Square(to.col, pawn.row)]
    for middle in middles:
        if middle in occupied:
            first, second = edge_between(pawn, middle), edge_between(middle, to)
            return [e for e in (first, second) if e is not None]
    return []


def _guess_owner(view: SeatView) -> str:
    """Whose a wall the viewer only bumped into is, for the position it plays on."""
    return next((seat for seat in view.pawns if seat is not view.seat), view.seat).value


def edge_between(a: Square, b: Square) -> str | None:
    """The edge (marker notation) between the adjacent squares ``a`` and ``b``, else None."""
    low, high = (a, b) if (a.row, a.col) < (b.row, b.col) else (b, a)
    if low.row == high.row and high.col - low.col == 1:
        return f"{chr(ord('a') + low.col)}{low.row + 1}v"
    if low.col == high.col and high.row - low.row == 1:
        return f"{chr(ord('a') + low.col)}{low.row + 1}h"
    return None
