"""A referee for bot games in tests: the engine checks every action; in hidden modes each bot
gets only its seat's view, and an action refused because of a wall it could not see is told
to it as a player learns it (the bumped edge), and it tries again."""

from __future__ import annotations

from dataclasses import dataclass, field

from corridorquest.bots import choose, knowledge, seat_view
from corridorquest.bots.view import bumped_edge
from corridorquest.engine import (
    GameState,
    IllegalActionError,
    Seat,
    Step,
)


@dataclass
class Played:
    state: GameState
    actions: list[str] = field(default_factory=list)
    bumps: int = 0  # actions refused by the engine because of an unseen wall
    repeated_bumps: int = 0  # bumps into an edge the bot had bumped into before


def play_bot_game(
    state: GameState,
    levels: dict[Seat, int],
    seed: int,
    *,
    masked: bool = False,
    invisible: bool = False,
    max_plies: int | None = None,
    history: bool = False,
) -> Played:
    """Play ``state`` on to the end (or ``max_plies``). ``history``: each bot also knows its
    trail since the last wall, as a server's bot reads it from the game's history."""
    played = Played(state)
    trails = {seat: (str(square),) for seat, square in state.pawns.items()}
    cap = max_plies if max_plies is not None else 4 * state.size * state.size
    blocked: dict[Seat, list[str]] = {seat: [] for seat in state.seats}
    while state.winner is None and state.ply < cap:
        seat = state.turn
        assert seat is not None
        refused: list[str] = []
        while True:
            if masked or invisible or history:
                view = seat_view(
                    state,
                    seat,
                    masked=masked,
                    invisible=invisible,
                    blocked=blocked[seat],
                    refused=refused,
                    trail=trails[seat] if history else (),
                )
                text = choose(view, levels[seat], seed)
                # the bot only ever plays what is legal in the position it knows
                known = knowledge(view)
                assert known.is_legal(known.parse_action(text)), (text, view)
            else:
                text = choose(state, levels[seat], seed)
            try:
                action = state.play_notation(text)
            except IllegalActionError as error:
                # only an unseen wall may refuse a bot's action
                assert invisible, f"{seat.value} played an illegal {text}"
                played.bumps += 1
                refused.append(text)
                action = state.parse_action(text)
                # the edge it ran into, as the refusal tells the seat (a jump's too)
                edge = bumped_edge(str(error), state.size)
                if isinstance(action, Step) and edge:
                    if edge in blocked[seat]:
                        played.repeated_bumps += 1
                    else:
                        blocked[seat].append(edge)
                assert len(refused) < 200, "a bot keeps bumping"
                continue
            played.actions.append(str(action))
            if history:
                trails = _trails_after(state, trails, seat, str(action))
            break
    return played


def _trails_after(
    state: GameState, trails: dict[Seat, tuple[str, ...]], seat: Seat, text: str
) -> dict[Seat, tuple[str, ...]]:
    """Every seat's trail once ``seat`` has played ``text`` (``state`` is after it)."""
    if text.endswith(("h", "v")):  # a wall: nothing before it can come back
        return {s: (str(square),) for s, square in state.pawns.items()}
    return {**trails, seat: (*trails[seat], str(state.pawns[seat]))}
