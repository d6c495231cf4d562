"""Converting a lead (issue 51): the race with walls in hand, and no waiting in place.

A search on a horizon of a few plies can see no difference between walking on and stepping
aside or back when the opponent's best reply is a wall: the wall lengthens the path from
either square to the same length, so waiting looks free. It is not: an opponent who keeps
that wall and walks instead gains a step for every step the bot waits, and a bot that
waits again on its next turn throws a won race away (level 6 did, 11 steps ahead).

- ``race_margin``: with two players, when the bot is ahead, it compares walking on against
  what the opponent's remaining walls can add: the opponent places them one after the
  other, each where it lengthens the bot's path most (with the paths the walls before it
  left; a pair when no single wall gains, as against a pawn with two ways), every wall
  costing the opponent a turn. A step that does not shorten the bot's path is searched only
  when that race is better after it than after the best step that does (it leaves the
  opponent's walls less to add by more than the step it loses): ``choice._no_waiting``.
- ``trail``: the squares the bot's pawn stood on since the last wall was placed (by
  anyone). Walls are never removed, so a position can only come back while no wall is
  placed; a step back onto such a square repeats the bot's part of a position, and the bot
  never plays one while it has another candidate.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from corridorquest.bots.walls import bits, scored_walls
from corridorquest.engine import (
    GameRecord,
    GameState,
    IllegalActionError,
    PlaceWall,
    Seat,
    Step,
    assign_seats,
    format_square,
)
from corridorquest.engine.board import path_cuts, shortest_layers
from corridorquest.engine.walls import geometric_slots

PAIR_TRIES = 12  # walls tried as the first of a pair when no single wall gains


def _cutting_walls(state: GameState, victim: Seat) -> list[PlaceWall]:
    """The walls that fit on the board and cut one of ``victim``'s shortest paths."""
    board = state.board
    masks, stride = state._masks, board.stride
    layers = shortest_layers(1 << state._pos[victim], board.goal[victim], masks, stride)
    if layers is None:
        return []
    cut_h, cut_v = path_cuts(layers, board.goal[victim], masks, stride)
    legal_h, legal_v = geometric_slots(board, state._h, state._v)
    found: list[PlaceWall] = []
    for slots, actions in ((legal_h & cut_h, board.h_actions), (legal_v & cut_v, board.v_actions)):
        for bit in bits(slots):
            action = actions[bit.bit_length() - 1]
            if action is not None:
                found.append(action)
    return found


def _placed(state: GameState, waller: Seat, wall: PlaceWall) -> GameState | None:
    trial = state.copy()
    trial.turn = waller
    try:
        trial.play(wall)
    except IllegalActionError:  # it would close a pawn's way
        return None
    return trial


def _best_walls(state: GameState, waller: Seat, victim: Seat, left: int) -> list[PlaceWall]:
    """The next wall (or, when no single wall gains, the pair) that lengthens ``victim``'s
    path most; [] when none does."""
    scored = scored_walls(state, waller, victim)
    if scored:
        return [scored[0][2]]
    if left < 2:
        return []
    # the pawn has two shortest ways: a wall on one gains nothing alone, the second one does
    best: tuple[float, list[PlaceWall]] = (0.0, [])
    for first in _cutting_walls(state, victim)[:PAIR_TRIES]:
        trial = _placed(state, waller, first)
        if trial is None:
            continue
        second = scored_walls(trial, waller, victim)
        if second and -second[0][0] > best[0]:
            best = (-second[0][0], [first, second[0][2]])
    return best[1]


def walls_can_add(state: GameState, waller: Seat, victim: Seat) -> tuple[int, int]:
    """``(steps, walls)``: how much ``waller``'s walls in hand lengthen ``victim``'s path
    when placed one after the other, each the one that gains most against ``victim`` with
    the walls placed before it (a pair when no single wall gains), and how many walls that
    takes (a wall that gains nothing is not placed)."""
    trial = state.copy()
    before = trial.distance(victim)
    used = 0
    while used < state.walls_left[waller]:
        walls = _best_walls(trial, waller, victim, state.walls_left[waller] - used)
        if not walls:
            break
        for wall in walls:
            placed = _placed(trial, waller, wall)
            if placed is None:
                break
            trial = placed
            used += 1
        else:
            continue
        break
    return trial.distance(victim) - before, used


def race_margin(state: GameState, me: Seat, step: Step) -> int:
    """The race with walls in hand after ``me`` (to move, two players) plays ``step``: the
    turns by which ``me`` would arrive first (negative: after the opponent) if it walked
    its shortest path from there while the opponent spent its walls in hand on lengthening
    it (``walls_can_add``), each wall a turn the opponent does not walk."""
    child = state.copy()
    child.play(step)
    other = child.turn
    if child.winner is not None or other is None:
        return 1 << 20 if child.winner is me else -(1 << 20)
    added, used = walls_can_add(child, other, me)
    # the opponent moves first from here: it arrives on its turn theirs + used, me on my
    # turn mine + added, which comes after its turn of the same number
    return child.distance(other) + used - (child.distance(me) + added)


def replay_with_trails(record: GameRecord) -> tuple[GameState, dict[Seat, tuple[str, ...]]]:
    """The position after ``record`` and every seat's trail (see the module)."""
    _, first = assign_seats(record.seed, record.players)
    return play_with_trails(GameState.new(record.size, record.players, first), record.actions)


def play_with_trails(
    state: GameState, actions: Iterable[str]
) -> tuple[GameState, dict[Seat, tuple[str, ...]]]:
    """``state`` (played on, not copied) after ``actions``, and every seat's trail: the
    squares its pawn stood on since the last wall, the current one last."""
    trails = {seat: [format_square(square)] for seat, square in state.pawns.items()}
    for text in actions:
        mover = state.turn
        action = state.play_notation(text)
        if not isinstance(action, Step):
            trails = {seat: [format_square(square)] for seat, square in state.pawns.items()}
        elif mover is not None:
            trails[mover].append(format_square(action.to))
    return state, {seat: tuple(trail) for seat, trail in trails.items()}


def trail_from_history(
    history: Sequence[dict[str, object]], seat: Seat, start_square: str
) -> tuple[str, ...]:
    """The trail from a seat's history as the API shows it to that seat (entries with
    ``seat``, ``type`` and ``notation``; an opponent's invisible wall shows as a ``wall``
    entry without notation, which is all the trail needs)."""
    square = start_square
    trail = [square]
    for entry in history:
        kind = entry.get("type")
        if kind == "wall":
            trail = [square]
        elif kind in ("move", "jump") and entry.get("seat") == seat.value:
            square = str(entry.get("notation"))
            trail.append(square)
    return tuple(trail)
