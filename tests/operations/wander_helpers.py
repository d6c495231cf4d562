"""Games that go on for as long as a test needs: legal actions that never win.

`WanderingGame` is a started 2-player game with the true position kept in an engine
`GameState` (the test plays every action); `next_action` picks a legal action that does
not end the game (a step away from the goal, or now and then a wall), so a load test can
play one game for thousands of actions. `stored_games_replay` checks every stored game
against the engine.
"""

from __future__ import annotations

import random

import httpx

from corridorquest.engine import GameState, Seat
from corridorquest.store import Store
from corridorquest.store.check import CheckReport, check_games
from tests.support.games import history, play, started_game


class WanderingGame:
    """A started 2-player game, its players' tokens by seat and the true position."""

    def __init__(
        self, client: httpx.Client, tokens: dict[str, str], size: int = 9, seed: int = 0
    ) -> None:
        game = started_game(client, tokens, size=size)
        self.id = int(game["id"])
        self.by_seat = {s["seat"]: tokens[s["username"]] for s in game["seats"]}
        self.any_token = next(iter(tokens.values()))
        self.state = GameState.new(size=size, players=2, first=Seat(game["turn"]))
        self.played: list[str] = []  # accepted (201) actions, in order
        self.rng = random.Random(seed)

    def next_action(self, wall_share: float = 0.1) -> tuple[str, str, str]:
        """(token, kind, notation) of a legal action that does not win."""
        state = self.state
        seat = state.turn
        assert seat is not None
        if state.walls_left[seat] and self.rng.random() < wall_share:
            walls = state.legal_walls()
            if walls:
                wall = walls[self.rng.randrange(len(walls))]
                return self.by_seat[seat.value], "wall", str(wall.wall)
        steps = []
        for step in state.legal_steps():
            after = state.copy()
            after.play(step)
            steps.append((after.winner is not None, -after.distance(seat), str(step.to), step))
        step = min(steps)[3]
        return self.by_seat[seat.value], "jump" if step.jump else "move", str(step.to)

    def accepted(self, kind: str, notation: str) -> None:
        self.state.play_notation(notation, kind)
        self.played.append(notation)

    def move(self, client: httpx.Client) -> httpx.Response:
        """Play the next action; mirror it when it was accepted."""
        token, kind, notation = self.next_action()
        response = play(client, token, self.id, kind, notation)
        if response.status_code == 201:
            self.accepted(kind, notation)
        return response

    def stored_actions(self, client: httpx.Client) -> list[str]:
        return [action["notation"] for action in history(client, self.any_token, self.id)]


def stored_games_replay(database_url: str) -> int:
    """Replay every started (and finished) game's stored actions through the engine, as
    `corridorquest check` does (store/check.py), and check that the result is the stored
    position; returns how many games were checked."""
    store = Store.open(database_url, pool_size=1, migrate=False)
    try:
        report = CheckReport()
        store.run(check_games, report)
    finally:
        store.close()
    assert not report.broken, report.broken
    return report.games
