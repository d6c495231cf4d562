"""Rules-engine speed: listing legal actions, validating moves and walls, random self-play.

    python benchmarks/engine.py [--moves "e8 e2 ..."] [--repeat N]

Prints ``name=value`` lines. The position is a 9x9 2-player game in which North moves first,
after MOVES (default: a fixed mid-game with 8 walls). Every listing is computed afresh.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from corridorquest.engine import GameState, PlaceWall, Seat, Step

MIDGAME = "e8 e2 e7 e3 c6h f3h e6 e4 d4v g6v b3h e4h f6 e3 c5h h6h"


def median_us(function: Callable[[], object], repeat: int, inner: int = 20) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        for _ in range(inner):
            function()
        samples.append((time.perf_counter_ns() - start) / inner / 1000)
    return statistics.median(samples)


def position(moves: str) -> GameState:
    state = GameState.new(9, 2, Seat.NORTH)
    for text in moves.split():
        state.play_notation(text)
    return state


def self_play_plies_per_second(size: int, players: int, seconds: float, seed: int = 7) -> float:
    rng = random.Random(seed)
    plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = GameState.new(size, players, Seat.NORTH)
        while not state.is_finished and state.ply < 400:
            actions = state.legal_actions()
            state.play(actions[rng.randrange(len(actions))])
            plies += 1
    return plies / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", default=MIDGAME, help="actions from the start, North first")
    parser.add_argument("--repeat", type=int, default=200, help="samples per median")
    parser.add_argument("--seconds", type=float, default=3.0, help="self-play time per variant")
    args = parser.parse_args()

    state = position(args.moves)
    actions = state.legal_actions()
    walls = sum(1 for action in actions if isinstance(action, PlaceWall))
    print(f"position_walls_on_board={len(state.walls)}")
    print(f"legal_actions={len(actions)} legal_walls={walls}")
    print(f"legal_actions_us={median_us(state.legal_actions, args.repeat):.1f}")

    step = next(action for action in actions if isinstance(action, Step))
    wall = next(action for action in actions if isinstance(action, PlaceWall))

    def play_step() -> None:
        state.copy().play(step)

    def play_wall() -> None:
        state.copy().play(wall)

    print(f"validated_move_us={median_us(play_step, args.repeat):.1f}")
    print(f"validated_wall_us={median_us(play_wall, args.repeat):.1f}")
    for size, players in ((9, 2), (17, 4)):
        rate = self_play_plies_per_second(size, players, args.seconds)
        print(f"self_play_plies_per_s_{size}x{size}_{players}p={rate:.0f}")


if __name__ == "__main__":
    main()
