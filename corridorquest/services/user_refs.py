"""Users named in stored text by id, shown with their current usernames when read.

SPEC §7: a username change keeps every reference. The texts the server writes and keeps
(system messages, a cancelled game's reason) therefore never store a username: they store
`{user:12}` for user 12, and every reader sees the name user 12 has at the time of
reading. A brace of the text itself is doubled (`{{`, `}}`), as in `str.format`; only
the administrators' broadcasts bring such braces in (`literal`).

Reading costs one lookup of the names per listing, not one per text: collect the ids of
all texts (`ids_in`), look up the names the caller does not have yet (`usernames`),
then `render` each text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from corridorquest.store.models import User

# `{{`, `}}` or a reference; what the replacement sees decides which one it was
_TOKEN = re.compile(r"\{\{|\}\}|\{user:(\d+)\}")
_REF = re.compile(r"\{user:(\d+)\}")
UNKNOWN = "a former player"  # a user that no longer exists (never-verified signups only)


def ref(user_id: int) -> str:
    """How a stored text names user `user_id`."""
    return f"{{user:{user_id}}}"


def literal(text: str) -> str:
    """`text` as a part of a stored text that shows exactly `text` (braces doubled)."""
    return text.replace("{", "{{").replace("}", "}}")


def ids_in(texts: Iterable[str | None]) -> set[int]:
    """The users the stored texts name."""
    found: set[int] = set()
    for text in texts:
        if text and "{" in text:
            found.update(int(number) for number in _REF.findall(text))
    return found


def usernames(ids: Iterable[int], known: Mapping[int, str] | None = None) -> dict[int, str]:
    """`known` (copied) plus the current usernames of the `ids` it lacks: one query."""
    names = dict(known or {})
    missing = [user_id for user_id in ids if user_id not in names]
    if missing:
        for user in User.select(User.id, User.username).where(User.id.in_(missing)):
            names[user.id] = user.username
    return names


def render(text: str, names: Mapping[int, str]) -> str:
    """A stored text as it reads now (`names`: usernames by id, see `usernames`)."""
    if "{" not in text and "}" not in text:
        return text

    def replace(match: re.Match[str]) -> str:
        number = match.group(1)
        if number is None:
            return match.group(0)[0]  # a doubled brace
        return names.get(int(number), UNKNOWN)

    return _TOKEN.sub(replace, text)
