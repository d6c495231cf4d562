"""What a look works out for the streams of a game, wherever it runs: on the server's
event loop, or in the look process (corridorquest/live/looker.py).

A look is asked with a game, its streams as `Reader`s (who reads, the invitation code
it watches with, whether it reads as a plain spectator, its cursor), the users whose
whole view was asked for (`view_for`) and whether the players' presence changed. Its
answer says which readers are plain spectators no more (they joined, or cannot share) and
gives each group of readers that is sent the same thing, with that chunk and the cursor
it leaves them at; a chunk of None: the game is gone, or the readers may not watch it
(their streams end). What each reader may see is decided where the API decides it
(`services.live_views`, the game views and the message listing): nothing here hides or
shows anything.

Plain spectators of a public game (not players, not system admins, nothing of their own
in the game) at the same cursor are one group, their update computed once; any other
reader is a group of its own.
"""

from __future__ import annotations

import logging
from typing import Any

from corridorquest.live import sse
from corridorquest.services import live_views
from corridorquest.services.live_views import Cursor

log = logging.getLogger("corridorquest.live")


# Plain tuples, so that a batch of looks crosses to the look process and back by
# `marshal` (a few microseconds where `pickle` of named tuples took ten times as long):
# a reader: (user id, system admin, invitation code or None, plain spectator, cursor)
Reader = tuple[int, bool, str | None, bool, tuple[int, int, int | None]]
# a look: (game id, readers, whose whole game view was asked for, presence changed)
Look = tuple[int, list[Reader], list[int], bool]
# the readers (by index) and what they are sent, with the cursor it leaves them at;
# chunk None: their streams end
Group = tuple[list[int], bytes | None, tuple[int, int, int | None] | None]
# (the readers that are plain spectators no more, the groups); None: the look failed
Answer = tuple[list[int], list[Group]] | None


def reader(user_id: int, is_admin: bool, code: str | None, plain: bool, cursor: Cursor) -> Reader:
    return (user_id, is_admin, code, plain, (cursor.revision, cursor.messages, cursor.row))


def cursor_of(found: tuple[int, int, int | None]) -> Cursor:
    return Cursor(*found)


def work_out(looks: list[Look]) -> list[Answer]:
    """Inside a read transaction: the answer to each look (None where it failed: the
    caller looks at that game again later)."""
    answers: list[Answer] = []
    for look in looks:
        try:
            answers.append(_work_out(*look))
        except Exception as error:
            log.warning("live update of game %s failed (%s); retrying", look[0], error)
            answers.append(None)
    return answers


def _work_out(
    game_id: int, readers: list[Reader], view_for: list[int], presence_too: bool
) -> tuple[list[int], list[Group]]:
    loaded = live_views.game_for_streams(game_id)
    if loaded is None:
        return [], [(list(range(len(readers))), None, None)]
    public = not loaded.game.private
    players = {player.user_id for player in loaded.players}
    unplain: list[int] = []
    groups: dict[tuple[Any, ...], list[int]] = {}
    for index, (user_id, is_admin, _code, plain, cursor) in enumerate(readers):
        if plain and (not public or user_id in players or is_admin):
            plain = False  # joined, or a private game: its own updates from now on
            unplain.append(index)
        key = ("spectators", cursor) if plain else (user_id, cursor)
        groups.setdefault(key, []).append(index)
    online = live_views.online_view(loaded) if presence_too else None
    out: list[Group] = []
    for members in groups.values():
        user_id, is_admin, code, _plain, cursor = readers[members[0]]
        if not live_views.may_watch(loaded, user_id, is_admin, code):
            out.append((members, None, None))
            continue
        update = live_views.catch_up(
            loaded, user_id, cursor_of(cursor), view=user_id in view_for
        )
        items = update.items
        if online is not None:
            items = [*items, ("presence", str(update.cursor), online)]
        found = update.cursor
        out.append((members, sse.events(items), (found.revision, found.messages, found.row)))
    return unplain, out
