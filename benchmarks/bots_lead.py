"""The lead-conversion suite of ``benchmarks/bots.py`` (issue 51): ``--tables lead``.

A level that leads a race must win it: no waiting in place while the opponent walks round.

- Positions: from games of the benchmark's round robin between the quick players (``HARVEST``
  pairs, the same openings as the ``rr`` table), the first position of each game where the
  player to move is at least ``LEAD`` steps ahead on distance and holds fewer walls than its
  opponent (each colour of each game at most once).
- Kept: the positions where the depth-3 alpha-beta baseline (``ab3``), playing the leader,
  wins against the depth-2 baseline (``ab2``): a lead a plain search converts.
- Measured: from each kept position, level 6 and level 5 play the leader against ``ab2``;
  the share of positions they convert, and the most times the leader's pawn stood on one
  square while walls were still in hand (pacing shows there).

Games are played from the position with the actions before it, so a bot knows its trail
(``corridorquest.bots.race``). Results go to the ``--results`` file like the other tables.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

LEAD = 6
HARVEST = [("L3", "ab2"), ("L4", "ab2"), ("greedy", "ab2"), ("L4", "greedy"), ("L3", "greedy")]
MEASURED = ["L6", "L5"]


def leading_positions(actions: list[str], size: int) -> list[tuple[int, str]]:
    """``(ply, leader)`` of the first position of each colour where the player to move
    leads by ``LEAD`` steps or more and holds fewer walls."""
    from corridorquest.engine import GameState, Seat

    state = GameState.new(size, 2, Seat.NORTH)
    found: dict[str, int] = {}
    for ply, text in enumerate([*actions, None]):
        me = state.turn
        if me is None or state.winner is not None:
            break
        other = state.next_seat(me)
        if (
            me.value not in found
            and state.distance(other) - state.distance(me) >= LEAD
            and state.walls_left[me] < state.walls_left[other]
        ):
            found[me.value] = ply
        if text is None:
            break
        state.play_notation(text)
    return sorted((ply, seat) for seat, ply in found.items())


def convert(
    act: Any, actions: list[str], size: int, leader: str, name: str, seed: int
) -> dict[str, Any]:
    """``name`` plays ``leader``'s seat from the position after ``actions``, ``ab2`` the
    other; whether it wins, the plies, and its pawn's most visits of one square while any
    wall was in hand."""
    from corridorquest.engine import GameState, Seat

    state = GameState.new(size, 2, Seat.NORTH)
    played = list(actions)
    for text in played:
        state.play_notation(text)
    cap = 4 * size * size
    visits: Counter[str] = Counter()
    while state.winner is None and state.ply < cap:
        seat = state.turn
        assert seat is not None
        who = name if seat.value == leader else "ab2"
        text = act(who, state, seed, played)
        action = state.play_notation(text)
        played.append(text)
        if seat.value == leader and sum(state.walls_left.values()) and not hasattr(action, "wall"):
            visits[str(state.pawns[seat])] += 1
    return {
        "won": state.winner is not None and state.winner.value == leader,
        "plies": state.ply - len(actions),
        "capped": state.winner is None,
        "most_visits": max(visits.values(), default=0),
    }
