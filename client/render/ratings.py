"""Ratings as text (docs/api.md, Ratings): a user's pools, a game's changes, the
leaderboard by rating."""

from __future__ import annotations

from typing import Any

from client.render.scores import table

POOL_NAMES = {"2p": "2 players", "4p": "4 players"}


def signed(change: int) -> str:
    return f"+{change}" if change > 0 else str(change)


def user_rating_lines(data: dict[str, Any]) -> list[str]:
    """``Rating, 2 players: 1662? (deviation 290, 1 game, last game +162)``."""
    lines = []
    for pool in data.get("pools") or []:
        games = int(pool.get("games") or 0)
        details = f"deviation {pool['deviation']}, {games} game{'' if games == 1 else 's'}"
        if pool.get("last_change") is not None:
            details += f", last game {signed(int(pool['last_change']))}"
        name = POOL_NAMES.get(pool["pool"], pool["pool"])
        lines.append(f"Rating, {name}: {pool['shown']} ({details})")
    return lines


def render_game_ratings(data: dict[str, Any]) -> str:
    if not data.get("rated"):
        return "Ratings: not rated."
    rows = [["Player", "Before", "After", "Change"]]
    for player in data.get("players") or []:
        rows.append([str(player.get("username") or "?"), player["shown_before"],
                     player["shown_after"], signed(int(player["change"]))])
    pool = POOL_NAMES.get(data.get("pool") or "", "")
    return "\n".join([f"Ratings ({pool}):", *table(rows)])


def render_rating_leaderboard(data: dict[str, Any]) -> str:
    title = (f"Leaderboard by rating: {POOL_NAMES.get(data['pool'], data['pool'])} "
             f"(at least {data['min_games']} games, not provisional, "
             f"played within {data['active_days']} days)")
    entries = data.get("entries") or []
    if not entries:
        return f"{title}\nNobody qualifies yet."
    rows = [["Rank", "User", "Rating", "Deviation", "Games"]]
    for entry in entries:
        rows.append([str(entry["rank"]), str(entry["username"]), str(entry["rating"]),
                     str(entry["deviation"]), str(entry["games"])])
    return "\n".join([title, *table(rows)])


def unknown_route(error: Exception) -> bool:
    """A server from before ratings answers their routes 404 `not_found` (a missing user
    or game has its own reason): the command then shows everything else."""
    return getattr(error, "reason", None) == "not_found"
