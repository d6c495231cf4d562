"""``analyse(record)``: one row per ply of a finished game.

For each ply, from the view of the player who moved:

- ``before``: the static evaluation (`bots.evaluation.value`, in steps) of the position
  the player moved in;
- ``after``: the same evaluation of the position its action left (still the mover's view;
  ±1000 once the game is won or lost);
- ``best``: the action the level-``ANALYSIS_LEVEL`` bot's search chooses in that position,
  without the randomness the level plays with (a level's noise makes it err like a person;
  the analysis wants its best; seed ``ANALYSIS_SEED``: deterministic), and ``best_after``,
  the mover's evaluation after it;
- ``mistake``: the action lost much: the best action would have kept at least
  ``MISTAKE_DROP`` steps more (``best_after >= after + MISTAKE_DROP``) *and* the
  evaluation dropped (``after < before``), or the best action won at once (a missed win
  is a mistake whatever the action). A forced loss (every action drops alike) is not a
  mistake; a wall the search prefers to a step that looks better statically is not either
  unless the position got worse.

A plain step along a shortest path keeps the evaluation (the mover gains a step and
hands the tempo over); a step back loses about one round per step; a wall spent for
nothing loses its worth in hand (0.75 steps or less); a race handed over loses 500 and
more. 1.5 steps is "a step back and more", or a decided race given away.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from corridorquest.bots import choose, level_for
from corridorquest.bots.evaluation import WIN, value
from corridorquest.engine import GameRecord, GameState, Seat

ANALYSIS_LEVEL = 3  # the bot level of the best action: sees the opponent's reply, fast
ANALYSIS_SEED = 0  # the bot's seed: a fixed seed, the same analysis every time
MISTAKE_DROP = 1.5  # steps


@dataclass(frozen=True)
class PlyAnalysis:
    ply: int  # 1-based
    seat: str  # the seat that moved (its name: "south", ...)
    action: str
    before: float
    after: float
    best: str
    best_after: float
    mistake: bool

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _round(number: float) -> float:
    return round(number, 2)


def _start(record: GameRecord | Mapping[str, Any]) -> tuple[GameState, Sequence[str]]:
    if isinstance(record, GameRecord):
        return record.replay(0), record.actions
    actions = list(record.get("actions", ()))
    if "first" in record:
        state = GameState.new(int(record["size"]), int(record["players"]), Seat(record["first"]))
        return state, actions
    game = GameRecord(int(record["size"]), int(record["players"]), int(record.get("seed", 0)),
                      actions)
    return game.replay(0), actions


def analyse(
    record: GameRecord | Mapping[str, Any], level: int = ANALYSIS_LEVEL
) -> list[PlyAnalysis]:
    """One `PlyAnalysis` per action of `record` (an `engine.GameRecord`, or a mapping with
    `size`, `players`, `actions` and `first` (a seat name) or `seed`), in order.

    Raises `engine.EngineError` (`ReplayError`, `IllegalActionError`, `NotationError`) on an
    action the rules refuse; `ValueError` on a level outside 1..6.
    """
    search = level_for(level)._replace(noise=0.0)
    state, actions = _start(record)
    rows: list[PlyAnalysis] = []
    for ply, text in enumerate(actions, start=1):
        me = state.turn
        if me is None:
            raise ValueError(f"ply {ply}: {text} after the end of the game")
        before = value(state, me)
        best = choose(state, search, ANALYSIS_SEED)
        if best == text:
            state.play_notation(text)
            after = best_after = value(state, me)
        else:
            trial = state.copy()
            trial.play_notation(best)
            best_after = value(trial, me)
            state.play_notation(text)
            after = value(state, me)
        missed_win = best_after >= WIN and after < WIN
        mistake = best_after >= after + MISTAKE_DROP and (after < before or missed_win)
        rows.append(PlyAnalysis(ply, me.value, text, _round(before), _round(after), best,
                                _round(best_after), mistake))
    return rows
