"""``choose`` and ``evaluate`` (SPEC §13): the bot's action and its view of a position."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from corridorquest.bots.evaluation import value
from corridorquest.bots.levels import Level, level_for
from corridorquest.bots.race import play_with_trails, race_margin, replay_with_trails
from corridorquest.bots.search import (
    Action,
    ModelSearch,
    Search,
    candidates,
    distance_after,
    ordered_steps,
    root_walls,
)
from corridorquest.bots.view import SeatView, crossed_edges, knowledge
from corridorquest.engine import (
    GameRecord,
    GameState,
    IllegalActionError,
    NotationError,
    Seat,
    format_action,
    format_square,
    is_goal,
)

Record = GameRecord | GameState | SeatView | Mapping[str, Any]

# From ply ONWARD_AFTER * size² on, a bot only walks forward or places a wall: two bots
# that each wait for the other to spend its walls would otherwise pace back and forth for
# good (level 4 against level 5 did, 9 games of 480 past 4·size² plies).
ONWARD_AFTER = 2


def position_of(record: Record) -> tuple[GameState, tuple[str, ...]]:
    """The position the bot plays on, and the actions it must not try (refused already).

    ``record``: a ``SeatView`` (what one seat sees), an ``engine.GameRecord``, a
    ``GameState``, or a mapping with ``size``, ``players``, ``actions`` and ``first`` (a seat
    name) or ``seed`` (as the record's).
    """
    if isinstance(record, SeatView):
        return knowledge(record), record.refused
    if isinstance(record, GameState):
        return record, ()
    if isinstance(record, GameRecord):
        return record.replay(), ()
    if isinstance(record, Mapping):
        actions: Sequence[str] = record.get("actions", ())
        if "first" in record:
            state = GameState.new(
                int(record["size"]), int(record["players"]), Seat(record["first"])
            )
            for text in actions:
                state.play_notation(text)
            return state, ()
        game = GameRecord(
            int(record["size"]), int(record["players"]), int(record.get("seed", 0)), list(actions)
        )
        return game.replay(), ()
    raise TypeError(f"{type(record).__name__}: not a game record, position or seat view")


def trail_of(record: Record, seat: Seat) -> tuple[str, ...]:
    """The squares ``seat``'s pawn stood on since the last wall (``race``): from the
    record's actions or the seat view; a bare ``GameState`` has no history (empty)."""
    if isinstance(record, SeatView):
        return record.trail
    if isinstance(record, GameRecord):
        return replay_with_trails(record)[1].get(seat, ())
    if isinstance(record, Mapping) and record.get("actions"):
        if "first" in record:
            size, players = int(record["size"]), int(record["players"])
            start = GameState.new(size, players, Seat(record["first"]))
            return play_with_trails(start, record["actions"])[1].get(seat, ())
        game = GameRecord(
            int(record["size"]),
            int(record["players"]),
            int(record.get("seed", 0)),
            list(record["actions"]),
        )
        return replay_with_trails(game)[1].get(seat, ())
    return ()


def _no_waiting(
    state: GameState, me: Seat, moves: list[Action], trail: tuple[str, ...]
) -> list[Action]:
    """``moves`` without the steps that wait (``race``).

    - A step back onto a square of the trail repeats the bot's part of a position: never
      (unless nothing else is left).
    - Two players, the bot ahead (a shorter path) and the opponent holding walls: a step
      that does not shorten the bot's path is kept only when the race with walls in hand
      after it is better than after the best step that does (it leaves the opponent's
      walls less to add by more than the step it loses).
    """
    stood = set(trail[:-1])
    kept = [
        action
        for action in moves
        if hasattr(action, "wall") or format_square(action.to) not in stood
    ]
    moves = kept or moves
    if len(state.seats) != 2:
        return moves
    other = state.next_seat(me)
    if state.walls_left[other] <= 0 or state.distance(me) >= state.distance(other):
        return moves
    here = state.distance(me)
    steps = [action for action in moves if not hasattr(action, "wall")]
    onward = [step for step in steps if distance_after(state, me, step) < here]
    waiting = [step for step in steps if step not in onward]
    if not onward or not waiting:
        return moves
    best = max(race_margin(state, me, step) for step in onward)
    dropped = {id(step) for step in waiting if race_margin(state, me, step) <= best}
    return [action for action in moves if id(action) not in dropped]


def _rng(seed: int, state: GameState) -> random.Random:
    return random.Random(f"corridorquest-bot:{seed}:{state.ply}:{state.turn}")


def _level_one(
    state: GameState, me: Seat, moves: list[Action], rng: random.Random, budget: Level
) -> Action:
    """Level 1: walks along a shortest path; now and then (``wall_chance``) a random wall
    near the opponent, badly placed as often as not. Without walls in hand it just walks."""
    steps = [action for action in moves if not hasattr(action, "wall")]
    walls = [action for action in moves if hasattr(action, "wall")]
    if walls and rng.random() < budget.wall_chance:
        near = []
        for seat, square in state.pawns.items():
            if seat is me:
                continue
            near += [
                w
                for w in walls
                if abs(w.wall.col - square.col) <= 2 and abs(w.wall.row - square.row) <= 2
            ]
        return rng.choice(near or walls)
    return steps[0] if steps else rng.choice(moves)  # ordered: the shortest-path step first


def _onward(state: GameState, me: Seat, moves: list[Action]) -> list[Action]:
    """``moves`` but the steps that do not bring ``me`` nearer its goal (all of them if
    none is left: a pawn in the way)."""
    here = state.distance(me)
    onward = [
        action
        for action in moves
        if hasattr(action, "wall") or distance_after(state, me, action) < here
    ]
    return onward or moves


def choose(record: Record, level: int | Level, seed: int) -> str:
    """The action (canonical notation) of the player to move, at ``level`` (1-6, or a
    ``Level`` budget of its own, as the analysis's search without noise).

    Pure and deterministic: the same record, level and seed give the same action. With a
    ``SeatView`` the bot knows only what that seat sees (SPEC §4).
    """
    budget = level if isinstance(level, Level) else level_for(level)
    walks_only = budget.nodes == 0  # level 1: no search
    state, refused = position_of(record)
    if state.turn is None or state.winner is not None:
        raise IllegalActionError("the game is finished: no action to choose")
    me = state.turn
    if isinstance(record, SeatView) and record.seat is not me:
        raise IllegalActionError(f"it is {me.title}'s turn, not {record.seat.title}'s")
    banned = set(refused)
    rng = _rng(seed, state)
    if walks_only:
        moves = [*ordered_steps(state, me), *state.legal_walls(me)]
    else:
        moves = candidates(state, me, root_walls(budget, len(state.seats)))
    blocked = set(record.blocked) if isinstance(record, SeatView) else set()
    pawn = state.pawns[me]

    def allowed(action: Action) -> bool:
        if format_action(action) in banned:
            return False
        if hasattr(action, "wall") or not blocked:
            return True
        # never into an edge it bumped into, by a move or a jump
        return blocked.isdisjoint(crossed_edges(state.pawns, pawn, action.to))

    moves = [action for action in moves if allowed(action)]
    if not moves:  # every candidate refused: any legal action not refused yet
        moves = [action for action in state.legal_actions() if allowed(action)]
    if not moves:
        raise IllegalActionError(f"{me.title} has no legal action left to try")
    for action in moves:  # a step onto the goal wins at once
        if not hasattr(action, "wall") and is_goal(me, action.to, state.size):
            return format_action(action)
    if walks_only:
        return format_action(_level_one(state, me, moves, rng, budget))
    if state.ply >= ONWARD_AFTER * state.size**2:
        moves = _onward(state, me, moves)
    moves = _no_waiting(state, me, moves, trail_of(record, me))
    if len(moves) == 1:
        return format_action(moves[0])
    searcher = Search if len(state.seats) == 2 else ModelSearch
    return format_action(searcher(me, budget, rng).root(state, moves))


def evaluate(record: Record) -> float:
    """The position's value for the player to move, in steps (positive = better).

    Static: the race lead over the fastest opponent (who moves next counts), walls in hand,
    and races already decided (±500 and more); ±1000 for a finished game, from the view of
    the seat that would move (the winner's last opponent to move: negative).
    """
    state, _ = position_of(record)
    if state.turn is None:
        winner = state.winner
        assert winner is not None
        # the finished game from the view of the seat after the winner: it has lost
        return value(state, state.next_seat(winner))
    return value(state, state.turn)


__all__ = ["NotationError", "choose", "evaluate", "position_of"]
