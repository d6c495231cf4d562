"""What a board says in words (drawing/board_svg.py puts them in the picture's title and
description, for screen readers and for tests): one line of whose turn it is, and the
longer description of the pawns, the walls shown and the last action."""

from __future__ import annotations

from typing import Any

SEAT_ORDER = ("north", "east", "south", "west")
SEATS = frozenset(SEAT_ORDER)


def _seat_name(seat: str, usernames: dict[str, str]) -> str:
    name = usernames.get(seat)
    return f"{seat.capitalize()} ({name})" if name else seat.capitalize()


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def describe(view: dict[str, Any]) -> str:
    """One line: "Game 4 (9x9), after 12 actions: South (bob) to move"."""
    usernames = _usernames(view)
    last = last_action(view)
    at = view.get("at")
    actions = at if isinstance(at, int) else (last.get("n") if last else 0)
    size = view.get("size")
    head = f"Game {view.get('id')} ({size}x{size})"
    status = view.get("status")
    turn = view.get("turn")
    if status == "waiting":
        return f"{head}, waiting for players"
    done = f"{head}, after {_plural(int(actions or 0), 'action')}"
    if turn in SEATS:
        return f"{done}: {_seat_name(turn, usernames)} to move"
    if view.get("winner"):
        return f"{done}: {view['winner']} won"
    if status == "cancelled":
        return f"{done}: cancelled"
    return f"{done}: {status}"


def _usernames(view: dict[str, Any]) -> dict[str, str]:
    found = {}
    for seat in view.get("seats") or []:
        if isinstance(seat, dict) and seat.get("seat") in SEATS and seat.get("username"):
            found[seat["seat"]] = str(seat["username"])
    return found


def last_action(view: dict[str, Any]) -> dict[str, Any] | None:
    actions = view.get("last_actions") or []
    last = actions[-1] if actions else None
    return last if isinstance(last, dict) else None


def details(view: dict[str, Any], walls: int) -> str:
    """The longer description: where the pawns are, the walls shown, the last action."""
    usernames = _usernames(view)
    pawns = view.get("pawns") or {}
    parts = [
        f"{_seat_name(seat, usernames)} on {pawns[seat]}"
        for seat in SEAT_ORDER
        if isinstance(pawns.get(seat), str)
    ]
    text = "; ".join(parts) + "." if parts else "No pawns on the board."
    text += f" {_plural(walls, 'wall')} shown."
    last = last_action(view)
    if last is not None:
        seat = last.get("seat")
        who = _seat_name(seat, usernames) if seat in SEATS else "A player"
        notation = last.get("notation")
        kind = last.get("type")
        if kind == "wall":
            what = f"placed a wall at {notation}" if notation else "placed a wall"
        elif kind == "jump":
            what = f"jumped to {notation}"
        else:
            what = f"moved to {notation}"
        text += f" Last action: {who} {what}."
    return text
