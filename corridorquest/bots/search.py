"""The search: candidate actions, alpha-beta on a node budget (2 players), and a search of
the bot's own actions against modelled opponents (4 players).

With two players the search is plain alpha-beta (minimax). With four, ``ModelSearch``
searches only the bot's own actions; between two of them every opponent moves in the real
turn order, each playing the action ``modelled_action`` expects of it (win at once, wall
the next seat when that seat is about to win, else walk). A full round of the race costs
four nodes instead of a tree of every seat's replies, so the search sees two or three of
the bot's moves ahead, eight to twelve plies, on the same budget.

Candidates: every pawn step (the shortest-path step first), and the walls that cut an
opponent's current shortest path, kept only when they lengthen the opponents' paths more
than one's own, best first, at most ``Level.walls`` (wide levels: every such wall at the
root). Legality comes from the engine (its legal wall slots
and ``play``), never from here.
"""

from __future__ import annotations

import random

from corridorquest.bots.evaluation import DECIDED, WIN, value, wall_value
from corridorquest.bots.levels import Level
from corridorquest.bots.walls import scored_walls
from corridorquest.engine import GameState, PlaceWall, Seat, Step
from corridorquest.engine.board import path_length

Action = Step | PlaceWall
MAX_DEPTH = 24


class OutOfBudget(Exception):
    """The node budget is spent."""


def ordered_steps(state: GameState, seat: Seat) -> list[Step]:
    """The seat's legal steps, those that shorten its path most first."""
    board = state.board
    masks, stride, goal = state._masks, board.stride, board.goal[seat]
    steps = state.legal_steps(seat)
    keyed = [
        (path_length(1 << board.index(step.to), goal, masks, stride) or 0, index, step)
        for index, step in enumerate(steps)
    ]
    keyed.sort()
    return [step for _, _, step in keyed]


def wall_candidates(state: GameState, seat: Seat, keep: int) -> list[PlaceWall]:
    """At most ``keep`` legal walls for ``seat``, those that gain most first (gain > 0)."""
    if keep <= 0 or state.walls_left[seat] <= 0:
        return []
    return [action for _, _, action in scored_walls(state, seat)[:keep]]


def candidates(state: GameState, seat: Seat, keep: int) -> list[Action]:
    """The actions searched for ``seat``: best step, good walls, then the other steps.

    A seat without walls in hand only walks forward: the steps that shorten its path (all
    its steps if none does, e.g. with a pawn in the way). Stepping aside or back gains it
    nothing a wall could punish less, and searching such steps lets the horizon make it
    pace back and forth (a game lost that way: ``tests/bots/test_play.py``)."""
    steps = ordered_steps(state, seat)
    if state.walls_left[seat] <= 0:
        here = state.distance(seat)
        forward = [step for step in steps if distance_after(state, seat, step) < here]
        return list(forward or steps)
    walls = wall_candidates(state, seat, keep)
    return [*steps[:1], *walls, *steps[1:]]


def distance_after(state: GameState, seat: Seat, step: Step) -> int:
    """``seat``'s path length from the square ``step`` leads to (the walls as they stand)."""
    board = state.board
    length = path_length(1 << board.index(step.to), board.goal[seat], state._masks, board.stride)
    return length if length is not None else 1 << 20


def play(state: GameState, seat: Seat, action: Action) -> GameState:
    """A copy of ``state`` with ``seat`` (made the player to move) playing ``action``."""
    child = state.copy()
    if child.turn is not seat:
        child.turn = seat
    child.play(action)
    return child


