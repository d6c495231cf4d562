"""The bottom toolbar: who, where, the current game and whose turn it is.

When the current game's live stream is lost or the last check of the game failed, the
toolbar says so first ("CONNECTION LOST, reconnecting", "SESSION ENDED", or the server's
refusal) and shows the game as "last known".

The toolbar is one line as wide as the terminal: when everything does not fit, the
least useful parts go first (the key hints, the profile, the server's URL, the game's
status and revision, the username), so that what matters during a game (a problem, the
game, whose turn it is) is never cut. Only a terminal too narrow even for those cuts
the line, at its end.
"""

from __future__ import annotations

from client.errors import AuthError, ConnectionFailed, CqError
from client.shell.live import GameWatch
from client.state import AppState

KEYS = "  [F5 board, F1 help]"
SEPARATOR = " | "
ELLIPSIS = "…"


def fit(line: str, width: int) -> str:
    """``line`` cut to ``width`` columns (0: no limit), an ellipsis marking the cut."""
    if width <= 0 or len(line) <= width:
        return line
    return line[: max(width - 1, 0)] + ELLIPSIS


def toolbar_text(state: AppState, watch: GameWatch, width: int = 0) -> str:
    """The toolbar's line for a terminal ``width`` columns wide (0: as long as it is)."""
    try:
        profile = state.profile
    except CqError as exc:  # the profile chosen by CQ_PROFILE or switch does not exist
        return fit(f" {exc.message}{KEYS}", width)
    who = profile.username if profile.token else f"{profile.username or 'nobody'} (logged out)"
    problems = []
    problem = watch.problem if state.current_game is not None else None
    if isinstance(problem, ConnectionFailed):
        problems.append("CONNECTION LOST, reconnecting")
    elif isinstance(problem, AuthError):
        if profile.token:  # without one, "(logged out)" above says it
            problems.append("SESSION ENDED ('login' again)")
    elif problem is not None:
        problems.append(problem.message)
    game = watch.game
    turn = []
    if state.current_game is None:
        full = short = "no current game ('use GAME_ID')"
    elif game is None or game.get("id") != state.current_game:
        full = short = f"game {state.current_game}"
    else:
        last = "last known: " if problem is not None else ""
        full = f"{last}game {game['id']} {game['status']} r{game.get('revision')}"
        short = f"game {game['id']}"
        if game["status"] == "started" and game.get("turn_username"):
            mine = game["turn_username"] == profile.username
            turn.append("YOUR TURN" if mine else f"turn: {game['turn_username']}")
        elif game["status"] == "finished":
            turn.append(f"won by {game.get('winner')}")
    where = f"{who} @ {profile.server_url}"
    variants = [
        ([where, f"profile {profile.name}", *problems, full, *turn], KEYS),
        ([where, f"profile {profile.name}", *problems, full, *turn], ""),
        ([where, *problems, full, *turn], ""),
        ([who, *problems, full, *turn], ""),
        ([who, *problems, short, *turn], ""),
        ([*problems, short, *turn], ""),
    ]
    for parts, keys in variants:
        line = " " + SEPARATOR.join(parts) + keys
        if width <= 0 or len(line) <= width:
            return line
    # A long refusal of the server: cut it, not the game and whose turn it is.
    rest = " " + SEPARATOR.join([short, *turn])
    room = width - len(rest) - len(SEPARATOR) - 1
    if problems and room >= 8:
        return " " + fit(SEPARATOR.join(problems), room) + SEPARATOR + rest[1:]
    return fit(line, width)
