"""The 4-player pool: openskill's Weng-Lin Plackett-Luce model, fed the final ranking by
score (the winner always scores highest; equal scores tie).

openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300) scaled by 42 and moved
to start at 1500, so that a 4-player rating reads like a 2-player one: mu 1500, sigma
350, beta 175, tau 3.5. `rating` is mu, `deviation` is sigma; provisional above 110 as in
the 2-player pool. Between games the deviation grows back as a Glicko-2 deviation of
the starting volatility does: sigma^2 + t * (173.7178 * 0.06)^2 for t rating periods.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from openskill.models import PlackettLuce

from corridorquest.ratings.glicko2 import (
    INITIAL_DEVIATION,
    INITIAL_RATING,
    INITIAL_VOLATILITY,
    RATING_PERIOD,
    SCALE,
)

MU = INITIAL_RATING
SIGMA = INITIAL_DEVIATION
BETA = SIGMA / 2
TAU = SIGMA / 100
GROWTH_PER_PERIOD = SCALE * INITIAL_VOLATILITY  # rating points of deviation, squared per period

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


@dataclass(frozen=True)
class Skill:
    """One player's 4-player rating: mu and sigma on the Glicko scale."""

    rating: float = MU
    deviation: float = SIGMA


def grown(skill: Skill, idle: timedelta) -> Skill:
    periods = max(idle / RATING_PERIOD, 0.0)
    if periods == 0.0:
        return skill
    deviation = math.sqrt(skill.deviation**2 + periods * GROWTH_PER_PERIOD**2)
    return Skill(skill.rating, min(deviation, SIGMA))


def rate_free_for_all(players: Sequence[Skill], scores: Sequence[float]) -> list[Skill]:
    """New ratings of `players` after one game in which they scored `scores` (higher is
    better), in the same order."""
    teams = [[MODEL.rating(mu=p.rating, sigma=p.deviation)] for p in players]
    rated = MODEL.rate(teams, scores=list(scores))
    return [Skill(float(team[0].mu), float(team[0].sigma)) for team in rated]
