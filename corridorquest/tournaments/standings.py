"""Standings (SPEC §15): a win 1 point, a loss 0, a bye 1; tie-breaks: Buchholz (Swiss:
the sum of the points of every opponent met) and then the total game score (the sum of
the player's final scores, 0..100 each, in the tournament's games).

A result is one table of a round as it ended:
- a game played to its end: its winner and every player's score;
- a forfeit: the players who forfeited (withdrew from the tournament, were removed, left
  or stalled the game); a player who did not forfeit wins when they are the only one left
  at the table, else nobody scores (a 4-player table that lost one player);
- no result (a game cancelled by the tournament admin, nobody to blame): nobody scores.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Result:
    round: int
    players: tuple[int, ...]
    winner: int | None = None
    scores: dict[int, int] = field(default_factory=dict)
    forfeited: frozenset[int] = frozenset()

    def points(self, player: int) -> int:
        if self.winner is not None:
            return 1 if player == self.winner else 0
        left = [p for p in self.players if p not in self.forfeited]
        return 1 if self.forfeited and left == [player] else 0

    def winner_by_forfeit(self) -> int | None:
        left = [p for p in self.players if p not in self.forfeited]
        return left[0] if self.winner is None and self.forfeited and len(left) == 1 else None


@dataclass
class Line:
    player: int
    points: int = 0
    buchholz: int = 0
    score: int = 0
    played: int = 0
    wins: int = 0
    byes: int = 0
    withdrawn: bool = False
    rank: int = 0

    def as_dict(self) -> dict[str, int | bool]:
        return {
            "rank": self.rank,
            "points": self.points,
            "buchholz": self.buchholz,
            "score": self.score,
            "played": self.played,
            "wins": self.wins,
            "byes": self.byes,
            "withdrawn": self.withdrawn,
        }


def standings(
    players: Sequence[int],
    results: Iterable[Result],
    byes: Iterable[tuple[int, int]] = (),
    buchholz: bool = True,
    withdrawn: Iterable[int] = (),
) -> list[Line]:
    """The standings of `players` (in entry order: the last tie-break) after `results`
    and `byes` ((round, player) pairs); best first, equal lines share a rank."""
    lines = {p: Line(p) for p in players}
    opponents: dict[int, list[int]] = {p: [] for p in players}
    results = list(results)
    for result in results:
        for p in result.players:
            line = lines.get(p)
            if line is None:
                continue
            points = result.points(p)
            line.points += points
            line.wins += points
            line.played += 1
            line.score += result.scores.get(p, 0)
            opponents[p] += [q for q in result.players if q != p]
    for _round, p in byes:
        if p in lines:
            lines[p].points += 1
            lines[p].byes += 1
    for p in withdrawn:
        if p in lines:
            lines[p].withdrawn = True
    if buchholz:
        for p, line in lines.items():
            line.buchholz = sum(lines[q].points for q in opponents[p] if q in lines)
    order = {p: i for i, p in enumerate(players)}

    def key(line: Line) -> tuple[int, int, int]:
        return (-line.points, -line.buchholz, -line.score)

    ranked = sorted(lines.values(), key=lambda line: (*key(line), order[line.player]))
    for i, line in enumerate(ranked):
        line.rank = ranked[i - 1].rank if i and key(ranked[i - 1]) == key(line) else i + 1
    return ranked
