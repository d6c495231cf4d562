"""Long game records in the common notation, made with the engine (imports' limits, the
replay cache, benchmarks/import_load.py): the first mover (south, on e1) and the others
step back and forth for a while, then everybody runs to its goal."""

from __future__ import annotations

from corridorquest.engine import GameState, Seat, Step


def _closest(state: GameState) -> Step:
    """The step that brings the player to move closest to its goal (first such, stable)."""
    seat = state.turn
    assert seat is not None
    scored = []
    for step in state.legal_steps():
        after = state.copy()
        after.play(step)
        scored.append((0 if after.winner == seat else after.distance(seat), str(step.to), step))
    return min(scored)[2]


def _away(state: GameState) -> Step:
    """A step that leaves the player to move farthest from its goal (back and forth)."""
    seat = state.turn
    assert seat is not None
    scored = [
        (-_after(state, step).distance(seat), str(step.to), step) for step in state.legal_steps()
    ]
    return min(scored)[2]


def _after(state: GameState, step: Step) -> GameState:
    after = state.copy()
    after.play(step)
    return after


def long_record(size: int, actions: int, finish: bool = True) -> tuple[str, GameState]:
    """A record of `size` (2 players, plain movetext with a Size tag): without `finish`,
    exactly `actions` actions back and forth; with it, at most `actions` and at least
    `actions` - 3, the last of which win the game. Returns the text and the final
    position."""
    state = GameState.new(size, 2, Seat.SOUTH)
    home_run = state.copy()
    while not home_run.is_finished:
        home_run.play(_closest(home_run))
    run = home_run.ply if finish else 0  # both at home: the actions that finish the game
    steps: list[Step] = []
    cycles = (actions - run) // 4 if finish else actions
    while len(steps) < (cycles * 4 if finish else actions):
        # back and forth: two actions of each side bring both home again
        step = _closest(state) if len(steps) % 4 < 2 else _away(state)
        state.play(step)
        steps.append(step)
    while finish and not state.is_finished:
        step = _closest(state)
        state.play(step)
        steps.append(step)
    words = []
    for index, step in enumerate(steps):
        if index % 2 == 0:
            words.append(f"{index // 2 + 1}.")
        words.append(str(step.to))
    lines = [" ".join(words[i : i + 24]) for i in range(0, len(words), 24)]
    return f'[Size "{size}"]\n' + "\n".join(lines) + "\n", state
