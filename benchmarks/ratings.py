"""Ratings (issue 28): do they find the stronger players, predict games, cost little?

    .venv/bin/python benchmarks/ratings.py [--players 40] [--games 3000] [--seed 1]
        [--bot-games 0] [--updates 2000]

Prints `name=value` lines:

1. A simulated 2-player league: `--players` players of known strength (Elo-like, spread
   400), `--games` games between random pairs, each won with the Bradley-Terry chance
   1 / (1 + 10^((s_other - s_me) / 400)); each player's score in a game is drawn around
   what its strength would earn (the winner's at least the loser's + 1, as §6 makes it).
   Ratings come from `services.ratings`' own arithmetic, game after game, with the
   deviation growing over simulated days between games. Printed: Spearman's rho of final
   ratings against true strength; on the last 20 % of games (held out, rated too but
   predicted before), the log-loss of the ratings' prediction (Glicko-2's expected score)
   and of the best-score leaderboard's (a logistic on the difference of best scores, its
   slope fitted on the first 80 %): lower is better.
2. The same for a 4-player league (Plackett-Luce, final ranking by score): Spearman's rho.
3. `--bot-games N` > 0: N games per pair of the six bot levels on 5x5 (the engine plays
   them; slow: level 6 takes seconds a game), rated in their own pool: each level's rating.
4. Newcomers: how many games a new player plays before the `?` goes (deviation at most
   110) against established opponents (near its rating, or anyone), median and p90,
   in both pools (100 stands for "not within 100 games").
5. The time of one rating update: the arithmetic alone (2 and 4 players), and
   `services.ratings.record_finish` with its writes on a real SQLite file.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from corridorquest.ratings import glicko2, multiplayer  # noqa: E402
from corridorquest.ratings.glicko2 import SCALE, Glicko  # noqa: E402
from corridorquest.ratings.multiplayer import Skill  # noqa: E402


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        found = [0.0] * len(values)
        for rank, index in enumerate(order):
            found[index] = float(rank)
        return found

    return statistics.correlation(ranks(xs), ranks(ys))


def win_chance(me: float, other: float) -> float:
    return 1 / (1 + 10 ** ((other - me) / 400))


def score_of(strength: float, rng: random.Random) -> int:
    """What a game earns a player of this strength (0-100 points, noisy)."""
    return max(0, min(100, round(50 + (strength - 1500) / 12 + rng.gauss(0, 12))))


def expected(a: Glicko, b: Glicko) -> float:
    """Glicko-2's expected score of a against b (with both deviations)."""
    phi = math.hypot(a.deviation, b.deviation) / SCALE
    g = 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)
    return 1 / (1 + math.exp(-g * (a.rating - b.rating) / SCALE))


def log_loss(chances: list[float], outcomes: list[int]) -> float:
    eps = 1e-9
    return -statistics.fmean(
        math.log(max(eps, p if won else 1 - p)) for p, won in zip(chances, outcomes, strict=True)
    )


def duel_league(players: int, games: int, rng: random.Random) -> None:
    strength = [rng.gauss(1500, 400) for _ in range(players)]
    ratings = [Glicko() for _ in range(players)]
    last = [datetime(2026, 1, 1)] * players
    best = [0] * players
    now = datetime(2026, 1, 1)
    held_out = int(games * 0.8)
    train: list[tuple[int, int]] = []  # (best-score difference, first won)
    tests: list[tuple[float, int, int]] = []  # (rating chance, best difference, first won)
    for n in range(games):
        now += timedelta(minutes=rng.randint(1, 240))
        a, b = rng.sample(range(players), 2)
        won = int(rng.random() < win_chance(strength[a], strength[b]))
        ga = glicko2.grown(ratings[a], now - last[a])
        gb = glicko2.grown(ratings[b], now - last[b])
        if n < held_out:
            train.append((best[a] - best[b], won))
        else:
            tests.append((expected(ga, gb), best[a] - best[b], won))
        ratings[a], ratings[b] = glicko2.rate_duel(ga, gb, float(won))
        last[a] = last[b] = now
        sa, sb = score_of(strength[a], rng), score_of(strength[b], rng)
        winner, loser = (a, b) if won else (b, a)
        scores = {winner: max(sa if winner == a else sb, (sb if winner == a else sa) + 1)}
        scores[loser] = sb if winner == a else sa
        for player, score in scores.items():
            best[player] = max(best[player], score)
    slope = max((k / 100 for k in range(1, 300)), key=lambda k: -log_loss(
        [1 / (1 + math.exp(-k * d)) for d, _ in train], [w for _, w in train]))
    outcomes = [w for _, _, w in tests]
    print(f"league_2p_players={players}")
    print(f"league_2p_games={games}")
    print(f"league_2p_spearman={spearman([r.rating for r in ratings], strength):.3f}")
    print(f"league_2p_spearman_best_score={spearman([float(s) for s in best], strength):.3f}")
    print(f"league_2p_heldout_games={len(tests)}")
    print(f"league_2p_logloss_rating={log_loss([p for p, _, _ in tests], outcomes):.4f}")
    best_chances = [1 / (1 + math.exp(-slope * d)) for _, d, _ in tests]
    print(f"league_2p_logloss_best_score={log_loss(best_chances, outcomes):.4f}")
    print(f"league_2p_provisional_left={sum(r.provisional for r in ratings)}")


