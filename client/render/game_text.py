"""Game details and game tables as text a person reads."""

from __future__ import annotations

from typing import Any

from client.render.board import PAWN_ICONS, PAWN_LETTERS, render_board
from client.render.themes import Theme

STATUS_LABELS = {
    "waiting": "Waiting",
    "started": "Active",
    "finished": "Finished",
    "cancelled": "Cancelled",
}
LAST_ACTIONS_SHOWN = 5


def yes_no(value: object) -> str:
    return "Yes" if value else "No"


def variant_text(game: dict[str, Any]) -> str:
    size = game["size"]
    return (
        f"{size}x{size}, {game['players']} players, masked walls: {yes_no(game.get('masked'))}, "
        f"invisible walls: {yes_no(game.get('invisible'))}"
    )


def action_text(action: dict[str, Any]) -> str:
    kind = action.get("type")
    notation = action.get("notation")
    if kind == "wall" and not action.get("username") and not action.get("seat"):
        return f"#{action.get('n', '?')} a wall was placed"  # masked, during play
    who = f"{action.get('username') or '?'} ({action.get('seat') or '?'})"
    if kind == "wall":
        what = f"placed wall {notation}" if notation else "placed a wall"
    elif kind == "jump":
        what = f"jumped to {notation}"
    elif kind == "move":
        what = f"moved to {notation}"
    elif kind == "pass":
        what = "passed (no legal action)"
    else:
        what = f"{kind} {notation or ''}".strip()
    return f"#{action.get('n', '?')} {who} {what}"


def seat_marker(seat: str, theme: Theme | None) -> str:
    if theme is None:
        return PAWN_LETTERS[seat]
    return theme.seat(PAWN_ICONS[seat], seat, bold=True)


def offer_text(offer: dict[str, Any]) -> str:
    verb = "buy" if offer.get("mode") == "buying" else "sell"
    private = f" (private, to {offer['partner']})" if offer.get("partner") else ""
    return f"{offer.get('username')} offers to {verb} a wall{private}"


def trading_lines(game: dict[str, Any]) -> list[str]:
    """The caller's trade balance and the open wall offers it may read."""
    lines = []
    if game.get("trade_balance") and game["status"] in ("started", "finished"):
        lines.append(f"Your trade balance: {game['trade_balance']:+d}")
    offers = game.get("offers") or []
    if offers:
        lines.append("Open offers:")
        lines.extend(f"  {offer_text(offer)}" for offer in offers)
    return lines


def marker_lines(game: dict[str, Any]) -> list[str]:
    """The markers the caller sees: its own during play, everyone's once finished."""
    markers = game.get("markers") or []
    if not markers:
        return []
    if game.get("status") != "finished":
        return [f"Your markers: {', '.join(m['marker'] for m in markers)}"]
    by_owner: dict[str, list[str]] = {}
    for item in markers:
        by_owner.setdefault(str(item.get("owner")), []).append(item["marker"])
    return [f"Markers of {owner}: {', '.join(found)}" for owner, found in by_owner.items()]


