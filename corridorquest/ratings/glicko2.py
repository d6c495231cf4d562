"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), steps 1 to 8.

Why our own: the one Glicko-2 package of PyPI's well-used ones (`glicko2` 2.1.0) computes
the volatility's function f(x) with the rating (mu^2) where Glickman's step 5 has the
deviation (phi^2), so every player away from 1500 gets a wrong volatility; it fixes tau
for the whole process and installs a top-level package named `tests`. The algorithm is
short; tests/ratings/test_glicko2.py checks it against Glickman's worked example.

How the product uses it (docs/players-guide.md, "Ratings"): every rated 2-player game is
a rating period of its own for its two players (as lichess does), each rated against the
other's rating and deviation before the game. Before that, the deviation grows back for
the time since the player's last rated game: `RATING_PERIOD` per period, fractions
counting, phi^2 + t * sigma^2 (Glickman's step 6 for t empty periods), at most 350.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta

SCALE = 173.7178  # Glicko-2's scale factor: mu = (r - 1500) / SCALE
INITIAL_RATING = 1500.0
INITIAL_DEVIATION = 350.0
INITIAL_VOLATILITY = 0.06
MIN_DEVIATION = 45.0  # as lichess: a rating never freezes
PROVISIONAL_DEVIATION = 110.0  # above: provisional, shown with `?` (as lichess)
TAU = 0.75  # the system constant: how fast volatility may change (lichess's choice)
RATING_PERIOD = timedelta(days=7)  # for the deviation's growth with inactivity
_EPSILON = 0.000001  # the convergence tolerance of step 5


@dataclass(frozen=True)
class Glicko:
    """A Glicko-2 rating on the Glicko scale: rating, deviation (RD), volatility."""

    rating: float = INITIAL_RATING
    deviation: float = INITIAL_DEVIATION
    volatility: float = INITIAL_VOLATILITY

    @property
    def provisional(self) -> bool:
        return is_provisional(self.deviation)


def is_provisional(deviation: float) -> bool:
    return deviation > PROVISIONAL_DEVIATION


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the Illinois algorithm on f(x) (Glickman's 2013 procedure)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)) / (
            2.0 * (phi * phi + v + ex) ** 2
        ) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(
    player: Glicko,
    results: list[tuple[Glicko, float]],
    tau: float = TAU,
    min_deviation: float = 0.0,
) -> Glicko:
    """The player's rating after one rating period of `results` (opponent, score: 1 win,
    0.5 draw, 0 loss). No results: only the deviation grows (step 6)."""
    mu = (player.rating - INITIAL_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        grown = math.sqrt(phi * phi + sigma * sigma) * SCALE
        return Glicko(player.rating, min(grown, INITIAL_DEVIATION), sigma)
    opponents = [
        ((o.rating - INITIAL_RATING) / SCALE, o.deviation / SCALE, score) for o, score in results
    ]
    v_inverse = 0.0
    improvement = 0.0
    for mu_j, phi_j, score in opponents:
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * improvement
    new_sigma = _new_volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    deviation = min(max(new_phi * SCALE, min_deviation), INITIAL_DEVIATION)
    return Glicko(new_mu * SCALE + INITIAL_RATING, deviation, new_sigma)


def grown(player: Glicko, idle: timedelta) -> Glicko:
    """The rating after `idle` without rated games: phi^2 + t * sigma^2 for t periods."""
    periods = max(idle / RATING_PERIOD, 0.0)
    if periods == 0.0:
        return player
    phi = player.deviation / SCALE
    deviation = math.sqrt(phi * phi + periods * player.volatility**2) * SCALE
    return Glicko(player.rating, min(deviation, INITIAL_DEVIATION), player.volatility)


def rate_duel(first: Glicko, second: Glicko, first_score: float) -> tuple[Glicko, Glicko]:
    """One 2-player game (each player's rating already grown for inactivity): both new
    ratings, each computed against the other's rating before the game."""
    return (
        rate(first, [(second, first_score)], min_deviation=MIN_DEVIATION),
        rate(second, [(first, 1.0 - first_score)], min_deviation=MIN_DEVIATION),
    )
