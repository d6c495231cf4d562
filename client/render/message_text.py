"""A game message as one line of text (`cq game message list`, `cq game watch`, the shell)."""

from __future__ import annotations

from typing import Any


def message_line(message: dict[str, Any]) -> str:
    """One message as a line: its number, time, who (to whom) and the text."""
    at = str(message.get("at") or "").replace("T", " ").rstrip("Z")[:16]
    kind = message.get("kind")
    if kind == "system":
        # a private offer or trade: name the other party (`with`), which is never the
        # reader itself (`to` is the reader when it is the offer's partner)
        if message.get("with"):
            who = f"system (private, with {message['with']})"
        elif message.get("to"):  # a server without `with`
            who = f"system (private, to {message['to']})"
        else:
            who = "system"
    elif kind == "dm":
        who = f"{message.get('from')} -> {message.get('to')} (DM)"
    else:
        who = str(message.get("from"))
    return f"#{message.get('id')} {at} [{who}] {message.get('text')}"
