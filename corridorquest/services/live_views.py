"""What a live stream sends its reader: the game's changes as that reader may see them.

A game stream (docs/api.md, Live streams) stands at a cursor: the game's revision and the
number of the last message it sent (the reader's own message numbers, services.messages),
written `<revision>.<messages>` as each event's id. From a cursor, `catch_up` works out
what the reader has not had yet, as `(event, id, data)`:

- `action`: each action played after the cursor's revision, as the history shows it to
  the reader (`game_views.history_view`: the visibility rules of the API);
- `game`: the game as `GET /games/{id}` shows it to the reader, when the revision moved
  on (or `view` asks for it: a stream's first event, a private offer's two players);
- `message`: each message after the cursor's number that the reader may read.

The same code serves a new stream, a stream that resumes (`Last-Event-ID`) and every
live update, so a resumed stream cannot get less than one that stayed open. Nothing
here decides what is hidden: the game views and the message listing do.

`user_updates` works out a user stream's events (`/users/me/events`) from a bus event.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, NamedTuple

from corridorquest.events import (
    ActionPlayed,
    Event,
    GameCancelled,
    GameFinished,
    GameStarted,
    MessagePosted,
    PlayersInvited,
)
from corridorquest.services import last_commit, presence
from corridorquest.services.auth import CurrentUser
from corridorquest.services.errors import NotFound, Unprocessable
from corridorquest.services.game_access import LoadedGame, can_see, read_game
from corridorquest.services.game_list import active_games
from corridorquest.services.game_views import game_view, history_view, summary_view
from corridorquest.services.messages import (
    last_position,
    message_for,
    messages_since,
    reads_as_everybody,
)
from corridorquest.store.game_rows import ActionRow, actions_from, read_versions

_CURSOR = re.compile(r"(\d{1,18})(?:\.(\d{1,18}))?")

Item = tuple[str, str, dict[str, Any]]  # event name, id, data


class Cursor(NamedTuple):
    """A NamedTuple, not a dataclass: the hub groups the streams of a game by their
    cursors on every look, and a tuple's hash and equality cost a fraction of a
    dataclass's (which are Python functions)."""

    revision: int
    messages: int  # the reader's number of the last message sent (0: none)
    row: int | None = None  # that message's row id, once known (never sent to a client)

    def __str__(self) -> str:
        return f"{self.revision}.{self.messages}"


def parse_cursor(text: str | None) -> Cursor | None:
    """`R` or `R.M` (an event id, `?since=`); None for none. `R` alone: the reader has no
    messages yet (a client that read the game, not its messages, gets them all)."""
    if text is None or text == "":
        return None
    found = _CURSOR.fullmatch(text.strip())
    if found is None:
        raise Unprocessable(
            "invalid_cursor",
            f"{text[:40]!r}: a stream position is a revision, optionally followed by "
            "'.' and a message number (an event id such as 12.3)",
        )
    return Cursor(int(found.group(1)), int(found.group(2) or 0))


@dataclass
class CatchUp:
    items: list[Item]
    cursor: Cursor


def _actions_after(
    loaded: LoadedGame,
    revision: int,
    viewer_id: int,
    shown: dict[str, Any],
    known: last_commit.GameExtras | None,
) -> list[tuple[int, ActionRow, dict[str, Any]]]:
    """`(revision it made, action, history entry)` of each action after `revision`; `shown`: the
    reader's game view now, whose last actions are history entries as the reader sees
    them (the new ones are taken from there when they are among them); `known`: what
    `last_commit` remembers of the game at its revision."""
    game = loaded.game
    found: list[tuple[int | None, ActionRow]]
    if known is not None and known.made == game.revision == revision + 1:
        # one revision on, made by the last action this process remembers (the move of
        # the look's own change, most of the time): that action is the one newer
        found = [(known.made, known.actions[-1])]
    else:
        played = loaded.state.ply if loaded.state is not None else 0
        # every action moved the revision on by one: at most this many are newer
        first = max(1, played - (game.revision - revision) + 1)
        newer = actions_from(game.id, first)
        found = [(made, row) for made, row in newer if (made or 0) > revision]
    if not found:
        return []
    by_number = {entry["n"]: entry for entry in shown["last_actions"]}
    if all(row.n in by_number for _, row in found):
        entries = [by_number[row.n] for _, row in found]
    else:  # some are older than the view's last actions
        entries = history_view(loaded, [row for _, row in found], viewer_id)
    return [
        (made or 0, row, entry) for (made, row), entry in zip(found, entries, strict=True)
    ]


def _view(
    loaded: LoadedGame, viewer_id: int, known: last_commit.GameExtras | None
) -> dict[str, Any]:
    """The game view, from what this process remembers of the game (`known`) where it can."""
    if known is None:
        return game_view(loaded, viewer_id)
    return game_view(loaded, viewer_id, known.actions, known.offers, known.board)


def _known(loaded: LoadedGame) -> last_commit.GameExtras | None:
    return last_commit.extras(loaded.game)


