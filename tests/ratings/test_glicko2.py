"""Glicko-2 against Mark Glickman's worked example ("Example of the Glicko-2 system")."""

from __future__ import annotations

from datetime import timedelta

import pytest

from corridorquest.ratings import glicko2
from corridorquest.ratings.glicko2 import Glicko


def test_glickmans_worked_example() -> None:
    player = Glicko(1500, 200, 0.06)
    results = [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)]
    after = glicko2.rate(player, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    # the paper prints 0.05999, its digits cut off: 0.0599959...
    assert after.volatility == pytest.approx(0.059996, abs=0.000001)
    assert str(after.volatility).startswith("0.05999")


def test_volatility_uses_the_deviation_not_the_rating() -> None:
    """Away from 1500 (the bug of PyPI's glicko2 2.1.0): a player rated 1700 who loses
    as expected keeps a volatility close to where it was."""
    after = glicko2.rate(Glicko(1700, 200, 0.06), [(Glicko(1900, 50), 0.0)], tau=0.5)
    assert after.volatility == pytest.approx(0.06, abs=0.0005)
    assert after.rating < 1700


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = glicko2.rate(Glicko(1464, 151.52, 0.06), [])
    assert after.rating == 1464
    assert after.deviation == pytest.approx(((151.52 / 173.7178) ** 2 + 0.06**2) ** 0.5
                                            * 173.7178)


def test_inactivity_grows_the_deviation_up_to_350() -> None:
    settled = Glicko(1600, 60, 0.06)
    assert glicko2.grown(settled, timedelta(0)) == settled
    a_year = glicko2.grown(settled, timedelta(days=365))
    assert 60 < a_year.deviation < 110 < glicko2.grown(settled, timedelta(days=3650)).deviation
    assert glicko2.grown(settled, timedelta(days=100_000)).deviation == 350
    assert a_year.rating == 1600


def test_a_duel_moves_both_ratings_the_same_way_round() -> None:
    winner, loser = glicko2.rate_duel(Glicko(), Glicko(), 1.0)
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.deviation < 350 and winner.provisional


def test_about_ten_games_against_established_players_end_provisional() -> None:
    player = Glicko()
    games = 0
    while player.provisional:
        opponent = Glicko(1500, 60, 0.06)
        player, _ = glicko2.rate_duel(player, opponent, float(games % 2))
        games += 1
    assert 5 <= games <= 15
