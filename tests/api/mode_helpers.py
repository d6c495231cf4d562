"""Helpers for the wall-mode tests: games played through the API with a full-knowledge mirror.

The test knows every action it plays, so it keeps the true position in an engine
`GameState` (the mirror) even when the server hides walls from every viewer; actions are
chosen from the mirror, so they are always legal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from corridorquest.engine import GameState, PlaceWall, Seat, Step, markers_under
from tests.support.games import play, started_game

Json = dict[str, Any]


@dataclass
class Match:
    """A started game, its players' tokens by seat and the true position."""

    game: Json
    by_seat: dict[str, str]  # seat -> token
    names: dict[str, str]  # seat -> username
    mirror: GameState
    walls_by_seat: dict[str, list[str]] = field(default_factory=dict)

    @property
    def id(self) -> int:
        return int(self.game["id"])

    def token_to_move(self) -> str:
        assert self.mirror.turn is not None
        return self.by_seat[self.mirror.turn.value]

    def others(self, seat: str) -> list[str]:
        return [s for s in self.by_seat if s != seat]


def start(client: httpx.Client, tokens: dict[str, str], **options: Any) -> Match:
    """A started game of `tokens` (name -> token; the first creates)."""
    game = started_game(client, tokens, **options)
    by_seat = {s["seat"]: tokens[s["username"]] for s in game["seats"]}
    names = {s["seat"]: s["username"] for s in game["seats"]}
    mirror = GameState.new(size=game["size"], players=game["players"], first=Seat(game["turn"]))
    return Match(game, by_seat, names, mirror, {seat: [] for seat in by_seat})


def act(client: httpx.Client, match: Match, kind: str, to: str) -> Json:
    """Play for the seat to move (must be accepted) and mirror it."""
    response = play(client, match.token_to_move(), match.id, kind, to)
    assert response.status_code == 201, response.text
    seat = match.mirror.turn
    assert seat is not None
    match.mirror.play_notation(to, kind)
    if kind == "wall":
        match.walls_by_seat[seat.value].append(to)
    match.game = response.json()
    return match.game


def best_step(state: GameState) -> Step:
    """The step that brings the player to move closest to its goal (first such, stable)."""
    seat = state.turn
    assert seat is not None
    scored = []
    for step in state.legal_steps():
        after = state.copy()
        after.play(step)
        scored.append((0 if after.winner == seat else after.distance(seat), str(step.to), step))
    return min(scored)[2]


def pick_wall(state: GameState, avoid: frozenset[str]) -> str | None:
    """A legal wall of the player to move (deterministic) that is not and does not cover
    any edge named in `avoid` (e.g. markers the test placed)."""
    walls = [
        str(w.wall)
        for w in state.legal_walls()
        if isinstance(w, PlaceWall)
        and str(w.wall) not in avoid
        and not {str(m) for m in markers_under(w.wall)} & avoid
    ]
    return walls[len(walls) // 3] if walls else None


def play_out(
    client: httpx.Client,
    match: Match,
    walls_each: int = 1,
    after_each: Callable[[Match], None] | None = None,
    max_actions: int = 200,
    avoid: frozenset[str] = frozenset(),
) -> Json:
    """Each seat places `walls_each` walls, then runs to its goal; until someone wins."""
    for _ in range(max_actions):
        state = match.mirror
        if state.is_finished:
            return match.game
        seat = state.turn
        assert seat is not None
        wall = None
        if len(match.walls_by_seat[seat.value]) < walls_each:
            wall = pick_wall(state, avoid)
        if wall is not None:
            act(client, match, "wall", wall)
        else:
            step = best_step(state)
            act(client, match, "jump" if step.jump else "move", str(step.to))
        if after_each is not None:
            after_each(match)
    raise AssertionError(f"game {match.id} did not finish in {max_actions} actions")