def catch_up(loaded: LoadedGame, viewer_id: int, cursor: Cursor, view: bool = False) -> CatchUp:
    """What a reader at `cursor` has not had of the game (inside a transaction)."""
    items: list[Item] = []
    revision = loaded.game.revision
    number = cursor.messages
    played: list[tuple[int | None, ActionRow]] = []  # the actions since, for their messages
    if revision > cursor.revision or view:
        known = _known(loaded)
        shown = _view(loaded, viewer_id, known)
        if revision > cursor.revision:
            newer = _actions_after(loaded, cursor.revision, viewer_id, shown, known)
            for made, row, action in newer:
                items.append(("action", f"{made}.{number}", action))
                played.append((made, row))
        items.append(("game", f"{revision}.{number}", shown))
    messages, last_row = messages_since(loaded, viewer_id, number, cursor.row, played)
    for message in messages:
        number = message["id"]
        items.append(("message", f"{revision}.{number}", message))
    return CatchUp(items, Cursor(revision, number, last_row))


def first_update(
    loaded: LoadedGame, viewer_id: int, since: Cursor | None
) -> CatchUp:
    """A new stream's first events: the game (and, resuming, what was missed before it)."""
    if since is None:  # from now on: the game as it is, no old messages
        here = Cursor(loaded.game.revision, *last_position(loaded.game, viewer_id))
        item = ("game", str(here), _view(loaded, viewer_id, _known(loaded)))
        return CatchUp([item], here)
    return catch_up(loaded, viewer_id, since, view=True)


def prepare_looks(game_ids: list[int]) -> None:
    """Before a turn's looks at these games (inside their transaction): what each of them
    reads first, read for all of them at once (`game_rows.read_versions`)."""
    read_versions(game_ids)


def game_for_streams(game_id: int) -> LoadedGame | None:
    """The game, None once it is gone (a cancelled game purged); what the look is given
    must not be changed (`read_game`)."""
    try:
        return read_game(game_id)
    except NotFound:
        return None


def may_watch(loaded: LoadedGame, user: CurrentUser, invitation_code: str | None) -> bool:
    """Who may watch is who may `GET` the game: players, anyone for a public game."""
    return can_see(loaded, user, invitation_code)


def plain_spectator(loaded: LoadedGame, user: CurrentUser) -> bool:
    """A watcher that reads a public game exactly as every other non-player does (its
    streams may share their updates): not a player, not a system admin, and no message
    of the game was written by or to it (a former player's)."""
    game = loaded.game
    if game.private or user.is_admin or loaded.is_player(user.id):
        return False
    return reads_as_everybody(game, user.id)


def online_view(loaded: LoadedGame) -> dict[str, Any]:
    """The `presence` event: the players holding a stream open (as the game view says)."""
    names = {player.user_id: player.user.username for player in loaded.players}
    return {"online": [names[uid] for uid in presence.online(loaded.game.id, names)]}


# --- user streams -----------------------------------------------------------------------


def user_games(user: CurrentUser) -> dict[str, Any]:
    """A user stream's first event: the caller's waiting and started games."""
    return {"games": active_games(user)}


def user_updates(event: Event, listening: set[int]) -> list[tuple[int, str, dict[str, Any]]]:
    """`(user id, event name, data)` for the users in `listening` that `event` concerns
    (inside a transaction)."""
    game_id = getattr(event, "game_id", None)
    if game_id is None:
        return []
    loaded = game_for_streams(game_id)
    if loaded is None:
        return []
    players = {p.user_id for p in loaded.players}
    out: list[tuple[int, str, dict[str, Any]]] = []

    def to(user_ids: set[int], name: str, **extra: Any) -> None:
        for uid in sorted(user_ids & listening):
            out.append((uid, name, {"game": summary_view(loaded), **extra}))

    if isinstance(event, ActionPlayed) and event.next_user_id is not None:
        to({event.next_user_id}, "turn")
    elif isinstance(event, GameStarted):
        to(players, "started")
        to({event.first_user_id}, "turn")
    elif isinstance(event, GameFinished):
        to(players, "finished")
    elif isinstance(event, GameCancelled):
        to(players, "cancelled", reason=game_view(loaded, 0)["cancel_reason"])
    elif isinstance(event, PlayersInvited):
        for uid in sorted(set(event.invitee_ids) & listening):
            out.append(
                (
                    uid,
                    "invited",
                    {
                        "game": summary_view(loaded),
                        "by": loaded.player_of(event.inviter_id).user.username  # type: ignore[union-attr]
                        if loaded.is_player(event.inviter_id)
                        else None,
                        "invitation_code": event.invitation_code,
                    },
                )
            )
    elif isinstance(event, MessagePosted) and event.recipient_id is not None:
        if event.recipient_id in listening:
            message = message_for(loaded, event.message_id, event.recipient_id)
            if message is not None:
                out.append(
                    (event.recipient_id, "dm", {"game": summary_view(loaded), "message": message})
                )
    return out