class Search:
    """One bot decision: iterative deepening of alpha-beta within a node budget (its merged
    opponents' layer is Best-Reply Search; 4-player games use ``ModelSearch`` instead)."""

    def __init__(self, me: Seat, level: Level, rng: random.Random) -> None:
        self.me = me
        self.level = level
        self.rng = rng
        self.nodes = 0
        self.limited = False  # raise OutOfBudget once the budget is spent
        self.depth = 0  # the deepest search completed
        self.budget = level.nodes  # root() sets the variant's budget

    def _visit(self) -> None:
        self.nodes += 1
        if self.limited and self.nodes > self.budget:
            raise OutOfBudget

    def alphabeta(self, state: GameState, depth: int, alpha: float, beta: float) -> float:
        """The value for ``me`` of ``state``, whose next mover is me when ``state.turn`` is me,
        else the best replying opponent."""
        me = self.me
        if state.winner is not None:
            return (WIN + depth) if state.winner is me else (-WIN - depth)
        if depth == 0:
            return self.leaf(state)
        level = self.level
        if state.turn is me:
            moves = candidates(state, me, level.walls)
            if not moves:
                return value(state, me)
            return self.best_of(state, moves, depth, alpha, beta)
        replies: list[tuple[Seat, Action]] = []
        keep = level.walls  # (2 players: 4-player games search with ModelSearch)
        for seat in state.seats:
            if seat is not me:
                replies += [(seat, action) for action in candidates(state, seat, keep)]
        if not replies:
            return value(state, me)
        best = float("inf")
        for seat, action in replies:
            self._visit()
            child = play(state, seat, action)
            if child.winner is None:
                child.turn = me
            score = self.alphabeta(child, depth - 1, alpha, beta)
            if score < best:
                best = score
            if best < beta:
                beta = best
            if alpha >= beta:
                break
        return best

    def best_of(
        self, state: GameState, moves: list[Action], depth: int, alpha: float, beta: float
    ) -> float:
        """The value for ``me`` (to move in ``state``) of its best of ``moves``, each searched
        ``depth - 1`` further (alpha-beta: stops at a move that refutes the caller's line)."""
        best = -float("inf")
        for action in moves:
            self._visit()
            score = self.alphabeta(play(state, self.me, action), depth - 1, alpha, beta)
            if score > best:
                best = score
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        return best

    def leaf(self, state: GameState) -> float:
        """The value of a position at the search's horizon, with the threat of the player to
        move: the best wall it could place now (a wall's worth beyond the step it could have
        walked instead). Without it the search would push such a wall past its horizon by
        stepping back and forth."""
        me = self.me
        score = value(state, me)
        mover = state.turn
        if mover is None or abs(score) >= DECIDED or state.walls_left[mover] <= 0:
            return score
        scored = scored_walls(state, mover, None if mover is me else me)
        if not scored:
            return score
        left = state.walls_left[mover]
        bonus = -scored[0][0] - 1.0 - (wall_value(left) - wall_value(left - 1))
        if bonus <= 0:
            return score
        return score + bonus if mover is me else score - bonus

    def root(self, state: GameState, moves: list[Action]) -> Action:
        """The best of ``moves`` (legal actions of ``me`` to move in ``state``)."""
        level = self.level
        self.budget = level.budget(state.size, len(state.seats))
        # the weaker levels err by noise, but only while they hold walls: without walls every
        # level walks its race (it never paces back and forth)
        noisy = bool(level.noise) and state.walls_left[self.me] > 0
        noise = [self.rng.gauss(0.0, level.noise) if noisy else 0.0 for _ in moves]
        order = list(range(len(moves)))
        best_index = order[0]
        for depth in range(1, MAX_DEPTH + 1):
            self.limited = depth > 1
            scores: dict[int, float] = {}
            alpha = -float("inf")
            try:
                for index in order:
                    self._visit()
                    child = play(state, self.me, moves[index])
                    if noisy:  # every root action gets its own exact value
                        score = self.alphabeta(child, depth - 1, -float("inf"), float("inf"))
                    else:
                        score = self.alphabeta(child, depth - 1, alpha, float("inf"))
                    scores[index] = score + noise[index]
                    alpha = max(alpha, score)
            except OutOfBudget:
                if scores:
                    best_index = max(scores, key=lambda i: (scores[i], -order.index(i)))
                break
            best_index = max(scores, key=lambda i: (scores[i], -order.index(i)))
            self.depth = depth
            if abs(scores[best_index]) >= WIN:  # a forced result: deeper changes nothing
                break
            order.sort(key=lambda i: -scores[i])
            if self.nodes > self.budget:
                break
        return moves[best_index]


