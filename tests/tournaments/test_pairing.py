"""The pure pairings and standings (corridorquest/tournaments): every round valid, round
robins complete, Swiss without repeats where avoidable, byes rotating; hand counts."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corridorquest.tournaments.pairing import (
    History,
    Round,
    four_player_round,
    round_robin,
    swiss_round,
)
from corridorquest.tournaments.standings import Result, standings

pytestmark = pytest.mark.backend_neutral


def assert_valid(played: Round, players: list[int], size: int = 2) -> None:
    seen = played.players()
    assert sorted(seen) == sorted(players), "every player once: at a table or with a bye"
    assert all(len(table) == size for table in played.tables)
    assert len(played.byes) == len(players) % size


@given(st.integers(min_value=2, max_value=13), st.booleans())
def test_round_robin_every_pair_meets_once_per_half(n: int, double: bool) -> None:
    players = list(range(100, 100 + n))
    rounds = round_robin(players, double)
    half = n - 1 if n % 2 == 0 else n
    assert len(rounds) == half * (2 if double else 1)
    for played in rounds:
        assert_valid(played, players)
    first = [t for r in rounds[:half] for t in r.tables]
    assert sorted(tuple(sorted(t)) for t in first) == sorted(combinations(players, 2)), (
        "the first half: every pairing exactly once"
    )
    if double:
        second = [t for r in rounds[half:] for t in r.tables]
        assert sorted(second) == sorted(tuple(reversed(t)) for t in first), "colours swapped"
    if n % 2:
        byes = [p for r in rounds[:half] for p in r.byes]
        assert sorted(byes) == players, "odd count: each player sits out once"


def test_round_robin_of_four_by_hand() -> None:
    rounds = round_robin([1, 2, 3, 4])
    assert [r.tables for r in rounds] == [((1, 4), (3, 2)), ((3, 1), (2, 4)), ((1, 2), (4, 3))]
    firsts = [t[0] for r in rounds for t in r.tables]
    assert sorted(firsts.count(p) for p in (1, 2, 3, 4)) == [1, 1, 2, 2]


def simulate_swiss(players: list[int], rounds: int, winners: st.DataObject,
                   make_round=swiss_round, size: int = 2) -> list[Round]:
    history = History()
    points = {p: 0 for p in players}
    made: list[Round] = []
    for _ in range(rounds):
        ranked = sorted(players, key=lambda p: (-points[p], players.index(p)))
        played = make_round(ranked, history)
        assert_valid(played, players, size)
        for table in played.tables:
            points[winners.draw(st.sampled_from(table))] += 1
        for p in played.byes:
            points[p] += 1
        history.add(played)
        made.append(played)
    return made


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=12), st.integers(min_value=1, max_value=6), st.data())
def test_swiss_rounds_are_valid_and_repeat_only_when_unavoidable(
    n: int, rounds: int, data: st.DataObject
) -> None:
    players = list(range(1, n + 1))
    made = simulate_swiss(players, rounds, data)
    pairs = [frozenset(t) for r in made for t in r.tables]
    possible = n * (n - 1) // 2
    if len(pairs) <= possible and rounds <= n // 2:
        # up to n/2 rounds, each player has met fewer than half the others: a pairing
        # of the rest without a repeat always exists (Dirac); the search must find it
        assert len(set(pairs)) == len(pairs), f"a repeat pairing: {made}"
    byes = [p for r in made for p in r.byes]
    if n % 2:
        counts = {p: byes.count(p) for p in players}
        assert max(counts.values()) - min(counts.values()) <= 1, "byes rotate"


def test_swiss_bye_goes_to_the_lowest_ranked_without_one() -> None:
    history = History()
    first = swiss_round([1, 2, 3, 4, 5], history)
    assert first.byes == (5,)
    history.add(first)
    second = swiss_round([5, 1, 2, 3, 4], history)
    assert second.byes == (4,), "5 had one: the next lowest-ranked"
    history.add(second)
    third = swiss_round([4, 5, 1, 2, 3], history)
    assert third.byes == (3,)


def test_swiss_first_mover_balances() -> None:
    history = History()
    history.add(Round(((1, 2),)))
    played = swiss_round([1, 2, 3, 4], history)
    assert played.tables == ((3, 1), (2, 4)), "1 moved first already: 3 moves first"


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=4, max_value=14), st.integers(min_value=1, max_value=4), st.data())
def test_four_player_tables_fill_fours_and_rotate_byes(
    n: int, rounds: int, data: st.DataObject
) -> None:
    players = list(range(1, n + 1))
    made = simulate_swiss(players, rounds, data, four_player_round, size=4)
    byes = [p for r in made for p in r.byes]
    counts = {p: byes.count(p) for p in players}
    assert max(counts.values()) - min(counts.values()) <= 1, "byes rotate"


def test_standings_hand_count_with_buchholz_forfeit_and_bye() -> None:
    results = [
        Result(1, (1, 2), winner=1, scores={1: 100, 2: 40}),
        Result(1, (3, 4), winner=4, scores={3: 30, 4: 100}),
        Result(2, (1, 4), winner=1, scores={1: 100, 4: 60}),
        Result(2, (2, 3), forfeited=frozenset({3})),  # 3 withdrew: 2 wins
    ]
    lines = standings([1, 2, 3, 4, 5], results, byes=[(1, 5)], withdrawn=[3])
    table = {line.player: line for line in lines}
    assert [line.player for line in lines] == [1, 4, 2, 5, 3]
    assert (table[1].points, table[1].buchholz, table[1].score) == (2, 2, 200)
    assert (table[4].points, table[4].buchholz) == (1, 2)
    assert (table[2].points, table[2].buchholz) == (1, 2)
    assert table[4].score > table[2].score, "equal points and Buchholz: the score decides"
    assert (table[5].points, table[5].byes, table[5].played) == (1, 1, 0)
    assert table[3].points == 0 and table[3].withdrawn
    assert table[4].rank == 2 and table[2].rank == 3 and table[5].rank == 4


def test_equal_lines_share_a_rank() -> None:
    lines = standings([1, 2], [], buchholz=False)
    assert [line.rank for line in lines] == [1, 1]


def test_a_four_player_table_that_lost_one_player_scores_nobody() -> None:
    result = Result(1, (1, 2, 3, 4), forfeited=frozenset({2}))
    assert [result.points(p) for p in (1, 2, 3, 4)] == [0, 0, 0, 0]
    last = Result(1, (1, 2, 3, 4), forfeited=frozenset({2, 3, 4}))
    assert last.points(1) == 1


def test_the_tournament_rules_are_pure() -> None:
    """corridorquest/tournaments imports nothing of ours but the engine and itself, and
    nothing outside the standard library (no I/O, no store, no clock of its own)."""
    import sys

    from tests.support.import_graph import imported_modules

    modules = imported_modules("corridorquest.tournaments")
    assert modules, "the tournaments package has no modules"
    for module, names in modules.items():
        for name in names:
            top = name.split(".")[0]
            ours = name.startswith(("corridorquest.engine", "corridorquest.tournaments"))
            assert ours or (top != "corridorquest" and top in sys.stdlib_module_names), (
                f"{module} imports {name}"
            )


def test_the_first_swiss_round_is_folded_top_half_against_bottom_half() -> None:
    """As the Dutch system (lichess, FIDE): 1 meets 5, 2 meets 6, ...; the higher ranked
    moves first on every other table; an odd field's lowest ranked sits out."""
    assert swiss_round(list(range(1, 9)), History(), first=True).tables == (
        (1, 5), (6, 2), (3, 7), (8, 4)
    )
    odd = swiss_round([1, 2, 3, 4, 5], History(), first=True)
    assert (odd.tables, odd.byes) == (((1, 3), (4, 2)), (5,))


def test_the_first_round_of_tables_of_four_seats_one_player_of_each_quarter() -> None:
    played = four_player_round(list(range(1, 10)), History(), first=True)
    assert played.byes == (9,)
    assert played.tables == ((1, 3, 5, 7), (4, 6, 8, 2)), "who moves first rotates"
