"""Seat assignment from a seed, and game records that replay deterministically."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from corridorquest.engine.errors import EngineError, ReplayError
from corridorquest.engine.geometry import Seat, check_variant, seats_for
from corridorquest.engine.state import GameState


def assign_seats(seed: int, players: int) -> tuple[list[Seat], Seat]:
    """(seats, first): ``seats[i]`` is the seat of the i-th player in join order.

    Deterministic for a seed (the engine has no randomness of its own).
    """
    check_variant(9, players)
    rng = random.Random(seed)
    seats = list(seats_for(players))
    rng.shuffle(seats)
    return seats, rng.choice(seats_for(players))


@dataclass
class GameRecord:
    """A game as its seed and its ordered actions in canonical notation."""

    size: int
    players: int
    seed: int
    actions: list[str] = field(default_factory=list)

    def replay(self, upto: int | None = None) -> GameState:
        """The position after the first ``upto`` actions (all by default), checking each step."""
        try:
            check_variant(self.size, self.players)
        except ValueError as error:
            raise ReplayError(f"record: {error}") from None
        _, first = assign_seats(self.seed, self.players)
        state = GameState.new(self.size, self.players, first)
        for number, text in enumerate(self.actions[:upto], start=1):
            try:
                state.play_notation(text)
            except EngineError as error:
                raise ReplayError(f"step {number}: {error}") from None
        return state

    def to_dict(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "players": self.players,
            "seed": self.seed,
            "actions": list(self.actions),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        return cls(
            int(data["size"]), int(data["players"]), int(data["seed"]), list(data["actions"])
        )
