"""The static evaluation: a race in plies, walls in hand, tempo, and races already decided.

Every pawn's race time is the ply at which it would arrive if everybody just walked:
``(distance - 1) * players + turns until it moves`` (so who moves next, the tempo, counts).
With four players a pawn's distance counts one step more for each wall (at most three) held
by the seat just before it: that seat is the only one that can still wall the pawn on its
last step, and does (``search.modelled_action``); not, though, a pawn within two steps of
its goal that no wall of that seat can lengthen any more. With four players, too, a race
that the bot's successor leads while the bot holds no wall is lost: nobody else can wall
that seat's last steps.
The value for ``me`` is the lead over the fastest opponent in rounds, plus the walls in hand
(each worth a little less than the one before), minus a hair of the own distance so that,
all else equal, the bot walks towards its goal (it never paces back and forth).

A race is decided when every seat but the leader has no walls left: nobody can stop the
leader any more (pawns that block each other are not counted).
"""

from __future__ import annotations

from corridorquest.bots.walls import scored_walls
from corridorquest.engine import GameState, Seat

WIN = 1000.0
DECIDED = 500.0
WALL_STEP = 1.6  # value of the last wall in hand, in steps (the first of ten: 0.62)
WALL_DECAY = 0.9  # each further wall in hand is worth this much of the one before
PROGRESS = 0.01  # all else equal, a shorter own path is better
# 4 players: each wall in hand of the seat just before a pawn delays that pawn's arrival by
# this many steps, for at most GUARD_WALLS walls (2 players: never; the same 2-player play)
GUARD_DELAY = 1.0
GUARD_WALLS = 3
# 4 players: a pawn this near its goal that no wall of its guard lengthens is not delayed
UNSTOPPABLE_NEAR = 2


def wall_value(walls: int) -> float:
    return WALL_STEP * (1 - WALL_DECAY**walls) / (1 - WALL_DECAY)


def race_times(state: GameState) -> dict[Seat, float]:
    seats = state.seats
    count = len(seats)
    turn = state.turn if state.turn is not None else seats[0]
    start = seats.index(turn)
    left = state.walls_left
    times = {}
    for index, seat in enumerate(seats):
        distance = state.distance(seat)
        guard = seats[index - 1]
        delay = guard_delay(left[guard], count)
        if delay and distance <= UNSTOPPABLE_NEAR and not scored_walls(state, guard, seat):
            delay = 0  # no wall of its guard lengthens its path: it cannot be stopped
        times[seat] = (distance - 1 + delay) * count + (index - start) % count
    return times


def guard_delay(walls: int, players: int) -> float:
    """The steps by which ``walls`` in hand of the seat just before a pawn delay it."""
    if players == 2:
        return 0
    return GUARD_DELAY * min(walls, GUARD_WALLS)


def value(state: GameState, me: Seat) -> float:
    """The position's value for ``me``, in steps (positive = better)."""
    if state.winner is not None:
        return WIN if state.winner is me else -WIN
    times = race_times(state)
    count = len(times)
    left = state.walls_left
    leader = min(times, key=times.__getitem__)
    if all(left[seat] == 0 for seat in times if seat is not leader):
        if leader is me:
            second = min(t for seat, t in times.items() if seat is not me)
            return DECIDED + (second - times[me]) / count
        return -DECIDED - (times[me] - times[leader]) / count
    if count == 4 and left[me] == 0:
        # only the bot can wall its successor's last steps: without a wall, a race its
        # successor leads is lost
        successor = state.next_seat(me)
        if times[successor] < times[me]:
            return -DECIDED - (times[me] - times[successor]) / count
    others = [seat for seat in times if seat is not me]
    lead = (min(times[seat] for seat in others) - times[me]) / count
    walls = wall_value(left[me]) - sum(wall_value(left[seat]) for seat in others) / len(others)
    return lead + walls - PROGRESS * state.distance(me)
