"""Bot strength and speed: round robin of the six levels and three baselines (issue 27).

    nice -n 10 .venv/bin/python benchmarks/bots.py [--games N] [--only L1,L6,greedy]
        [--pairs L5-L6,L6-ab2] [--tables rr,four,sizes] [--four-kinds greedy,ab2]
        [--sizes 5,7,11,13,17] [--lead-games N] [--procs 2] [--seed S] [--results FILE]

Tables:

- ``rr``: 9x9 2-player round robin of the players named in ``--only`` (default: L1..L6 and
  the baselines). For each pair, GAMES games: GAMES/2 openings of a few random pawn steps,
  each played twice with the seats (and so the first move) swapped. The score of the first
  player with a 95% interval (normal approximation over the opening pairs), the Elo
  difference it implies, then Elo ratings fitted to all games (random = 0), and each
  level's time per move (p50/p99). ``--pairs`` plays only the pairs named (e.g. the
  adjacent levels and level 6 against the baselines) instead of the whole round robin: the
  fitted Elo then rests on those pairs only.
- ``four``: 4-player 9x9, level 6 against three copies of each baseline; level 6 sits in
  every seat in turn (North moves first); its share of wins (parity is 25%).
- ``sizes``: one row per other board size, 2-player: level 6 against the depth-2
  alpha-beta baseline, with level 6's time per move there.
- ``lead``: the lead-conversion suite (issue 51, ``bots_lead.py``): positions of games
  between quick players where the player to move is 6+ steps ahead with fewer walls, kept
  where ab3 converts them against ab2; the share level 6 and level 5 convert
  (``--lead-games``, ``--lead-positions``).

Every game is checked by the engine (an illegal action loses the game and is counted) and
stopped as a draw at 4*N^2 plies (counted). The same seed gives the same games: bots and
baselines draw their randomness from the game's seed, never from the clock. At most two
worker processes (``--procs``), each at ``nice`` 10 or more. With ``--results FILE`` each
finished game is appended to FILE at once, and a run with the same FILE plays only the
games FILE does not hold for the same code (engine, bots, this script's baselines, and the
budgets of the levels in the game: re-tuning one level replays that level's games only): the
whole table, hours of one core, can be played over several runs.

Baselines (written here, on the engine only):
- random: a uniformly random legal action;
- greedy: the action that most increases the opponents' shortest path minus one's own
  (ties: a step first, then at random);
- ab2: depth-2 alpha-beta on that same difference (the bot's move, then the next
  player's reply).
- ab3 (not in the default round robin: about 1 s a move): depth-3 alpha-beta on the same
  difference and the same candidates (every legal action).

Levels are given the game's actions (as a server's bot knows its history: its trail).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import inspect
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bots_lead  # noqa: E402

from corridorquest.bots import LEVELS, choose  # noqa: E402
from corridorquest.engine import GameState, PlaceWall, Seat, Step  # noqa: E402

LEVEL_NAMES = [f"L{n}" for n in range(1, 7)]
BASELINES = ["random", "greedy", "ab2"]
EXTRA_BASELINES = ["ab3"]  # not in the default round robin (slow): name it in --only/--pairs
OPENING_PLIES = (2, 4)  # random pawn steps before the players take over (inclusive range)


# -- baselines ---------------------------------------------------------------------------


def difference(state: GameState, me: Seat) -> float:
    """Opponents' shortest path (the nearest one) minus one's own; won/lost games at the ends."""
    if state.winner is not None:
        return 1000.0 if state.winner is me else -1000.0
    others = min(state.distance(seat) for seat in state.seats if seat is not me)
    return others - state.distance(me)


def after(state: GameState, action: Step | PlaceWall) -> GameState:
    child = state.copy()
    child.play(action)
    return child


def random_action(state: GameState, rng: random.Random) -> Step | PlaceWall:
    return rng.choice(state.legal_actions())


def greedy_action(state: GameState, rng: random.Random) -> Step | PlaceWall:
    me = state.turn
    assert me is not None
    actions = state.legal_actions()
    rng.shuffle(actions)
    best, best_key = actions[0], None
    for action in actions:
        key = (difference(after(state, action), me), isinstance(action, Step))
        if best_key is None or key > best_key:
            best, best_key = action, key
    return best


def ab2_action(state: GameState, rng: random.Random) -> Step | PlaceWall:
    """Depth 2: one's action, then the next player's reply that is worst for us."""
    me = state.turn
    assert me is not None
    actions = state.legal_actions()
    rng.shuffle(actions)
    children = [(action, after(state, action)) for action in actions]
    # order by the one-ply value (steps first among equals): good first, more cut-offs
    children.sort(key=lambda item: (-difference(item[1], me), not isinstance(item[0], Step)))
    best_action, best = children[0][0], -math.inf
    for action, child in children:
        if child.winner is me:
            return action
        worst = math.inf
        replies = child.legal_actions()
        replies.sort(key=lambda reply: not isinstance(reply, Step))  # steps threaten first
        for reply in replies:
            value = difference(after(child, reply), me)
            if value < worst:
                worst = value
                if worst <= best:
                    break  # alpha cut-off: this action is no better than the best so far
        if not replies:
            worst = difference(child, me)
        if worst > best:
            best, best_action = worst, action
    return best_action


def ab3_action(state: GameState, rng: random.Random) -> Step | PlaceWall:
    """Depth 3: one's action, the next player's reply worst for us, then one's best answer
    (the same candidates as ab2: every legal action; alpha-beta, one-ply ordering)."""
    me = state.turn
    assert me is not None
    actions = state.legal_actions()
    rng.shuffle(actions)
    children = [(action, after(state, action)) for action in actions]
    children.sort(key=lambda item: (-difference(item[1], me), not isinstance(item[0], Step)))
    best_action, best = children[0][0], -math.inf
    for action, child in children:
        if child.winner is me:
            return action
        replies = child.legal_actions()
        grand = [after(child, reply) for reply in replies]
        grand.sort(key=lambda g: difference(g, me))  # the reply worst for us first
        worst = math.inf
        for position in grand:
            value = _best_answer(position, me, worst)
            if value < worst:
                worst = value
                if worst <= best:
                    break  # no better than the best action so far
        if not grand:
            worst = difference(child, me)
        if worst > best:
            best, best_action = worst, action
    return best_action


def _best_answer(state: GameState, me: Seat, beta: float) -> float:
    """The best difference ``me`` (to move in ``state``) reaches in one action (stops at
    ``beta``: the reply above already refutes less)."""
    if state.winner is not None or state.turn is not me:
        return difference(state, me)
    best = -math.inf
    for action in sorted(state.legal_actions(), key=lambda a: not isinstance(a, Step)):
        value = difference(after(state, action), me)
        if value > best:
            best = value
            if best >= beta:
                break
    return best


BASELINE_ACTIONS = {
    "random": random_action,
    "greedy": greedy_action,
    "ab2": ab2_action,
    "ab3": ab3_action,
}


def act(name: str, state: GameState, seed: int, actions: list[str] | None = None) -> str:
    """``name``'s action in ``state``; a level is given the game's ``actions`` (from 9x9's
    North-first start), as a server's bot knows its game's history (its trail)."""
    if name in BASELINE_ACTIONS:
        rng = random.Random(f"{seed}:{state.ply}")
        return str(BASELINE_ACTIONS[name](state, rng))
    if actions is None:
        return choose(state, int(name[1:]), seed)
    record = {"size": state.size, "players": state.players, "first": "north", "actions": actions}
    return choose(record, int(name[1:]), seed)


# -- one game ----------------------------------------------------------------------------


def play_game(task: tuple[Any, ...]) -> dict[str, Any]:
    """Play one game; ``task`` = (key, size, names by seat in seat order, opening seed, seed)."""
    key, size, names, opening_seed, seed = task
    if key[0] == "lead":  # a lead-conversion game: key = ("lead", leader, actions before)
        result = bots_lead.convert(act, list(key[2]), size, key[1], names[0], seed)
        return {"key": key, "size": size, "names": names, **result, "illegal": None, "times": {}}
    players = len(names)
    state = GameState.new(size, players, Seat.NORTH)
    seats = state.seats
    by_seat = dict(zip(seats, names, strict=True))
    rng = random.Random(opening_seed)
    actions: list[str] = []
    for _ in range(rng.randint(*OPENING_PLIES)):
        steps = state.legal_steps()
        step = rng.choice(steps)
        state.play(step)
        actions.append(str(step))
    cap = 4 * size * size
    times: dict[str, list[float]] = defaultdict(list)
    illegal = None
    while state.winner is None and state.ply < cap:
        seat = state.turn
        assert seat is not None
        name = by_seat[seat]
        start = time.process_time()
        text = act(name, state, seed, actions)
        times[name].append(time.process_time() - start)
        try:
            state.play_notation(text)
        except ValueError as error:
            illegal = f"{name} as {seat.value}: {error}"
            break
        actions.append(text)
    if illegal:
        loser = by_seat[state.turn]  # type: ignore[index]
        winners = [seat for seat in seats if by_seat[seat] != loser]
        winner = winners[0].value
    else:
        winner = state.winner.value if state.winner else None
    return {
        "key": key,
        "size": size,
        "names": names,
        "winner": winner,
        "plies": state.ply,
        "capped": state.winner is None and not illegal,
        "illegal": illegal,
        "times": dict(times),
        "actions": actions,
    }


# -- statistics --------------------------------------------------------------------------


def elo_of(score: float) -> float:
    score = min(max(score, 0.001), 0.999)
    return -400 * math.log10(1 / score - 1)


def interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, 0.5
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def fit_elo(results: dict[tuple[str, str], list[float]], names: list[str]) -> dict[str, float]:
    """Bradley-Terry ratings on the Elo scale fitted to every pair's games (MM iterations;
    each pair gets one virtual draw so that a 100% score stays finite); random = 0."""
    strength = dict.fromkeys(names, 1.0)
    wins: dict[str, float] = dict.fromkeys(names, 0.0)
    meetings: dict[tuple[str, str], int] = {}
    for (a, b), scores in results.items():
        wins[a] += sum(scores) + 0.5
        wins[b] += len(scores) - sum(scores) + 0.5
        meetings[(a, b)] = len(scores) + 1
    for _ in range(500):
        for name in names:
            total = 0.0
            for (a, b), count in meetings.items():
                if name in (a, b):
                    other = b if name == a else a
                    total += count / (strength[name] + strength[other])
            if total:
                strength[name] = wins[name] / total
    anchor = "random" if "random" in strength else names[0]
    return {name: 400 * math.log10(value / strength[anchor]) for name, value in strength.items()}


def stable_seed(*parts: object) -> int:
    """A seed from names and numbers, the same in every process (unlike ``hash``)."""
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:8], "little")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def ms(values: list[float], share: float) -> str:
    return f"{percentile(values, share) * 1000:.0f} ms"


# -- tables ------------------------------------------------------------------------------


def pair_tasks(size: int, a: str, b: str, games: int, seed: int, table: str) -> list[tuple]:
    tasks = []
    for opening in range(max(1, games // 2)):
        opening_seed = stable_seed(seed, table, size, a, b, opening)
        game_seed = seed * 1_000_003 + opening
        tasks.append(((table, size, a, b, opening, 0), size, (a, b), opening_seed, game_seed))
        tasks.append(((table, size, a, b, opening, 1), size, (b, a), opening_seed, game_seed))
    return tasks


def four_tasks(games: int, seed: int, kinds: list[str] = BASELINES) -> list[tuple]:
    tasks = []
    for baseline in kinds:
        for game in range(games):
            names = [baseline] * 4
            names[game % 4] = "L6"
            opening_seed = stable_seed(seed, "four", baseline, game)
            tasks.append(
                (("four", 9, baseline, game), 9, tuple(names), opening_seed, seed * 1009 + game)
            )
    return tasks


def score_of(result: dict[str, Any], name: str) -> float:
    if result["winner"] is None:
        return 0.5
    seats = (
        [s.value for s in (Seat.NORTH, Seat.SOUTH)]
        if len(result["names"]) == 2
        else [s.value for s in (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)]
    )
    return 1.0 if result["names"][seats.index(result["winner"])] == name else 0.0


def pair_row(results: list[dict[str, Any]], a: str, b: str) -> tuple[float, float, list[float]]:
    by_opening: dict[int, list[float]] = defaultdict(list)
    for result in results:
        by_opening[result["key"][4]].append(score_of(result, a))
    means = [statistics.fmean(scores) for scores in by_opening.values()]
    mean, half = interval(means)
    flat = [score for scores in by_opening.values() for score in scores]
    return mean, half, flat


def _targets(node: ast.Assign | ast.AnnAssign) -> set[str]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return {target.id for target in targets if isinstance(target, ast.Name)}


def _levels_source_without_table(source: str) -> str:
    """``bots/levels.py`` without its ``LEVELS`` table: the table's rows are hashed one by
    one, per game, for the levels that play in it."""
    tree = ast.parse(source)
    tree.body = [
        node
        for node in tree.body
        if not (isinstance(node, ast.AnnAssign | ast.Assign) and "LEVELS" in _targets(node))
    ]
    return ast.unparse(tree)


def _shared_code() -> hashlib._Hash:
    """What every game's outcome depends on: the engine's and the bots' sources (but the
    rows of the level table) and this script's baselines and game loop."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent / "corridorquest"
    sources = [*package.glob("engine/*.py"), *package.glob("bots/*.py")]
    for path in sorted([*sources, Path(__file__).resolve().parent / "bots_lead.py"]):
        digest.update(path.name.encode() + b"\0")
        source = path.read_text()
        if path.as_posix().endswith("bots/levels.py"):
            source = _levels_source_without_table(source)
        digest.update(source.encode())
    for function in (random_action, greedy_action, ab2_action, ab3_action, act, play_game):
        digest.update(inspect.getsource(function).encode())
    return digest


