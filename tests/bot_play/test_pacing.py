"""The pace of games of bots only (BOTS_ONLY_PACE), on the driver's clock: which games
wait, and how long (the real server's pace is in test_driver.py)."""

from __future__ import annotations

from corridorquest.bot_play.pacing import BotsOnlyPace


def view(*names: str, bots: tuple[str, ...]) -> dict:
    return {"seats": [{"seat": i, "username": n} for i, n in enumerate(names)],
            "bots": {name: {"level": 1} for name in bots}}


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


BOTS = view("bot-1", "bot-2", "bot-3", "bot-4", bots=("bot-1", "bot-2", "bot-3", "bot-4"))
MIXED = view("bot-1", "ann", "bot-3", "bot-4", bots=("bot-1", "bot-3", "bot-4"))


def test_a_game_of_bots_only_waits_the_rest_of_the_pace_after_its_last_move() -> None:
    clock = Clock()
    pace = BotsOnlyPace(1.5, clock)
    assert pace.wait(7, BOTS) == 0.0  # no move played here yet: at once
    pace.played(7, BOTS)
    assert pace.wait(7, BOTS) == 1.5
    clock.now += 1.0
    assert pace.wait(7, BOTS) == 0.5
    clock.now += 2.0
    assert pace.wait(7, BOTS) == 0.0
    assert pace.wait(8, BOTS) == 0.0  # another game: its own pace


def test_a_game_with_a_person_in_it_and_a_pace_of_0_never_wait() -> None:
    clock = Clock()
    mixed, unpaced = BotsOnlyPace(1.5, clock), BotsOnlyPace(0.0, clock)
    for pace, shown in ((mixed, MIXED), (unpaced, BOTS)):
        pace.played(7, shown)
        assert pace.wait(7, shown) == 0.0