def render_game(game: dict[str, Any], theme: Theme | None, me: str | None = None) -> str:
    """The board followed by the game's details."""
    lines = render_board(game, theme) if game.get("pawns") else []
    lines.append("")
    status = STATUS_LABELS.get(game["status"], game["status"])
    lines.append(f"Game {game['id']} · {status} · revision {game.get('revision', '?')}")
    if game.get("at") is not None:
        lines.append(f"The board after action {game['at']} (not the current position)")
    lines.append(f"Variant: {variant_text(game)}")
    extra = f"Private: {yes_no(game.get('private'))} · Game admin: {game.get('admin') or '?'}"
    if game.get("wall_cost") is not None:
        extra += f" · Wall cost: {game['wall_cost']}"
    lines.append(extra)
    if game.get("invitation_code"):
        lines.append(f"Invitation code: {game['invitation_code']}")
    if game.get("imported"):
        lines.append("Imported from a record: its players are the record's names, not accounts")
    if game["status"] == "waiting":
        waiting = game.get("waiting_players") or []
        guests = set(game.get("guests") or [])
        named = [f"{name} (guest)" if name in guests else name for name in waiting]
        lines.append(
            f"Waiting for players: {len(waiting)} of {game['players']} joined "
            f"({', '.join(named) or 'nobody yet'})"
        )
    seats = game.get("seats") or []
    if seats:
        lines.append("Players:")
        width = max(len(str(s.get("username") or "")) for s in seats)
        for seat in seats:
            name = str(seat.get("username") or "")
            walls = seat.get("walls_left")
            walls_text = "walls left: hidden" if walls is None else f"walls left: {walls:>2}"
            dist = seat.get("distance")
            dist_text = f"  distance: {dist}" if dist is not None else ""
            flags = []
            if game.get("status") == "started" and game.get("turn") == seat["seat"]:
                flags.append("to move")
            if game.get("winner") and game["winner"] == name:
                flags.append("winner")
            if me and name == me and not game.get("imported"):
                flags.append("you")
            bot = (game.get("bots") or {}).get(name)
            if bot:
                flags.append(f"bot, level {bot['level']}")
            if name in (game.get("guests") or []):
                flags.append("guest")
            flag_text = f"  <- {', '.join(flags)}" if flags else ""
            lines.append(
                f"  {seat_marker(seat['seat'], theme)} {seat['seat']:<5} {name:<{width}}  "
                f"{walls_text}{dist_text}{flag_text}"
            )
    if game["status"] == "started" and game.get("turn_username"):
        mine = " (your turn)" if me and game["turn_username"] == me else ""
        lines.append(f"Turn: {game['turn_username']} ({game.get('turn')}){mine}")
    if game["status"] == "finished":
        lines.append(f"Winner: {game.get('winner') or '?'}")
        scores = game.get("scores") or {}
        if scores:
            ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
            lines.append("Scores: " + ", ".join(f"{name} {score}" for name, score in ranked))
        elif game.get("imported"):
            lines.append("Scores: none (an imported game counts for no scores or ratings)")
    if game["status"] == "cancelled":
        at = str(game.get("cancelled_at") or "").replace("T", " ").rstrip("Z")[:16]
        when = f" ({at} UTC)" if at else ""
        lines.append(f"Cancelled{when}: {game.get('cancel_reason') or 'no reason given'}")
    lines.extend(trading_lines(game))
    lines.extend(marker_lines(game))
    actions = (game.get("last_actions") or [])[-LAST_ACTIONS_SHOWN:]
    if actions:
        lines.append("Last actions:")
        lines.extend(f"  {action_text(a)}" for a in actions)
    return "\n".join(lines)


def render_game_list(games: list[dict[str, Any]]) -> str:
    """The table of ``cq game list``; ``>`` marks the player to move."""
    if not games:
        return "No games found."
    header = ["Game ID", "Status", "Players", "Size", "Private?", "Masked?", "Invisible?",
              "Won By", "Players"]
    rows = [header]
    for g in games:
        names = []
        for name in g.get("usernames") or []:
            current = g.get("status") == "started" and name == g.get("turn_username")
            bot = (g.get("bots") or {}).get(name)
            level = f" (bot {bot['level']})" if bot else ""
            level += " (guest)" if name in (g.get("guests") or []) else ""
            names.append((">" if current else "") + name + level)
        rows.append([
            str(g["id"]),
            STATUS_LABELS.get(g["status"], g["status"]),
            str(g["players"]),
            f"{g['size']}X{g['size']}",
            yes_no(g.get("private")),
            yes_no(g.get("masked")),
            yes_no(g.get("invisible")),
            g.get("winner") or ("?" if g["status"] in ("started", "waiting") else "-"),
            ", ".join(names),
        ])
    widths = [max(len(r[i]) for r in rows) for i in range(len(header) - 1)]
    out = ["  ".join(cell.ljust(w) for cell, w in zip(r[:-1], widths, strict=True)) + "  " + r[-1]
           for r in rows]
    out.append("> is the player to move")
    return "\n".join(out)