def four_league(players: int, games: int, rng: random.Random) -> None:
    strength = [rng.gauss(1500, 400) for _ in range(players)]
    skills = [Skill() for _ in range(players)]
    for _ in range(games):
        table = rng.sample(range(players), 4)
        scores = [score_of(strength[p], rng) for p in table]
        after = multiplayer.rate_free_for_all([skills[p] for p in table], scores)
        for player, skill in zip(table, after, strict=True):
            skills[player] = skill
    print(f"league_4p_games={games}")
    print(f"league_4p_spearman={spearman([s.rating for s in skills], strength):.3f}")
    print(f"league_4p_provisional_left={sum(s.deviation > 110 for s in skills)}")


def newcomers(count: int, rng: random.Random) -> None:
    """How many games a newcomer plays before the `?` goes (deviation at most 110),
    against established opponents (deviation 60, as after a few dozen games), one game
    an hour: opponents near the newcomer's rating (within about 150, as a lobby's
    seekers or a Swiss pairing give) and opponents drawn from the whole field (spread
    400); the 2-player pool (Glicko-2) and the 4-player pool (three such opponents)."""
    for field, spread in (("similar", 150.0), ("anyone", 0.0)):
        duel_games: list[int] = []
        table_games: list[int] = []

        def opponent(mine: float, spread: float = spread) -> float:
            return mine + rng.gauss(0, spread) if spread else rng.gauss(1500, 400)

        for _ in range(count):
            strength = rng.gauss(1500, 400)
            me, played = Glicko(), 0
            while me.provisional and played < 100:
                other_strength = opponent(me.rating)
                other = Glicko(rating=other_strength, deviation=60.0)
                me = glicko2.grown(me, timedelta(hours=1))
                won = float(rng.random() < win_chance(strength, other_strength))
                me, _ = glicko2.rate_duel(me, other, won)
                played += 1
            duel_games.append(played)
            skill, played = Skill(), 0
            while skill.deviation > 110 and played < 100:
                others = [Skill(rating=opponent(skill.rating), deviation=60.0) for _ in range(3)]
                scores = [score_of(strength, rng)] + [score_of(o.rating, rng) for o in others]
                skill = multiplayer.rate_free_for_all([skill, *others], scores)[0]
                played += 1
            table_games.append(played)
        for pool, games in (("2p", duel_games), ("4p", table_games)):
            games.sort()
            name = f"newcomer_{pool}_{field}_games_to_established"
            print(f"{name}_median={statistics.median(games):.0f}")
            print(f"{name}_p90={games[int(len(games) * 0.9)]}")


def bot_league(per_pair: int, seed: int) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bots as bot_games  # benchmarks/bots.py: one engine-checked game

    names = [f"L{n}" for n in range(1, 7)]
    ratings = {name: Glicko() for name in names}
    for round_ in range(per_pair):
        for i, first in enumerate(names):
            for second in names[i + 1:]:
                pair = [first, second] if round_ % 2 == 0 else [second, first]
                game = bot_games.play_game(("bench", 5, pair, seed + round_, seed + round_))
                if game["winner"] is None:
                    continue
                won = 1.0 if game["winner"] == "north" else 0.0  # the seats in pair order
                ratings[pair[0]], ratings[pair[1]] = glicko2.rate_duel(
                    ratings[pair[0]], ratings[pair[1]], won)
    for name in names:
        print(f"bots_rating_{name}={ratings[name].rating:.0f}")
    in_order = [ratings[n].rating for n in names] == sorted(ratings[n].rating for n in names)
    print(f"bots_in_level_order={in_order}")


def update_times(count: int) -> None:
    start = time.perf_counter()
    for _ in range(count):
        glicko2.rate_duel(Glicko(1600, 80), Glicko(1480, 140), 1.0)
    print(f"update_2p_arithmetic_us={(time.perf_counter() - start) / count * 1e6:.1f}")
    field = [Skill(1500, 300), Skill(1600, 100), Skill(1450, 200), Skill(1520, 90)]
    start = time.perf_counter()
    for _ in range(count):
        multiplayer.rate_free_for_all(field, [50, 80, 20, 60])
    print(f"update_4p_arithmetic_us={(time.perf_counter() - start) / count * 1e6:.1f}")

    from corridorquest.services import ratings
    from corridorquest.store import Store
    from corridorquest.store.models import Game, User

    with tempfile.TemporaryDirectory() as directory:
        store = Store.open(f"sqlite:///{directory}/bench.db")
        try:
            def setup() -> tuple[list[Game], list[int]]:
                users = [User.create(username=f"b{i}", email=f"b{i}@x.test", password_hash="h")
                         for i in range(20)]
                found = [Game.create(admin=users[0], seed=i, players=2, status="finished")
                         for i in range(count)]
                return found, [u.id for u in users]

            games, user_ids = store.run(setup)
            rng = random.Random(7)
            moment = datetime(2026, 1, 1)

            def rate_all() -> float:  # in one transaction, as inside the finish's
                nonlocal moment
                start = time.perf_counter()
                for game in games:
                    a, b = rng.sample(user_ids, 2)
                    moment += timedelta(minutes=5)
                    ratings.record_finish(game, {a: 70, b: 40}, moment)
                return time.perf_counter() - start

            spent = store.run(rate_all)
            print(f"update_2p_record_finish_sqlite_us={spent / len(games) * 1e6:.1f}")
        finally:
            store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot-games", type=int, default=0, help="games per pair of levels")
    parser.add_argument("--updates", type=int, default=2000)
    args = parser.parse_args()
    duel_league(args.players, args.games, random.Random(args.seed))
    four_league(args.players, args.games, random.Random(args.seed + 1))
    newcomers(200, random.Random(args.seed + 2))
    if args.bot_games > 0:
        bot_league(args.bot_games, args.seed)
    update_times(args.updates)


if __name__ == "__main__":
    main()