_SHARED = _shared_code()


def code_version(names: Sequence[str]) -> str:
    """The code one game's outcome depends on: the shared code and the budgets (rows of
    ``LEVELS``) of the levels playing in it. A results file keeps a game only for the
    version it was played with, so re-tuning level 3 replays level 3's games only."""
    digest = _SHARED.copy()
    for name in sorted(set(names)):
        if name in LEVEL_NAMES:
            digest.update(f"{name}={tuple(LEVELS[int(name[1:])])!r}".encode())
    return digest.hexdigest()[:16]


def _plain(value: Any) -> Any:
    """`value` as JSON gives it back (tuples become lists), to compare tasks read back."""
    return json.loads(json.dumps(value))


class ResultsFile:
    """`--results FILE`: every finished game is appended at once (one JSON line), and a
    later run with the same file plays only the games it does not hold yet for this
    code version: a long run can stop and go on where it stopped."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.done: dict[str, dict[str, dict[str, Any]]] = {}  # task -> version -> result
        self.reused = 0  # games of the last run read from the file, not played
        if path is not None and path.exists():
            for line in path.read_text().splitlines():
                try:
                    record = json.loads(line)
                except ValueError:
                    continue  # a line cut short by a kill
                played = self.done.setdefault(json.dumps(record["task"]), {})
                played[record.get("version", "")] = record["result"]

    def get(self, task: tuple) -> dict[str, Any] | None:
        found = self.done.get(json.dumps(_plain(task)), {}).get(code_version(task[2]))
        if found is None:
            return None  # not played yet, or played by other code
        result = dict(found)
        result["key"] = tuple(result["key"])
        result["names"] = tuple(result["names"])
        return result

    def add(self, task: tuple, result: dict[str, Any]) -> None:
        if self.path is None:
            return
        version = code_version(task[2])
        line = json.dumps({"version": version, "task": _plain(task), "result": result})
        with self.path.open("a") as out:
            out.write(line + "\n")


def run(tasks: list[tuple], procs: int, kept: ResultsFile) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = [{}] * len(tasks)
    todo = []
    for index, task in enumerate(tasks):
        found = kept.get(task)
        if found is None:
            todo.append(index)
        else:
            results[index] = found
    kept.reused = len(tasks) - len(todo)
    if len(todo) < len(tasks):
        print(f"  {len(tasks) - len(todo)} games read from the results file", file=sys.stderr)
    if procs <= 1:
        for count, index in enumerate(todo, start=1):
            results[index] = play_game(tasks[index])
            kept.add(tasks[index], results[index])
            print(f"  {count}/{len(todo)} games", file=sys.stderr, flush=True)
        return results
    # the slowest games first, so the pool ends together
    order = sorted(todo, key=lambda i: -weight(tasks[i]))
    with multiprocessing.Pool(procs, initializer=be_nice) as pool:
        done = pool.imap_unordered(play_one, [(i, tasks[i]) for i in order], chunksize=1)
        for count, (index, result) in enumerate(done, start=1):
            results[index] = result
            kept.add(tasks[index], result)
            print(f"  {count}/{len(todo)} games", file=sys.stderr, flush=True)
    return results


def play_one(item: tuple[int, tuple]) -> tuple[int, dict[str, Any]]:
    return item[0], play_game(item[1])


def weight(task: tuple) -> float:
    size, names = task[1], task[2]
    cost = {"ab3": 60, "L6": 50, "L5": 15, "ab2": 8, "L4": 5}
    return sum(cost.get(name, 1) for name in names) * size * size


def be_nice() -> None:
    current = os.nice(0)
    if current < 10:
        os.nice(10 - current)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per pair (even)")
    parser.add_argument(
        "--only",
        default=",".join(LEVEL_NAMES + BASELINES),
        help="players of the round robin, e.g. L1,L6,greedy",
    )
    parser.add_argument(
        "--pairs",
        default="",
        help="only these pairs of the round robin, e.g. L1-L2,L5-L6,L6-ab2 (default: all)",
    )
    parser.add_argument(
        "--tables", default="rr,four,sizes", help="rr, four, sizes, lead (lead conversion)"
    )
    parser.add_argument(
        "--four-games",
        type=int,
        default=None,
        help="games per baseline kind in the 4-player table (default: --games)",
    )
    parser.add_argument(
        "--four-kinds",
        default=",".join(BASELINES),
        help="baseline kinds of the 4-player table, e.g. ab2 or greedy,ab2 (default: all)",
    )
    parser.add_argument(
        "--size-games", type=int, default=None, help="games per size row (default: --games)"
    )
    parser.add_argument("--sizes", default="5,7,11,13,17")
    parser.add_argument(
        "--lead-games",
        type=int,
        default=40,
        help="lead table: games per harvest pair the positions are taken from (even)",
    )
    parser.add_argument(
        "--lead-positions",
        type=int,
        default=0,
        help="lead table: at most this many candidate positions, taken alternately from "
        "each colour (default 0: all)",
    )
    parser.add_argument("--procs", type=int, default=2, help="worker processes (at most 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--results",
        type=Path,
        default=None,
        help="keep every finished game in this file (JSON lines) and play only the games "
        "it does not hold yet for the same code: a long run can stop and go on",
    )
    args = parser.parse_args()
    be_nice()
    procs = max(1, min(2, args.procs))
    names = [name.strip() for name in args.only.split(",") if name.strip()]
    for name in names:
        if name not in LEVEL_NAMES + BASELINES + EXTRA_BASELINES:
            parser.error(f"{name}: not a player (L1..L6, random, greedy, ab2, ab3)")
    tables = {t.strip() for t in args.tables.split(",") if t.strip()}
    four_kinds = [k.strip() for k in args.four_kinds.split(",") if k.strip()]
    for kind in four_kinds:
        if kind not in BASELINES:
            parser.error(f"{kind}: not a baseline kind (random, greedy, ab2)")
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    four_games = args.four_games if args.four_games is not None else args.games
    size_games = args.size_games if args.size_games is not None else args.games

    tasks: list[tuple] = []
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    if args.pairs:
        pairs = []
        for text in args.pairs.split(","):
            a, _, b = text.strip().partition("-")
            known = LEVEL_NAMES + BASELINES + EXTRA_BASELINES
            if a not in known or b not in known or a == b:
                parser.error(f"{text}: not a pair of two players (L1..L6, baselines)")
            pairs.append((a, b))
        names = list(dict.fromkeys(name for pair in pairs for name in pair))
    if "rr" in tables:
        for a, b in pairs:
            tasks += pair_tasks(9, a, b, args.games, args.seed, "rr")
    if "four" in tables:
        tasks += four_tasks(four_games, args.seed, four_kinds)
    if "sizes" in tables:
        for size in sizes:
            tasks += pair_tasks(size, "L6", "ab2", size_games, args.seed, "sizes")
    started = time.time()
    kept = ResultsFile(args.results)
    results = run(tasks, procs, kept)
    lead: dict[str, list[dict[str, Any]]] = {}
    if "lead" in tables:
        lead = lead_suite(args, procs, kept)
        results += [r for name, rows in lead.items() if name != "suite" for r in rows]
    elapsed = time.time() - started

    print(
        f"bots benchmark: seed={args.seed} games_per_pair={args.games} procs={procs} "
        f"games={len(results)} wall_time_s={elapsed:.0f}"
        + (f" games_from_results_file={kept.reused}" if args.results else "")
    )
    illegal = [r["illegal"] for r in results if r["illegal"]]
    capped = sum(1 for r in results if r["capped"])
    print(f"illegal_actions={len(illegal)} games_over_cap={capped}")
    for text in illegal[:10]:
        print(f"  illegal: {text}")

    if "rr" in tables and pairs:
        print("\n## 9x9 2-player round robin (score of the first player, 95% interval)\n")
        print("| pair | games | score | 95% | Elo diff |")
        print("|---|---|---|---|---|")
        scores: dict[tuple[str, str], list[float]] = {}
        for a, b in pairs:
            rows = [r for r in results if r["key"][0] == "rr" and r["key"][2:4] == (a, b)]
            mean, half, flat = pair_row(rows, a, b)
            scores[(a, b)] = flat
            print(f"| {a} vs {b} | {len(flat)} | {mean:.1%} | ±{half:.1%} | {elo_of(mean):+.0f} |")
        ratings = fit_elo(scores, names)
        print("\n| player | Elo (random = 0) | time/move p50 | p99 | moves |")
        print("|---|---|---|---|---|")
        for name in sorted(names, key=lambda n: ratings[n]):
            moves = [t for r in results if r["key"][0] == "rr" for t in r["times"].get(name, [])]
            print(
                f"| {name} | {ratings[name]:.0f} | {percentile(moves, 0.5) * 1000:.1f} ms | "
                f"{percentile(moves, 0.99) * 1000:.1f} ms | {len(moves)} |"
            )
        levels = [n for n in LEVEL_NAMES if n in names]
        steps = [
            f"{a}->{b}: {ratings[b] - ratings[a]:+.0f}"
            for a, b in zip(levels, levels[1:], strict=False)
        ]
        if steps:
            print("\nadjacent levels (fitted Elo): " + ", ".join(steps))

    if "four" in tables:
        print("\n## 4-player 9x9: level 6 against three of each baseline (parity 25%)\n")
        print("| opponents | games | L6 wins | 95% | L6 time p50 | p99 |")
        print("|---|---|---|---|---|---|")
        for baseline in BASELINES:
            rows = [r for r in results if r["key"][0] == "four" and r["key"][2] == baseline]
            if not rows:
                continue
            wins = [score_of(r, "L6") for r in rows]
            mean, half = interval(wins)
            moves = [t for r in rows for t in r["times"].get("L6", [])]
            print(
                f"| 3x {baseline} | {len(rows)} | {mean:.1%} | ±{half:.1%} | "
                f"{ms(moves, 0.5)} | {ms(moves, 0.99)} |"
            )

    if "sizes" in tables:
        print("\n## Other sizes, 2-player: level 6 against ab2\n")
        print("| size | games | L6 score | 95% | L6 time p50 | p99 | ab2 p50 |")
        print("|---|---|---|---|---|---|---|")
        for size in sizes:
            rows = [r for r in results if r["key"][0] == "sizes" and r["key"][1] == size]
            if not rows:
                continue
            mean, half, flat = pair_row(rows, "L6", "ab2")
            moves = [t for r in rows for t in r["times"].get("L6", [])]
            base = [t for r in rows for t in r["times"].get("ab2", [])]
            print(
                f"| {size}x{size} | {len(flat)} | {mean:.1%} | ±{half:.1%} | "
                f"{ms(moves, 0.5)} | {ms(moves, 0.99)} | {ms(base, 0.5)} |"
            )

    if lead:
        print_lead(lead)


def lead_suite(args: argparse.Namespace, procs: int, kept: ResultsFile) -> dict[str, list]:
    """The lead-conversion suite (``bots_lead``): harvest games, the positions ``ab3``
    converts against ``ab2``, then level 6 and level 5 from each of them."""
    tasks: list[tuple] = []
    for a, b in bots_lead.HARVEST:
        tasks += pair_tasks(9, a, b, args.lead_games, args.seed, "lead-games")
    games = run(tasks, procs, kept)
    by_colour: dict[str, list[tuple]] = {"north": [], "south": []}
    for game in games:
        for ply, leader in bots_lead.leading_positions(game["actions"], 9):
            by_colour[leader].append((leader, tuple(game["actions"][:ply])))
    candidates = [
        item
        for pair in zip(by_colour["north"], by_colour["south"], strict=False)
        for item in pair
    ]
    longer = by_colour["north"] if len(by_colour["north"]) > len(by_colour["south"]) else (
        by_colour["south"]
    )
    candidates += longer[len(candidates) // 2 :]
    if args.lead_positions:
        candidates = candidates[: args.lead_positions]

    def conversions(name: str, items: list[tuple]) -> list[dict[str, Any]]:
        batch = [
            (("lead", leader, before), 9, (name, "ab2"), 0, stable_seed(args.seed, before))
            for leader, before in items
        ]
        return run(batch, procs, kept)

    filtered = conversions("ab3", candidates)
    suite = [item for item, result in zip(candidates, filtered, strict=True) if result["won"]]
    found = {"candidates": filtered, "suite": [{"key": ("lead", *item)} for item in suite]}
    for name in bots_lead.MEASURED:
        found[name] = conversions(name, suite)
    return found


def print_lead(lead: dict[str, list[dict[str, Any]]]) -> None:
    candidates, suite = lead["candidates"], lead["suite"]
    colours = defaultdict(int)
    for item in suite:
        colours[item["key"][1]] += 1
    print(
        f"\n## Lead conversion: the leader ({bots_lead.LEAD}+ steps ahead, fewer walls) "
        "against ab2\n"
    )
    print(
        f"candidate positions: {len(candidates)}; converted by ab3 (the suite): {len(suite)} "
        f"(North leads {colours['north']}, South {colours['south']})\n"
    )
    print("(ab3: its share of the candidates is the filter; the suite is what it converted)\n")
    print("| leader | positions | converted | 95% | most visits of one square | over cap |")
    print("|---|---|---|---|---|---|")
    for name in ["ab3", *bots_lead.MEASURED]:
        rows = candidates if name == "ab3" else lead[name]
        if not rows:
            continue
        mean, half = interval([1.0 if r["won"] else 0.0 for r in rows])
        most = max(r["most_visits"] for r in rows)
        capped = sum(1 for r in rows if r["capped"])
        print(f"| {name} | {len(rows)} | {mean:.1%} | ±{half:.1%} | {most} | {capped} |")


if __name__ == "__main__":
    main()
