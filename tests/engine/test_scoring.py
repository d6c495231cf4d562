"""SPEC §6 scoring with hand-computed scores, and the SPEC tables."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from corridorquest.engine import GameState, Seat, final_scores, score_game, wall_cost
from corridorquest.engine import progress_weight as engine_progress_weight

from .reference import SIZES, initial_walls, progress_weight
from .reference import score_game as reference_score

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def test_two_player_scores_without_trades() -> None:
    # 9x9 2p: progress_weight 70, wall_weight 30, 10 walls each, start distance 8.
    # South won having placed 4 walls: 70 * 1 + 30 * (1 - 4/10) = 70 + 18 = 88.
    # North is 6 squares away having placed all 10: 70 * (1 - 6/8) + 30 * 0 = 17.5 -> 18.
    scores = score_game(9, 2, S, {N: 6, S: 0}, {N: 10, S: 4})
    assert scores == {N: 18, S: 88}


def test_an_untouched_game_runs_from_0_to_100() -> None:
    # The loser never moved and placed every wall: 0 + 0 = 0; the winner walked all the
    # way without placing a wall: 70 + 30 = 100.
    assert score_game(9, 2, S, {N: 8, S: 0}, {N: 10, S: 0}) == {N: 0, S: 100}


def test_exact_half_rounds_up_and_fractions_round_to_the_nearest() -> None:
    # 7x7 2p: progress_weight 65, wall_weight 35, 7 walls, start distance 6.
    # North 3 away (progress 0.5), all 7 walls placed (walls 0): 65 * 0.5 = 32.5 -> 33.
    assert score_game(7, 2, S, {N: 3, S: 0}, {N: 7, S: 0}) == {N: 33, S: 100}
    # North 5 away (1/6), 1 placed (6/7): 65 / 6 + 30 = 40.83 -> 41.
    assert score_game(7, 2, S, {N: 5, S: 0}, {N: 1, S: 0}) == {N: 41, S: 100}
    # 9x9 (70, 10 walls): North 5 away, 5 placed: 70 * 0.375 + 30 * 0.5 = 41.25 -> 41.
    assert score_game(9, 2, S, {N: 5, S: 0}, {N: 5, S: 0}) == {N: 41, S: 100}


def test_negative_half_rounds_up_towards_plus_infinity() -> None:
    # 7x7 2p: progress_weight 65, 7 walls, wall cost 5. North 3 away, all 7 walls placed:
    # 65 * 0.5 = 32.5, and it bought seven walls at 5: 32.5 - 35 = -2.5 -> -2 (half up).
    # South sold them and won with no wall placed: 100 + 35 = 135.
    scores = score_game(7, 2, S, {N: 3, S: 0}, {N: 7, S: 0}, {N: -35, S: 35})
    assert scores == {N: -2, S: 135}


def test_more_walls_placed_than_initial_counts_as_zero_thrift() -> None:
    # 5x5 2p: progress_weight 60, 5 walls. North bought walls and placed 7: walls = 0.
    # North 1 away: 60 * 0.75 = 45. South won with no wall: 60 + 40 = 100.
    assert score_game(5, 2, S, {N: 1, S: 0}, {N: 7, S: 0}) == {N: 45, S: 100}


def test_a_path_longer_than_the_board_scores_no_progress_not_less() -> None:
    # 5x5 2p: progress_weight 60, wall_weight 40, 5 walls, start distance 4. Walls made
    # North's path 9 long: progress max(0, 1 - 9/4) = 0, not -1.25 (which gave -75 + 40 =
    # -35 before SPEC §6 clamped it). With 1 wall placed: 40 * 0.8 = 32.
    assert score_game(5, 2, S, {N: 9, S: 0}, {N: 1, S: 0}) == {N: 32, S: 100}
    # Without thrift or trades nothing is left: 0, never below.
    assert score_game(5, 2, S, {N: 9, S: 0}, {N: 5, S: 0}) == {N: 0, S: 100}


def test_two_player_trades_move_points_and_the_winner_stays_on_top() -> None:
    # 9x9 2p, wall cost 3 (round(30 / 10)). Bases as in the game without trades:
    # North 17.5, South 88.
    # North sold two walls to South: North 17.5 + 6 = 23.5 -> 24, South 88 - 6 = 82.
    scores = score_game(9, 2, S, {N: 6, S: 0}, {N: 10, S: 4}, {N: 6, S: -6})
    assert scores == {N: 24, S: 82}
    # North 1 away with 3 walls placed: 70 * 0.875 + 30 * 0.7 = 61.25 + 21 = 82.25; having
    # sold South 8 walls (+24): 106.25 -> 106. South placed all 10 (and 8 bought):
    # 70 + 0 - 24 = 46, but the winner gets max(46, 106 + 1) = 107.
    scores = score_game(9, 2, S, {N: 1, S: 0}, {N: 3, S: 18}, {N: 24, S: -24})
    assert scores == {N: 106, S: 107}


def test_four_player_scores_without_trades() -> None:
    # 17x17 4p: progress_weight 68, wall_weight 32, 10 walls, start distance 16.
    # North won with 2 walls placed: 68 + 32 * 0.8 = 68 + 25.6 = 93.6 -> 94.
    # East 8 away, 10 placed: 68 * 0.5 + 0 = 34.
    # South 2 away, none placed: 68 * 0.875 + 32 = 59.5 + 32 = 91.5 -> 92 (half up).
    # West 16 away (never moved), none placed: 0 + 32 = 32.
    scores = score_game(17, 4, N, {N: 0, E: 8, S: 2, W: 16}, {N: 2, E: 10, S: 0, W: 0})
    assert scores == {N: 94, E: 34, S: 92, W: 32}


def test_four_player_winner_bonus_without_trades() -> None:
    # 9x9 4p: progress_weight 60, wall_weight 40, 5 walls, start distance 8.
    # West won having placed all 5: 60 + 0 = 60. North 1 away, no wall placed:
    # 60 * 0.875 + 40 = 52.5 + 40 = 92.5 -> 93. East 4 away, 1 placed: 30 + 32 = 62.
    # South 8 away, 5 placed: 0. West: max(60, 93 + 1) = 94.
    scores = score_game(9, 4, W, {W: 0, N: 1, E: 4, S: 8}, {W: 5, N: 0, E: 1, S: 5})
    assert scores == {W: 94, N: 93, E: 62, S: 0}


def test_four_player_worked_example_of_the_rules_page() -> None:
    # 9x9 4p: progress_weight 60, wall_weight 40, 5 walls each, wall cost 8 (round(40 / 5)).
    # East bought a wall from North (North +8, East -8).
    #   West (won, 4 placed):   60 * 1     + 40 * 0.2 = 68               -> 68
    #   North (3 away, 1):      60 * 0.625 + 40 * 0.8 = 37.5 + 32 = 69.5, + 8 = 77.5 -> 78
    #   East (1 away, 6):       60 * 0.875 + 40 * 0   = 52.5, - 8 = 44.5 -> 45
    #   South (2 away, 5):      60 * 0.75  + 40 * 0   = 45               -> 45
    #   West, the winner: max(68, 78 + 1) = 79.
    distances = {W: 0, N: 3, E: 1, S: 2}
    placed = {W: 4, N: 1, E: 6, S: 5}
    trades = {W: 0, N: 8, E: -8, S: 0}
    assert score_game(9, 4, W, distances, placed, trades) == {W: 79, N: 78, E: 45, S: 45}
    # Without the trade (East placing only its own 5 walls): North 69.5 -> 70,
    # East 52.5 -> 53, South 45, West max(68, 70 + 1) = 71.
    placed[E] = 5
    assert score_game(9, 4, W, distances, placed) == {W: 71, N: 70, E: 53, S: 45}


def test_final_scores_of_a_position_count_walls_on_the_board_by_owner() -> None:
    # 5x5 2p, North first. North places d4h, South walks c1-c2-c3-c4-c5 and wins while
    # North walks c5-b5-a5-a4. Walls in hand do not count, trades are only the balance.
    state = GameState.new(5, 2, N)
    for text in ("d4h", "c2", "b5", "c3", "a5", "c4", "a4", "c5"):
        state.play_notation(text)
    assert state.winner is S and state.distance(N) == 3
    # South: 60 + 40 = 100. North 3 away (0.25), 1 of 5 placed (0.8): 15 + 32 = 47,
    # sold a wall (+8): 55; South bought it: 92.
    assert final_scores(state) == {N: 47, S: 100}
    assert final_scores(state, {N: 8, S: -8}) == {N: 55, S: 92}


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
