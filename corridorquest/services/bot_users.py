"""The bot users (SPEC §13): created by the server, marked with their level.

A bot is a `User` whose `bot_level` is 1..6. The server creates the missing ones at every
start: four of each level, `bot-1` ... `bot-6` and, for a game that seats a level several
times, `bot-1b`, `bot-1c`, `bot-1d` ... An administrator may rename them (the mark stays)
but never delete them: a bot deleted by an older version is restored at the next start. A
bot has no usable password (its hash is no argon2 hash: no password ever matches) and a
login as a bot is refused with 403 `bot_account`; it is verified, wants no notifications
and has an address under `.invalid` (RFC 2606), so that no mail can reach anybody.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from corridorquest.services.auth import CurrentUser
from corridorquest.services.errors import Unprocessable
from corridorquest.store import Store
from corridorquest.store.bot_rows import bot_counts, bots_of_level, deleted_bots, turn_bot
from corridorquest.store.models import Game, GamePlayer, User, utcnow

log = logging.getLogger(__name__)

LEVELS = range(1, 7)
# bots of each level: a game of four seats may seat one level four times, each seat a
# player of its own (`bot-1`, `bot-1b`, `bot-1c`, `bot-1d`)
BOTS_PER_LEVEL = 4
NO_PASSWORD = "!bot: no password login"  # never a valid hash: no password matches it


def bot_username(level: int) -> str:
    return f"bot-{level}"


def bot_email(username: str) -> str:
    """A bot's address: under `.invalid`, named after the name it was made with."""
    return f"{username.lower()}@bots.invalid"


def check_level(level: object) -> int:
    """A bot level 1..6 (a bool or another type is no level); raises Unprocessable."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise Unprocessable(
            "invalid_bot_level", f"bot level {level!r}: a bot level is a whole number from 1 to 6"
        )
    return level


DELETED_MAIL = "@deleted.invalid"  # the address of an anonymised account (admin_users)


def _free_bot_name(level: int) -> str:
    """`bot-N`, or `bot-N-2`, ... when a person holds that name (from before bot names
    were reserved)."""
    name = bot_username(level)
    suffix = 1
    while User.find_by_name(name) is not None:
        suffix += 1
        name = f"{bot_username(level)}-{suffix}"
    return name


def _bot_fields(level: int, username: str) -> dict[str, object]:
    """What a bot of `level` called `username` is."""
    return {
        "username": username,
        "email": bot_email(username),
        "password_hash": NO_PASSWORD,
        "description": f"computer opponent, level {level} of 6",
        "verified": True,
        "locked": False,
        "is_admin": False,
        "notify_turn": False,
        "notify_action": False,
        "notify_game": False,
        "notify_digest": False,
        "ntfy_dm_topic": None,
    }


def _restore_deleted() -> list[str]:
    """Bots that an administrator deleted before the server refused it (they played on
    as `deleted-user-N` and took their level's place): each gets a bot's name and
    account back. Their finished games follow the name, as after a rename."""
    restored = []
    for bot in deleted_bots(DELETED_MAIL):
        level = int(bot.bot_level)
        for field, value in _bot_fields(level, _free_bot_name(level)).items():
            setattr(bot, field, value)
        bot.password_changed_at = utcnow()
        bot.save()
        restored.append(bot.username)
    return restored


def _extra_name(level: int) -> str:
    """The name of another bot of `level`: `bot-Nb`, `bot-Nc`, ... (the first free)."""
    letter = "b"
    while User.find_by_name(f"{bot_username(level)}{letter}") is not None:
        letter = chr(ord(letter) + 1)
    return f"{bot_username(level)}{letter}"


def _create_missing() -> list[str]:
    """Up to BOTS_PER_LEVEL bots of each level: `bot-N` first, then `bot-Nb`, ..."""
    have = bot_counts()
    made = []
    for level in LEVELS:
        for count in range(have.get(level, 0), BOTS_PER_LEVEL):
            name = _free_bot_name(level) if count == 0 else _extra_name(level)
            now = utcnow()
            User.create(bot_level=level, created_at=now, password_changed_at=now,
                        **_bot_fields(level, name))
            made.append(name)
    return made


def _restore_and_create() -> tuple[list[str], list[str]]:
    return _restore_deleted(), _create_missing()


def ensure_bot_users(store: Store) -> list[str]:
    """Restore deleted bots and create the bot users that are missing (at every start);
    the names of those created."""
    restored, made = store.run(_restore_and_create)
    if restored:
        log.warning("deleted bot users restored (bots cannot be deleted): %s",
                    ", ".join(restored))
    if made:
        log.info("bot users created: %s", ", ".join(made))
    return made


def bot_user_ids() -> dict[int, int]:
    """user id -> level of every bot (inside a transaction)."""
    return {
        user_id: level
        for user_id, level in User.select(User.id, User.bot_level)
        .where(User.bot_level.is_null(False))
        .tuples()
    }


def bot_by_level(level: int) -> User | None:
    """The bot user of `level` (the first made: `bot-N`; inside a transaction)."""
    bots = bots_of_level(level)
    return bots[0] if bots else None


def bot_for_seat(level: int, seated: set[int]) -> User | None:
    """The first bot of `level` that is not one of the users `seated` (a game's players),
    None when every one is (inside a transaction)."""
    for bot in bots_of_level(level):
        if bot.id not in seated:
            return bot
    return None


def is_bot_name(username: str) -> bool:
    """Whether `username` names a bot (inside a transaction)."""
    user = User.find_by_name(username)
    return user is not None and user.bot_level is not None


def _acting(user_id: int, username: str, email: str) -> CurrentUser:
    """A bot as the user its moves are played as (it has no session)."""
    return CurrentUser(
        id=user_id,
        username=username,
        email=email,
        is_admin=False,
        session_id=0,
        session_expires_at=utcnow(),
    )


def bot_to_move(game_id: int) -> tuple[CurrentUser, int] | None:
    """The bot whose turn it is in started game `game_id`, with its level; None when
    it is nobody's or a person's turn (inside a transaction)."""
    bot = turn_bot(game_id)
    if bot is None:
        return None
    return _acting(bot.user_id, bot.username, bot.email), bot.level


def bots_in_game(game_id: int) -> list[tuple[CurrentUser, int]]:
    """The bots seated in game `game_id`, with their levels (inside a transaction)."""
    users = (
        User.select()
        .join(GamePlayer, on=(GamePlayer.user == User.id))
        .where((GamePlayer.game == game_id) & User.bot_level.is_null(False))
    )
    return [(_acting(user.id, user.username, user.email), int(user.bot_level)) for user in users]


def games_awaiting_bots(waiting_seconds: int = 0, limit: int = 500) -> list[int]:
    """Started games where it has been a bot's turn for at least `waiting_seconds`, the
    longest waiting first (inside a transaction)."""
    bots = User.select(User.id).where(User.bot_level.is_null(False))
    since = utcnow() - timedelta(seconds=waiting_seconds)
    return [
        game_id
        for (game_id,) in Game.select(Game.id)
        .where((Game.status == "started") & Game.turn_user.in_(bots)
               & (Game.turn_since <= since))
        .order_by(Game.turn_since, Game.id)
        .limit(limit)
        .tuples()
    ]


def username_of(user_id: int) -> str | None:
    """The current username of `user_id` (inside a transaction)."""
    user = User.get_or_none(User.id == user_id)
    return None if user is None else str(user.username)
