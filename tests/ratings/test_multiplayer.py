"""The 4-player pool: openskill's Plackett-Luce on the Glicko scale, fed the scores."""

from __future__ import annotations

from datetime import timedelta

from openskill.models import PlackettLuce

from corridorquest.ratings import multiplayer
from corridorquest.ratings.multiplayer import Skill


def test_the_ranking_by_score_orders_the_new_ratings() -> None:
    after = multiplayer.rate_free_for_all([Skill()] * 4, [12, 87, 40, 55])
    assert after[1].rating > after[3].rating > after[2].rating > after[0].rating
    assert all(s.deviation < 350 for s in after)


def test_equal_scores_tie() -> None:
    after = multiplayer.rate_free_for_all([Skill()] * 4, [90, 40, 40, 10])
    assert after[1] == after[2]


def test_the_ratings_are_openskills_own_results() -> None:
    model = PlackettLuce(mu=1500, sigma=350, beta=175, tau=3.5)
    players = [Skill(1500, 350), Skill(1620, 120), Skill(1400, 200), Skill(1555, 80)]
    expected = model.rate(
        [[model.rating(mu=p.rating, sigma=p.deviation)] for p in players], scores=[3, 9, 1, 5]
    )
    got = multiplayer.rate_free_for_all(players, [3, 9, 1, 5])
    assert [(s.rating, s.deviation) for s in got] == [
        (t[0].mu, t[0].sigma) for t in expected
    ]


def test_inactivity_grows_the_deviation_up_to_350() -> None:
    assert multiplayer.grown(Skill(1600, 80), timedelta(days=365)).deviation > 80
    assert multiplayer.grown(Skill(1600, 80), timedelta(days=100_000)).deviation == 350
