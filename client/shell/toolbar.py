"""The bottom toolbar: who, where, the current game and whose turn it is."""

from __future__ import annotations

from client.shell.live import GameWatch
from client.state import AppState


def toolbar_text(state: AppState, watch: GameWatch) -> str:
    profile = state.profile
    who = profile.username if profile.token else f"{profile.username or 'nobody'} (logged out)"
    parts = [f" {who} @ {profile.server_url}", f"profile {profile.name}"]
    game = watch.game
    if state.current_game is None:
        parts.append("no current game ('use GAME_ID')")
    elif game is None:
        parts.append(f"game {state.current_game}")
    else:
        parts.append(f"game {game['id']} {game['status']} r{game.get('revision')}")
        if game["status"] == "started" and game.get("turn_username"):
            mine = game["turn_username"] == profile.username
            parts.append("YOUR TURN" if mine else f"turn: {game['turn_username']}")
        elif game["status"] == "finished":
            parts.append(f"won by {game.get('winner')}")
    return " | ".join(parts) + "  [F5 board, F1 help]"
