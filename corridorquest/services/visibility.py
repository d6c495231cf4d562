"""What one viewer may see of a game (SPEC §4): the ONE place that decides it.

During play (everything is revealed once the game is finished; a cancelled game never is):
- masked: every wall looks alike (owner null, also one's own), every walls-left count is
  null (also one's own), the walls are listed in the board's order, never in the order
  they were placed, history wall entries say only "a wall was placed" (no seat, player
  or square: with the turn order, a square would tell whose wall it is), and no earlier
  position is shown (the boards ply by ply would list the walls in the order placed);
- invisible: a player sees only its own walls and markers; a non-player sees only the
  pawns; an opponent's wall shows in the history without where (notation null); the
  distances are null (they would tell where the invisible walls are);
- both: both rules.

Game views (`game_views.py`), the history, legal actions and illegal-action messages all
ask a `Visibility`; nothing else decides what is hidden.
"""

from __future__ import annotations

import re
from typing import Any

from corridorquest.engine import GameState, Seat, Wall, is_under, parse_marker

_WALL_TEXT = re.compile(r"\b[a-z]\d{1,2}[hv]\b")
_NAMED_WALL = re.compile(r"\bwall ([a-z]\d{1,2}[hv])\b")


# The seat of a value: `Seat(value)` is a slow call (every game view asks `own`).
_SEAT_OF_VALUE: dict[str, Seat] = {seat.value: seat for seat in Seat}