def modelled_action(state: GameState, seat: Seat, me: Seat) -> Action:
    """What ``ModelSearch`` expects the opponent ``seat`` to play (4 players).

    It steps onto its goal when it can; else, holding a wall:
    - it walls the seat after it when that seat would reach its goal on its next move (only
      the seat just before a pawn can still stop it, and stopping it is what any opponent
      who looks a move ahead does). The bot does not expect to be walled so itself:
      expecting it made the bot step aside, losing tempo, against opponents who never wall;
      when such a wall comes, the bot walks round it then;
    - it walls the opponent closest to its goal (the bot included) when that one leads the
      others by two steps or more and a wall lengthens its path by two or more than the
      waller's own: the leader everybody sees (the 4-player baselines of
      ``benchmarks/bots.py`` do both; expecting the second raised level 6 from 19 to 34 of
      80 games against three greedy players); but not the bot's successor: only the bot
      can wall that seat's last steps, and the search should see that race as its own;
    else it walks its shortest path.
    """
    steps = ordered_steps(state, seat)
    board = state.board
    if steps and board.goal[seat] >> board.index(steps[0].to) & 1:
        return steps[0]
    if state.walls_left[seat] > 0:
        following = state.next_seat(seat)
        if following is not me and state.distance(following) <= 1:
            scored = scored_walls(state, seat, following)
            if scored:
                return scored[0][2]
        ahead = sorted(
            (state.distance(other), index, other)
            for index, other in enumerate(state.seats)
            if other is not seat
        )
        # a clear leader, two steps ahead: a wall that costs it two steps; but the bot's
        # successor is left to the bot (only the bot can wall its last step)
        guarded = seat is not me and ahead[0][2] is state.next_seat(me)
        if ahead[1][0] >= ahead[0][0] + 2 and not guarded:
            scored = scored_walls(state, seat, ahead[0][2])
            if scored and -scored[0][0] >= 2:
                return scored[0][2]
    if steps:
        return steps[0]
    walls = wall_candidates(state, seat, 1)
    return walls[0] if walls else state.legal_actions()[0]


class ModelSearch(Search):
    """Four players: the bot's own actions, searched to a depth of its own moves; between
    two of them the opponents move in the real turn order, each as ``modelled_action``
    expects. Every seat moves, as in the game, so the race is seen as it will be run (who
    arrives first, with the tempo of the seats in between), and the walls the opponents
    place on each other's last step are foreseen: the bot keeps its walls for the seat after
    it (which nobody else can stop) instead of spending them on leaders that others stop.
    The old Best-Reply Search (every opponent's reply against the bot) won 1 of 16 games
    against three depth-2 baselines; this one 25 of 80 on a seed not used while tuning it
    (32 of 80 on the one used; ``benchmarks/README.md``).
    """

    def alphabeta(self, state: GameState, depth: int, alpha: float, beta: float) -> float:
        me = self.me
        while state.winner is None and state.turn is not me and state.turn is not None:
            seat = state.turn
            self._visit()
            state = play(state, seat, modelled_action(state, seat, me))
        if state.winner is not None:
            return (WIN + depth) if state.winner is me else (-WIN - depth)
        if depth == 0:
            return self.leaf(state)
        moves = candidates(state, me, inner_walls(self.level))
        if not moves:
            return value(state, me)
        return self.best_of(state, moves, depth, alpha, beta)


def root_walls(level: Level, players: int) -> int:
    """Wall candidates at the root: every wall that gains on wide levels with 2 players; the
    best ``Level.walls / 2`` with 4 (a wide root left a 4-player search one move deep)."""
    if players == 2:
        return 10_000 if level.wide else level.walls
    return max(1, level.walls // 2)


def inner_walls(level: Level) -> int:
    """Wall candidates of the bot below the root of a 4-player search."""
    return max(2, level.walls // 4)
