"""The bot whose turn it is: what the bot driver asks before every bot move.

One indexed statement returning plain values. The driver asks it before each ply of a
game with bots (a bot-only game asks it dozens of times a second); built by peewee, the
two lookups it replaces (the game, then its user) were about a fifth of the server's
work per bot ply (benchmarks/README.md, "A bot ply's cost to the server").
"""

from __future__ import annotations

from typing import NamedTuple

from corridorquest.store import fast
from corridorquest.store.models import Game, User


class TurnBot(NamedTuple):
    user_id: int
    username: str
    email: str
    level: int


_SQL = {
    True: f'SELECT u."id", u."username", u."email", u."bot_level" FROM {fast.table(Game)} AS g '
    f'JOIN {fast.table(User)} AS u ON u."id" = g."turn_user_id" '
    f"WHERE g.\"id\" = ? AND g.\"status\" = 'started' AND u.\"bot_level\" IS NOT NULL",
}
_SQL[False] = _SQL[True].replace("?", "%s")  # PostgreSQL's placeholder


def turn_bot(game_id: int) -> TurnBot | None:
    """The bot whose turn it is in started game `game_id`; None when the game is not
    started, or it is nobody's or a person's turn (inside a transaction)."""
    row = fast.execute(_SQL[fast.is_sqlite()], (game_id,)).fetchone()
    return None if row is None else TurnBot(int(row[0]), row[1], row[2], int(row[3]))


# --- the bot users themselves (services/bot_users.py: made, restored, seated) ----------


def deleted_bots(deleted_mail_suffix: str) -> list[User]:
    """Bot users whose e-mail says an administrator deleted them (oldest first)."""
    return list(
        User.select()
        .where(User.bot_level.is_null(False) & User.email.endswith(deleted_mail_suffix))
        .order_by(User.id)
    )


def bot_counts() -> dict[int, int]:
    """level -> how many bot users of that level there are."""
    have: dict[int, int] = {}
    for (level,) in User.select(User.bot_level).where(User.bot_level.is_null(False)).tuples():
        have[level] = have.get(level, 0) + 1
    return have


def bots_of_level(level: int) -> list[User]:
    """The bot users of `level`, the first made (`bot-N`) first."""
    return list(User.select().where(User.bot_level == level).order_by(User.id))