class Visibility:
    """The rules of one game (its modes and status) as seen by one viewer.

    Immutable by convention. A plain class whose derived answers are computed once: one is
    built for every game view, and a frozen dataclass with properties cost several times more.
    """

    __slots__ = (
        "masked",
        "invisible",
        "revealed",
        "viewer_seat",
        "hides_owners",
        "hides_others_walls",
        "hides_history",
        "shows_earlier_positions",
    )

    masked: bool
    invisible: bool
    revealed: bool  # the game is finished: nothing is hidden any more
    viewer_seat: Seat | None  # None: the viewer is not a seated player
    hides_owners: bool  # masked during play: wall owners and walls-left counts
    hides_others_walls: bool  # invisible during play: the other players' walls
    hides_history: bool  # some history wall entries lose fields (`history_entry`)
    shows_earlier_positions: bool  # the board after N actions (`?at=N`) may be shown

    def __init__(
        self, masked: bool, invisible: bool, revealed: bool, viewer_seat: Seat | None
    ) -> None:
        self.masked = masked
        self.invisible = invisible
        self.revealed = revealed
        self.viewer_seat = viewer_seat
        self.hides_owners = masked and not revealed
        self.hides_others_walls = invisible and not revealed
        self.hides_history = (masked or invisible) and not revealed
        self.shows_earlier_positions = not self.hides_owners

    @classmethod
    def of(cls, game: Any, viewer_seat: Seat | None) -> Visibility:
        """For a `Game` row (or anything with masked, invisible and status)."""
        return cls(bool(game.masked), bool(game.invisible), game.status == "finished", viewer_seat)

    def __repr__(self) -> str:
        return (
            f"Visibility(masked={self.masked!r}, invisible={self.invisible!r}, "
            f"revealed={self.revealed!r}, viewer_seat={self.viewer_seat!r})"
        )

    @property
    def board_key(self) -> tuple[bool, bool, bool, Seat | None]:
        """Viewers of one game whose keys are equal see the same board and history (all
        of a game view but what is the viewer's own: its code, balance, offers, markers).
        The seat matters only where the rules hide the other players' walls."""
        seat = self.viewer_seat if self.hides_others_walls else None
        return (self.masked, self.invisible, self.revealed, seat)

    def own(self, seat: Seat | str | None) -> bool:
        viewer = self.viewer_seat
        if seat is None or viewer is None:
            return False
        if not isinstance(seat, Seat):
            seat = _SEAT_OF_VALUE.get(seat) or Seat(seat)  # (raises for a non-seat)
        return seat is viewer

    # -- the board ------------------------------------------------------------------------

    def sees_wall(self, owner: Seat) -> bool:
        return not self.hides_others_walls or self.own(owner)

    def walls(self, state: GameState) -> list[dict[str, Any]]:
        """The walls on the board this viewer may see, with their owners where allowed."""
        placed = state.walls
        if self.hides_others_walls:  # (tested once, not per wall: this is on every view)
            placed = [(wall, owner) for wall, owner in placed if self.sees_wall(owner)]
        if self.hides_owners:  # sorted: the placing order would tell the owners
            return [{"wall": text, "owner": None} for text in sorted(str(w) for w, _ in placed)]
        return [{"wall": str(wall), "owner": owner.value} for wall, owner in placed]

    def hidden_walls(self, state: GameState) -> list[Wall]:
        """The walls on the board this viewer may not know about."""
        return [wall for wall, owner in state.walls if not self.sees_wall(owner)]

    def walls_left(self, count: int) -> int | None:
        return None if self.hides_owners else count

    def distance(self, state: GameState, seat: Seat) -> int | None:
        return None if self.hides_others_walls else state.distance(seat)

    def latest_wall(self, notation: str, owner: Seat | str) -> str | None:
        """The wall the game's latest action placed, for the board to outline, where this
        viewer sees it. Of a masked game too (SPEC §4: the board may outline the latest
        action, so what changed in one turn can be seen; the history never lists a masked
        wall's square, so the order the walls were placed in is told by nobody)."""
        seat = owner if isinstance(owner, Seat) else _SEAT_OF_VALUE.get(owner) or Seat(owner)
        return notation if self.sees_wall(seat) else None

    def sees_marker(self, owner: Seat | str) -> bool:
        return self.revealed or self.own(owner)

    # -- the history ----------------------------------------------------------------------

    def history_entry(self, entry: dict[str, Any]) -> dict[str, Any]:
        """One history entry `{"n", "seat", "username", "type", "notation", "at"}`.

        A masked wall keeps its number and time only ("a wall was placed", SPEC §4)."""
        if not self.hides_history or entry["type"] != "wall":
            return entry
        seen = dict(entry)
        if self.invisible and not self.own(entry["seat"]):
            seen["notation"] = None
        if self.masked:
            seen["seat"] = None
            seen["username"] = None
            seen["notation"] = None
        return seen

    # -- what the viewer knows ----------------------------------------------------------------

    def knowledge(self, state: GameState) -> GameState:
        """The position as this viewer knows it: the walls it may not see are left out.

        Walls-left counts the viewer may not see are kept (the engine needs a number), but
        a knowledge state is only used to list the viewer's own legal actions.
        """
        if not self.hides_others_walls:
            return state.copy()
        data = state.to_dict()
        data["walls"] = [
            [str(wall), owner.value] for wall, owner in state.walls if self.sees_wall(owner)
        ]
        return GameState.from_dict(data)

    def safe_message(self, message: str, state: GameState) -> str:
        """An illegal-action message without the notation of a wall the viewer may not see.

        "c3h: overlaps wall c3v" about an invisible wall becomes "c3h: overlaps a wall":
        the player learns that a wall is there (a bump), not which one. The notation the
        player typed (before the colon) stays.
        """
        hidden = {str(wall) for wall in self.hidden_walls(state)}
        if not hidden:
            return message
        label, sep, reason = message.partition(": ")
        if not sep:
            label, reason = "", message
        reason = _NAMED_WALL.sub(lambda m: "a wall" if m[1] in hidden else m[0], reason)
        reason = _WALL_TEXT.sub(lambda m: "a wall" if m[0] in hidden else m[0], reason)
        return f"{label}{sep}{reason}"


def markers_view(
    visibility: Visibility, markers: list[tuple[str, Seat]]
) -> list[dict[str, Any]]:
    """Markers `(notation, owner seat)` this viewer may see (own ones; all once finished)."""
    return [
        {"marker": notation, "owner": owner.value}
        for notation, owner in markers
        if visibility.sees_marker(owner)
    ]


def covered_markers(notations: list[str], walls: list[Wall], size: int) -> list[str]:
    """The marker notations that lie under one of `walls`."""
    return [text for text in notations if is_under(parse_marker(text, size), walls)]
