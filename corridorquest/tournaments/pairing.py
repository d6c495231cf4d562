"""Pairings (SPEC §15): round robin (single, double), Swiss rounds, tables of four.

Players are ids (ints). A table is a tuple of ids in seat order: its first player moves
first (the services seat them so), so "colour" here means moving first. A round is its
tables and its byes (players who sit out and score a bye's point).

- Round robin (`round_robin`): the circle method. With an odd count a bye (None) joins
  the circle: each round one player sits out, each player once. Who moves first alternates
  from round to round; the double round robin plays the single one twice, the second half
  with every pairing's first mover swapped.
- Swiss (`swiss_round`): players in ranking order (points, then tie-breaks; the first
  round: by rating, as lichess and FIDE Swiss do, equal ratings in the order they
  entered). With an odd count, the bye goes to the lowest-ranked player who has not had
  one yet (byes rotate; when everybody has had one, the lowest ranked again). The first
  round is folded, as in the Dutch system: the top half meets the bottom half (1 against
  n/2+1, 2 against n/2+2, ...), the higher ranked moving first on every other table, so
  the strongest do not knock each other out at once. Later rounds: each unpaired
  player, from the top, meets the highest-ranked player below them they have not met
  yet, so score groups stay together; when no pairing without a repeat exists (few
  players, many rounds), repeats are allowed, as few as the search finds. Who moves
  first: the one who moved first less often so far, a tie to the higher ranked.
- Tables of four (`four_player_round`): the same for 4-player games: players in ranking
  order fill tables of four, each table avoiding players who already met where possible
  (the first round folded in quarters: table i seats the i-th player of each quarter of
  the ranking, and who moves first rotates from table to table);
  a remainder (1 to 3 players) cannot make a table (a 4-player game has four seats), so
  they get byes, which rotate as in Swiss.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

SEARCH_LIMIT = 20_000  # steps of the search for pairings without a repeat


@dataclass(frozen=True)
class Round:
    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()

    def players(self) -> list[int]:
        return [p for table in self.tables for p in table] + list(self.byes)


@dataclass
class History:
    """What earlier rounds did: who met whom, who had a bye, who moved first how often."""

    met: set[frozenset[int]] = field(default_factory=set)
    byes: dict[int, int] = field(default_factory=dict)
    firsts: dict[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, rounds: Iterable[Round]) -> History:
        history = cls()
        for played in rounds:
            history.add(played)
        return history

    def add(self, played: Round) -> None:
        for table in played.tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    self.met.add(frozenset((a, b)))
            if table:
                self.firsts[table[0]] = self.firsts.get(table[0], 0) + 1
        for player in played.byes:
            self.byes[player] = self.byes.get(player, 0) + 1

    def have_met(self, a: int, b: int) -> bool:
        return frozenset((a, b)) in self.met


# --- round robin --------------------------------------------------------------------------


def round_robin(players: Sequence[int], double: bool = False) -> list[Round]:
    """Every round of a (double) round robin of `players` (at least 2, distinct)."""
    _check_distinct(players)
    if len(players) < 2:
        raise ValueError("a round robin needs at least 2 players")
    circle: list[int | None] = list(players)
    if len(circle) % 2:
        circle.append(None)
    n = len(circle)
    rounds: list[Round] = []
    for r in range(n - 1):
        tables: list[tuple[int, ...]] = []
        byes: list[int] = []
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if a is None or b is None:
                byes.append(b if a is None else a)  # type: ignore[arg-type]
                continue
            # the fixed player alternates; the others by round and board
            swap = (r % 2 == 1) if i == 0 else (i % 2 == 1)
            tables.append((b, a) if swap else (a, b))
        rounds.append(Round(tuple(tables), tuple(byes)))
        circle = [circle[0], circle[-1], *circle[1:-1]]  # rotate all but the first
    if double:
        rounds += [
            Round(tuple(tuple(reversed(t)) for t in played.tables), played.byes)
            for played in list(rounds)
        ]
    return rounds


# --- Swiss ---------------------------------------------------------------------------------


def _check_distinct(players: Sequence[int]) -> None:
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice")


def pick_byes(ranked: Sequence[int], count: int, history: History) -> list[int]:
    """`count` players to sit out: the lowest-ranked with the fewest byes so far."""
    if count <= 0:
        return []
    position = {p: i for i, p in enumerate(ranked)}
    order = sorted(ranked, key=lambda p: (history.byes.get(p, 0), -position[p]))
    return order[:count]


def _pair(players: list[int], history: History, allow_repeats: int) -> list[tuple[int, int]] | None:
    """Pairs of `players` (ranking order) with at most `allow_repeats` repeated meetings."""
    steps = 0

    def search(rest: list[int], repeats: int) -> list[tuple[int, int]] | None:
        nonlocal steps
        if not rest:
            return []
        steps += 1
        if steps > SEARCH_LIMIT:
            return None
        top = rest[0]
        for j in range(1, len(rest)):
            other = rest[j]
            cost = 1 if history.have_met(top, other) else 0
            if repeats + cost > allow_repeats:
                continue
            found = search(rest[1:j] + rest[j + 1 :], repeats + cost)
            if found is not None:
                return [(top, other), *found]
        return None

    return search(players, 0)


def _first_mover(a: int, b: int, history: History) -> tuple[int, int]:
    """(first, second): the one who moved first less often; a tie to `a` (ranked higher)."""
    if history.firsts.get(b, 0) < history.firsts.get(a, 0):
        return (b, a)
    return (a, b)


def swiss_round(ranked: Sequence[int], history: History, first: bool = False) -> Round:
    """The next Swiss round of 2-player games for `ranked` (active players, best first).
    `first`: the first round, folded (see the module's docstring)."""
    _check_distinct(ranked)
    byes = pick_byes(ranked, len(ranked) % 2, history)
    playing = [p for p in ranked if p not in byes]
    if first:
        half = len(playing) // 2
        return Round(tuple(
            (playing[i], playing[half + i]) if i % 2 == 0 else (playing[half + i], playing[i])
            for i in range(half)
        ), tuple(byes))
    pairs: list[tuple[int, int]] | None = None
    for allowed in range(len(playing) // 2 + 1):
        pairs = _pair(playing, history, allowed)
        if pairs is not None:
            break
    if pairs is None:  # the search gave up: adjacent pairs in ranking order
        pairs = [(playing[i], playing[i + 1]) for i in range(0, len(playing) - 1, 2)]
    tables = tuple(_first_mover(a, b, history) for a, b in pairs)
    return Round(tables, tuple(byes))


# --- tables of four -------------------------------------------------------------------------


def four_player_round(ranked: Sequence[int], history: History, first: bool = False) -> Round:
    """The next round of 4-player tables for `ranked` (active players, best first): a
    remainder of 1 to 3 sits out with byes. Each table, from the top, takes the first
    unseated player and the three best-ranked others that add the fewest meetings already
    played; the seat order puts the one who moved first least often first. `first`: the
    first round, folded (see the module's docstring)."""
    _check_distinct(ranked)
    byes = pick_byes(ranked, len(ranked) % 4, history)
    rest = [p for p in ranked if p not in byes]
    if first:
        count = len(rest) // 4
        folded: list[tuple[int, ...]] = []
        for i in range(count):
            table = [rest[i + quarter * count] for quarter in range(4)]
            shift = i % 4  # who moves first: each quarter's player in turn
            folded.append(tuple(table[shift:] + table[:shift]))
        return Round(tuple(folded), tuple(byes))
    tables: list[tuple[int, ...]] = []
    while rest:
        table = [rest.pop(0)]
        while len(table) < 4:
            best = min(
                range(len(rest)),
                key=lambda i: (sum(history.have_met(rest[i], p) for p in table), i),
            )
            table.append(rest.pop(best))
        position = {p: i for i, p in enumerate(ranked)}
        table.sort(key=lambda p: (history.firsts.get(p, 0), position[p]))
        tables.append(tuple(table))
    return Round(tuple(tables), tuple(byes))
