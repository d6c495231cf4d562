"""A position of a game and the moves that change it (SPEC §2)."""

from __future__ import annotations

import json
from itertools import compress
from typing import Any

from corridorquest.engine.actions import Action, PlaceWall, Step
from corridorquest.engine.board import Board, MoveMasks, board_for, path_length, reaches
from corridorquest.engine.errors import GameOverError, IllegalActionError, NotationError
from corridorquest.engine.geometry import (
    Seat,
    Square,
    Wall,
    initial_walls,
    is_goal,
    seats_for,
    start_square,
)
from corridorquest.engine.notation import (
    is_square_notation,
    is_wall_notation,
    parse_direction,
    parse_square,
    parse_wall,
)
from corridorquest.engine.steps import explain_illegal_step, legal_steps, wall_between
from corridorquest.engine.walls import (
    cut_off_seats,
    legal_wall_slots,
    overlap_reason,
)

KINDS = ("move", "jump", "wall")
_SEATS = {seat.value: seat for seat in Seat}


def _json_seat(seat: Seat | None) -> str:
    return "null" if seat is None else f'"{seat.value}"'


_KEPT_LENGTHS = 16  # distances a position remembers (those of its last few positions)


class GameState:
    """A position: pawns, walls, walls left, whose turn, winner. Mutable; ``copy()`` is cheap."""

    def __init__(self, size: int, players: int, first: Seat) -> None:
        self.board: Board = board_for(size)
        self.size = size
        self.players = players
        self.seats: tuple[Seat, ...] = seats_for(players)
        if first not in self.seats:
            raise ValueError(f"{first.value}: not a seat of a {players}-player game")
        self.first = first
        self._pos: dict[Seat, int] = {
            seat: self.board.index(start_square(seat, size)) for seat in self.seats
        }
        self._h = 0
        self._v = 0
        self._masks: MoveMasks = self.board.move_masks(0, 0)  # follows _h and _v (_add_wall)
        self.walls: list[tuple[Wall, Seat]] = []
        count = initial_walls(size, players)
        self.walls_left: dict[Seat, int] = {seat: count for seat in self.seats}
        self.turn: Seat | None = first
        self.winner: Seat | None = None
        self.ply = 0
        self.passes: list[tuple[int, Seat]] = []
        # distances computed, by (walls, pawn square, seat): a copy takes them along (the
        # key decides the value), and `copy_for_cache` shares them
        self._lengths: dict[tuple[int, int, int, Seat], int] = {}

    # -- construction -------------------------------------------------------------------

    @classmethod
    def new(cls, size: int = 9, players: int = 2, first: Seat = Seat.NORTH) -> GameState:
        return cls(size, players, first)

    def copy(self) -> GameState:
        other = object.__new__(GameState)
        fields = self.__dict__.copy()  # the rest is immutable or shared (the board)
        fields["_pos"] = self._pos.copy()
        fields["walls"] = self.walls.copy()
        fields["walls_left"] = self.walls_left.copy()
        fields["passes"] = self.passes.copy()
        fields["_lengths"] = self._lengths.copy()
        other.__dict__ = fields
        return other

    def copy_for_cache(self) -> GameState:
        """A copy that also learns the distances worked out on this position from now on
        (they share what they remember): a cache of positions keeps this copy, and whoever
        takes a copy of it later finds the distances that the writer of the position
        worked out after storing it (the move's own answer)."""
        other = self.copy()
        other.__dict__["_lengths"] = self._lengths
        return other

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data; ``GameState.from_dict(state.to_dict())`` is an exact copy."""
        names = self.board.square_names
        return {
            "size": self.size,
            "players": self.players,
            "first": self.first.value,
            "turn": self.turn.value if self.turn else None,
            "winner": self.winner.value if self.winner else None,
            "ply": self.ply,
            "pawns": {seat.value: names[i] for seat, i in self._pos.items()},
            "walls": [[str(wall), seat.value] for wall, seat in self.walls],
            "walls_left": {seat.value: n for seat, n in self.walls_left.items()},
            "passes": [[ply, seat.value] for ply, seat in self.passes],
        }

    def to_json(self) -> str:
        """The text of ``json.dumps(self.to_dict(), separators=(",", ":"))``, written directly.

        Speed: the server stores it on every move. Every value is an int, null or a name of
        letters and digits, so nothing needs escaping; the walls come ready-made from the board.
        """
        try:
            walls = ",".join(map(self.board.wall_json.__getitem__, self.walls))
        except KeyError:  # a wall off this board (no position has one): the general way
            return json.dumps(self.to_dict(), separators=(",", ":"))
        names = self.board.square_names
        pawns = ",".join([f'"{seat.value}":"{names[i]}"' for seat, i in self._pos.items()])
        left = ",".join([f'"{seat.value}":{count}' for seat, count in self.walls_left.items()])
        passes = ",".join([f'[{ply},"{seat.value}"]' for ply, seat in self.passes])
        return (
            f'{{"size":{self.size},"players":{self.players},"first":"{self.first.value}",'
            f'"turn":{_json_seat(self.turn)},"winner":{_json_seat(self.winner)},'
            f'"ply":{self.ply},"pawns":{{{pawns}}},"walls":[{walls}],'
            f'"walls_left":{{{left}}},"passes":[{passes}]}}'
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a position from ``to_dict()`` data; ValueError when it is not a position.

        Checks what must hold in any position: the seats of the variant, pawns on distinct
        squares, walls that fit together, walls left not negative, every pawn with a path.
        """
        try:
            state = cls(int(data["size"]), int(data["players"]), Seat(data["first"]))
            state.turn = Seat(data["turn"]) if data["turn"] else None
            state.winner = Seat(data["winner"]) if data["winner"] else None
            state.ply = int(data["ply"])
            board = state.board
            pawns = {
                Seat(name): parse_square(text, state.size) for name, text in data["pawns"].items()
            }
            # as `_add_wall` would place them, the move masks worked out once at the end
            known = board.wall_actions
            h = v = 0
            for text, seat_name in data["walls"]:
                action = known.get(text)
                wall = action.wall if action is not None else parse_wall(text, state.size)
                overlap = overlap_reason(board, h, v, wall)
                if overlap:
                    raise ValueError(f"wall {wall} {overlap}")
                if wall.orientation == "h":
                    h |= 1 << board.slot(wall)
                else:
                    v |= 1 << board.slot(wall)
                state.walls.append((wall, _SEATS.get(seat_name) or Seat(seat_name)))
            state._h, state._v = h, v
            state._masks = board.move_masks(h, v)
            walls_left = {Seat(name): int(n) for name, n in data["walls_left"].items()}
            state.passes = [(int(ply), Seat(name)) for ply, name in data["passes"]]
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a game position: missing or malformed {error}") from None
        if set(pawns) != set(state.seats) or set(walls_left) != set(state.seats):
            raise ValueError("not a game position: the pawns do not match the seats of the game")
        if len(set(pawns.values())) != len(pawns):
            raise ValueError("not a game position: two pawns on one square")
        if min(walls_left.values()) < 0:
            raise ValueError("not a game position: negative walls left")
        if state.turn is not None and state.turn not in state.seats:
            raise ValueError("not a game position: the turn belongs to no seat of the game")
        state._pos = {seat: board.index(square) for seat, square in pawns.items()}
        state.walls_left = walls_left
        for seat, position in state._pos.items():
            if not reaches(1 << position, board.goal[seat], state._masks, board.stride):
                raise ValueError(f"not a game position: {seat.title} has no path")
        return state

    # -- reading the position -----------------------------------------------------------

    @property
    def pawns(self) -> dict[Seat, Square]:
        square_at = self.board.square_at
        return {seat: square_at[i] for seat, i in self._pos.items()}  # type: ignore[misc]

    @property
    def is_finished(self) -> bool:
        return self.winner is not None

    def seat_at(self, square: Square) -> Seat | None:
        index = self.board.index(square)
        for seat, position in self._pos.items():
            if position == index:
                return seat
        return None

    def distance(self, seat: Seat) -> int:
        """Shortest path length of ``seat``'s pawn to its goal edge (pawns do not block)."""
        key = (self._h, self._v, self._pos[seat], seat)
        known = self._lengths.get(key)
        if known is not None:
            return known
        board = self.board
        steps = path_length(1 << self._pos[seat], board.goal[seat], self._masks, board.stride)
        if steps is None:
            raise AssertionError(f"{seat.title} has no path: the position is corrupt")
        if len(self._lengths) >= _KEPT_LENGTHS:
            self._lengths.clear()
        self._lengths[key] = steps
        return steps

    def next_seat(self, seat: Seat) -> Seat:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    # -- legal actions ------------------------------------------------------------------

    def _occupied(self) -> int:
        bits = 0
        for position in self._pos.values():
            bits |= 1 << position
        return bits

    def _pawn_goals(self) -> list[tuple[int, int]]:
        goal = self.board.goal
        return [(1 << position, goal[seat]) for seat, position in self._pos.items()]

    def legal_steps(self, seat: Seat | None = None) -> list[Step]:
        seat = seat or self.turn
        if seat is None or self.winner is not None:
            return []
        return legal_steps(self.board, self._masks, self._pos[seat], self._occupied())

    def _has_open_move(self, seat: Seat) -> bool:
        """Whether ``seat``'s pawn has a free square next to it with no wall in between."""
        n, s, e, w = self._masks
        stride = self.board.stride
        bit = 1 << self._pos[seat]
        near = ((bit & n) << stride) | ((bit & s) >> stride) | ((bit & e) << 1) | ((bit & w) >> 1)
        return bool(near & ~self._occupied())

    def legal_walls(self, seat: Seat | None = None) -> list[PlaceWall]:
        seat = seat or self.turn
        if seat is None or self.winner is not None or self.walls_left[seat] <= 0:
            return []
        board = self.board
        legal_h, legal_v = legal_wall_slots(board, self._h, self._v, self._pawn_goals())
        walls: list[PlaceWall] = list(
            compress(board.h_actions, map("1".__eq__, bin(legal_h)[:1:-1]))  # type: ignore[arg-type]
        )
        walls += compress(board.v_actions, map("1".__eq__, bin(legal_v)[:1:-1]))  # type: ignore[arg-type]
        return walls

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move; empty when the game is finished."""
        actions: list[Action] = list(self.legal_steps())
        actions += self.legal_walls()
        return actions

    def has_legal_action(self, seat: Seat) -> bool:
        if self.winner is None and self._has_open_move(seat):  # speed: the usual case
            return True
        if self.legal_steps(seat):
            return True
        return bool(self.legal_walls(seat))

    # -- checking and playing -----------------------------------------------------------

    def _add_wall(self, wall: Wall, seat: Seat) -> None:
        bit = 1 << self.board.slot(wall)
        if wall.orientation == "h":
            self._h |= bit
        else:
            self._v |= bit
        self._masks = self.board.move_masks(self._h, self._v)
        self.walls.append((wall, seat))

    def reason_illegal(self, action: Action) -> str | None:
        """None when ``action`` is legal for the player to move, else the reason."""
        if self.winner is not None or self.turn is None:
            return "the game is finished"
        seat = self.turn
        board = self.board
        if isinstance(action, Step):
            if action in self.legal_steps(seat):
                return None
            if not board.on_board(action.to.col, action.to.row):
                return "not a square on the board"
            occupant = {square: s.title for s, square in self.pawns.items()}
            return explain_illegal_step(board, self._masks, self.pawns[seat], action, occupant)
        wall = action.wall
        if not (0 <= wall.col < self.size - 1 and 0 <= wall.row < self.size - 1):
            return "does not fit on the board"
        if self.walls_left[seat] <= 0:
            return f"{seat.title} has no walls left"
        overlap = overlap_reason(board, self._h, self._v, wall)
        if overlap:
            return overlap
        pawns = [(s, 1 << p, board.goal[s]) for s, p in self._pos.items()]
        blocked = cut_off_seats(board, self._h, self._v, wall, pawns)
        if blocked:
            names = " and ".join(s.title for s in blocked)
            return f"would leave {names} without a path"
        return None

    def is_legal(self, action: Action) -> bool:
        return self.reason_illegal(action) is None

    def play(self, action: Action, label: str | None = None) -> list[Seat]:
        """Apply a legal action; return the seats that had to pass after it.

        Raises IllegalActionError (GameOverError when finished) and leaves the state unchanged.
        ``label`` is the notation named in error messages (default: the canonical one).
        """
        name = label if label is not None else str(action)
        if self.winner is not None or self.turn is None:
            raise GameOverError(f"{name}: the game is finished")
        reason = self.reason_illegal(action)
        if reason is not None:
            raise IllegalActionError(f"{name}: {reason}")
        seat = self.turn
        if isinstance(action, Step):
            self._pos[seat] = self.board.index(action.to)
            if is_goal(seat, action.to, self.size):
                self.winner = seat
        else:
            self._add_wall(action.wall, seat)
            self.walls_left[seat] -= 1
        self.ply += 1
        if self.winner is not None:
            self.turn = None
            return []
        return self._advance_turn(seat)

    def _advance_turn(self, seat: Seat) -> list[Seat]:
        passed: list[Seat] = []
        candidate = self.next_seat(seat)
        for _ in range(len(self.seats)):
            if self.has_legal_action(candidate):
                break
            passed.append(candidate)
            self.passes.append((self.ply, candidate))
            candidate = self.next_seat(candidate)
        self.turn = candidate
        return passed

    # -- notation -----------------------------------------------------------------------

    def parse_action(self, text: str, kind: str | None = None) -> Action:
        """Notation -> action for the player to move.

        ``kind`` is "move", "jump", "wall" or None (inferred: wall notation is a wall; a step
        is a move when it lands next to the pawn, else a jump). Raises NotationError for text
        that is no notation, IllegalActionError when a relative direction leads nowhere.
        """
        action = self._parse_canonical(text, kind)
        if action is not None:
            return action
        label = text.strip()
        if kind is not None and kind not in KINDS:
            raise NotationError(f"{kind}: not an action type (move, jump or wall)")
        if not label:
            raise NotationError("empty notation: give a square (e4), a direction or a wall (c3h)")
        if kind == "wall" or (kind is None and is_wall_notation(label)):
            return PlaceWall(parse_wall(label, self.size))
        if is_wall_notation(label):
            raise NotationError(f"{label}: that is a wall; a {kind} needs a square or a direction")
        if self.turn is None:
            raise GameOverError(f"{label}: the game is finished")
        pawn = self.pawns[self.turn]
        delta = parse_direction(label)
        if delta is None:
            if not is_square_notation(label):
                raise NotationError(
                    f"{label}: not a square (e.g. e4) or a direction (e.g. north, up-left)"
                )
            target = parse_square(label, self.size)
            if kind is None:
                distance = abs(target.col - pawn.col) + abs(target.row - pawn.row)
                return Step(target, distance != 1)
            return Step(target, kind == "jump")
        return self._relative_step(label, pawn, delta, kind)

    def _parse_canonical(self, text: str, kind: str | None) -> Action | None:
        """``parse_action`` for the common case, quickly; None when the general way is needed.

        The common case: a square or a wall on the board in canonical notation ("e4", "c3h").
        Anything else, and every error, goes the general way.
        """
        board = self.board
        if kind is None or kind == "wall":
            wall = board.wall_actions.get(text)
            if wall is not None or kind == "wall":
                return wall
        elif kind != "move" and kind != "jump":
            return None
        index = board.square_indexes.get(text)
        if index is None or self.turn is None:
            return None
        if kind is None:
            # next to the pawn: one column (index +-1) or one row (index +-stride) away
            jump = abs(index - self._pos[self.turn]) not in (1, board.stride)
        else:
            jump = kind == "jump"
        return board.jump_actions[text] if jump else board.move_actions[text]

    def _relative_step(
        self, label: str, pawn: Square, delta: tuple[int, int], kind: str | None
    ) -> Step:
        dcol, drow = delta
        if dcol and drow:
            if kind == "move":
                raise IllegalActionError(
                    f"{label}: a move goes one square north, east, south or west; "
                    "a diagonal is only possible as a jump"
                )
            target = Square(pawn.col + dcol, pawn.row + drow)
            if not self.board.on_board(target.col, target.row):
                raise IllegalActionError(f"{label}: {pawn} is at the edge of the board")
            return Step(target, True)
        nearby = Square(pawn.col + dcol, pawn.row + drow)
        if not self.board.on_board(nearby.col, nearby.row):
            raise IllegalActionError(f"{label}: {pawn} is at the edge of the board")
        occupied = self.seat_at(nearby)
        if kind == "move" or (kind is None and occupied is None):
            return Step(nearby, False)
        if occupied is None:
            raise IllegalActionError(f"{label}: no pawn on {nearby} to jump over")
        if wall_between(self.board, self._masks, pawn, nearby):
            raise IllegalActionError(f"{label}: wall between {pawn} and {nearby}")
        beyond = Square(nearby.col + dcol, nearby.row + drow)
        if not self.board.on_board(beyond.col, beyond.row):
            raise IllegalActionError(
                f"{label}: {nearby} is at the edge of the board; jump diagonally instead"
            )
        return Step(beyond, True)

    def play_notation(self, text: str, kind: str | None = None) -> Action:
        """Parse ``text`` and play it; errors name the text as the player typed it."""
        action = self.parse_action(text, kind)
        self.play(action, label=text.strip())
        return action
