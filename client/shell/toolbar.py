"""The bottom toolbar: who, where, the current game and whose turn it is.

When the current game's live stream is lost or the last check of the game failed, the
toolbar says so first ("CONNECTION LOST, reconnecting", "SESSION ENDED", or the server's
refusal) and shows the game as "last known".
"""

from __future__ import annotations

from client.errors import AuthError, ConnectionFailed, CqError
from client.shell.live import GameWatch
from client.state import AppState

KEYS = "  [F5 board, F1 help]"


def toolbar_text(state: AppState, watch: GameWatch) -> str:
    try:
        profile = state.profile
    except CqError as exc:  # the profile chosen by CQ_PROFILE or switch does not exist
        return f" {exc.message}{KEYS}"
    who = profile.username if profile.token else f"{profile.username or 'nobody'} (logged out)"
    parts = [f" {who} @ {profile.server_url}", f"profile {profile.name}"]
    problem = watch.problem if state.current_game is not None else None
    if isinstance(problem, ConnectionFailed):
        parts.append("CONNECTION LOST, reconnecting")
    elif isinstance(problem, AuthError):
        if profile.token:  # without one, "(logged out)" above says it
            parts.append("SESSION ENDED ('login' again)")
    elif problem is not None:
        parts.append(problem.message)
    game = watch.game
    if state.current_game is None:
        parts.append("no current game ('use GAME_ID')")
    elif game is None or game.get("id") != state.current_game:
        parts.append(f"game {state.current_game}")
    else:
        last = "last known: " if problem is not None else ""
        parts.append(f"{last}game {game['id']} {game['status']} r{game.get('revision')}")
        if game["status"] == "started" and game.get("turn_username"):
            mine = game["turn_username"] == profile.username
            parts.append("YOUR TURN" if mine else f"turn: {game['turn_username']}")
        elif game["status"] == "finished":
            parts.append(f"won by {game.get('winner')}")
    return " | ".join(parts) + KEYS
