"""Counting legal action sequences (perft), for testing move generation."""

from __future__ import annotations

from corridorquest.engine.state import GameState


def perft(state: GameState, depth: int) -> int:
    """The number of legal action sequences of length ``depth`` from ``state``."""
    if depth <= 0:
        return 1
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = state.copy()
        child.play(action)
        total += perft(child, depth - 1)
    return total


def divide(state: GameState, depth: int) -> list[tuple[str, int]]:
    """(canonical action, count of sequences of ``depth`` starting with it), sorted."""
    rows = []
    for action in state.legal_actions():
        child = state.copy()
        child.play(action)
        rows.append((str(action), perft(child, depth - 1)))
    return sorted(rows)
