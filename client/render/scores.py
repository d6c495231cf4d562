"""Highscores and leaderboards as text tables (docs/api.md, Scores)."""

from __future__ import annotations

from typing import Any


def variant_label(data: dict[str, Any]) -> str:
    """``9x9, 2 players, masked and invisible walls``."""
    size = data["size"]
    modes = [name for name in ("masked", "invisible") if data.get(name)]
    extra = f", {' and '.join(modes)} walls" if modes else ""
    return f"{size}x{size}, {data['players']} players{extra}"


def game_ref(entry: dict[str, Any]) -> str:
    """The game id, or ``private`` for a private game the caller may not see."""
    if entry.get("game_id") is not None:
        return str(entry["game_id"])
    return "private" if entry.get("private") else "-"


def table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def render_leaderboard(data: dict[str, Any]) -> str:
    title = f"Leaderboard: {variant_label(data)}"
    entries = data.get("entries") or []
    if not entries:
        return f"{title}\nNo finished games in this variant yet."
    rows = [["Rank", "User", "Score", "Game ID"]]
    for entry in entries:
        rows.append([str(entry["rank"]), str(entry.get("username") or "?"),
                     str(entry["score"]), game_ref(entry)])
    return "\n".join([title, *table(rows)])


def render_highscores(data: dict[str, Any]) -> str:
    title = f"Highscores of {data.get('username')}:"
    entries = data.get("highscores") or []
    if not entries:
        return f"{title}\nNo finished games yet."
    rows = [["Board", "Players", "Masked?", "Invisible?", "Score", "Game ID"]]
    for entry in entries:
        rows.append([
            f"{entry['size']}X{entry['size']}",
            str(entry["players"]),
            "Yes" if entry.get("masked") else "No",
            "Yes" if entry.get("invisible") else "No",
            str(entry["score"]),
            game_ref(entry),
        ])
    return "\n".join([title, *table(rows)])
