"""SPEC §6 scoring with hand-computed scores, and the SPEC tables."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from corridorquest.engine import Seat, score_game, wall_cost
from corridorquest.engine import progress_weight as engine_progress_weight

from .reference import SIZES, initial_walls, progress_weight
from .reference import score_game as reference_score

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def test_two_player_winner_gets_at_least_one_more_than_the_loser() -> None:
    # 9x9: progress_weight 70, 10 walls. South won having placed 4 walls:
    #   (70 * 1 + 30 * 0.6) / 100 = 0.88 -> 1.
    # North is 6 squares away having placed all 10: (70 * 0.25 + 0) / 100 = 0.175 -> 0.
    scores = score_game(9, 2, S, {N: 6, S: 0}, {N: 10, S: 4})
    assert scores == {N: 0, S: 1}


def test_exact_half_rounds_up() -> None:
    # North 4 away (progress 0.5), 5 of 10 walls placed (walls 0.5):
    #   (70 * 0.5 + 30 * 0.5) / 100 = 0.5 -> 1; so the winner gets max(1, 1 + 1) = 2.
    assert score_game(9, 2, S, {N: 4, S: 0}, {N: 5, S: 0}) == {N: 1, S: 2}


def test_negative_half_rounds_up_towards_plus_infinity() -> None:
    # North as above (0.5) but bought two walls at 3: 0.5 - 6 = -5.5 -> -5 (half up).
    # South sold them: 1.0 + 6 = 7 -> 7; max(7, -5 + 1) = 7.
    assert score_game(9, 2, S, {N: 4, S: 0}, {N: 5, S: 0}, {N: -6, S: 6}) == {N: -5, S: 7}


def test_more_walls_placed_than_initial_counts_as_zero_thrift() -> None:
    # 5x5 2p: progress_weight 60, 5 walls. North bought walls and placed 7: walls = 0.
    # North 1 away: (60 * 0.75) / 100 = 0.45 -> 0. South won with no wall: 1.0 -> 1.
    assert score_game(5, 2, S, {N: 1, S: 0}, {N: 7, S: 0}) == {N: 0, S: 1}


def test_trade_balance_lifts_the_seller_and_the_winner_stays_on_top() -> None:
    # 9x9 2p, wall cost 3; North sold two walls to South: North +6, South -6.
    # North: 0.175 + 6 = 6.175 -> 6. South: 0.88 - 6 = -5.12 -> -5, winner: max(-5, 7) = 7.
    scores = score_game(9, 2, S, {N: 6, S: 0}, {N: 10, S: 4}, {N: 6, S: -6})
    assert scores == {N: 6, S: 7}


def test_four_player_worked_example_of_the_rules_page() -> None:
    # 9x9 4p: progress_weight 60, 5 walls each, wall cost 8. East bought a wall from North.
    distances = {W: 0, N: 5, E: 1, S: 2}
    placed = {W: 3, N: 1, E: 6, S: 5}
    trades = {W: 0, N: 8, E: -8, S: 0}
    assert score_game(9, 4, W, distances, placed, trades) == {W: 10, N: 9, E: -7, S: 0}
    # Without the trade (East placing only its own 5 walls): North 0.545 -> 1,
    # East 0.525 -> 1, South 0.45 -> 0, West max(0.76 -> 1, 1 + 1) = 2.
    placed[E] = 5
    assert score_game(9, 4, W, distances, placed) == {W: 2, N: 1, E: 1, S: 0}


def test_seventeen_four_player_scores() -> None:
    # 17x17 4p: progress_weight 68, 10 walls. North won with 2 walls placed:
    #   (68 + 32 * 0.8) / 100 = 0.936 -> 1.  East 8 away, 10 placed: 68 * 0.5 / 100 = 0.34 -> 0.
    #   South 2 away, 0 placed: (68 * 0.875 + 32) / 100 = 0.915 -> 1.  West 16 away, 0 placed:
    #   32 / 100 = 0.32 -> 0.  North: max(1, 1 + 1) = 2.
    scores = score_game(17, 4, N, {N: 0, E: 8, S: 2, W: 16}, {N: 2, E: 10, S: 0, W: 0})
    assert scores == {N: 2, E: 0, S: 1, W: 0}


def test_spec_tables() -> None:
    for size in SIZES:
        for players in (2, 4):
            assert engine_progress_weight(size, players) == progress_weight(size, players)
    costs_2p = [8, 5, 3, 2, 2, 1, 1]
    costs_4p = [25, 15, 8, 6, 5, 4, 3]
    assert [wall_cost(size, 2) for size in SIZES] == costs_2p
    assert [wall_cost(size, 4) for size in SIZES] == costs_4p
    for size in SIZES:  # wall cost = round(wall_weight / initial walls), at least 1
        for players in (2, 4):
            exact = (100 - progress_weight(size, players)) / initial_walls(size, players)
            assert wall_cost(size, players) == max(1, int(exact + 0.5))


@st.composite
def finished_games(draw: st.DrawFn) -> tuple[int, int, Seat, dict[Seat, int], dict[Seat, int],
                                             dict[Seat, int]]:
    size = draw(st.sampled_from(SIZES))
    players = draw(st.sampled_from([2, 4]))
    seats = [N, S] if players == 2 else [N, E, S, W]
    winner = draw(st.sampled_from(seats))
    distances = {s: 0 if s is winner else draw(st.integers(1, size * size // 2)) for s in seats}
    placed = {s: draw(st.integers(0, 2 * initial_walls(size, players))) for s in seats}
    cost = wall_cost(size, players)
    trades = {s: cost * draw(st.integers(-3, 3)) for s in seats}
    return size, players, winner, distances, placed, trades


@given(finished_games())
def test_scores_match_exact_rational_arithmetic(game: tuple[int, int, Seat, dict[Seat, int],
                                                             dict[Seat, int],
                                                             dict[Seat, int]]) -> None:
    size, players, winner, distances, placed, trades = game
    expected = reference_score(
        size, players, winner.value, {s.value: d for s, d in distances.items()},
        {s.value: p for s, p in placed.items()}, {s.value: t for s, t in trades.items()})
    scores = score_game(size, players, winner, distances, placed, trades)
    assert {s.value: v for s, v in scores.items()} == expected
    assert all(scores[winner] > v for s, v in scores.items() if s is not winner)
