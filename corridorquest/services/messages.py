"""Game messages (SPEC §8): broadcasts, DMs, the per-player limit, mute, reading, admin broadcasts.

Who reads what:
- a player: every system message and broadcast, and its own DMs (sent or received);
  messages of players it muted in the game are left out (system messages never are);
- a non-player: system messages and broadcasts of public games only (a private game
  that the caller may not see is 404; one it may see, as a system admin, lists nothing);
- a system message about a private offer or trade is read by its two players only.

What a reader may not read leaves no trace in what it reads (docs/api.md, Messages):
a message's `id` is its number among the messages of the game that the reader is party
to or that everybody reads (1, 2, 3, ... in the order they were written), so a DM or a
private offer between two others is neither a gap in the numbers nor a step of the
`after` cursor. The same message may have different numbers for different readers; a
reader's numbers never change (messages are only ever added). Messages the reader muted
keep their numbers (its own choice; unmuting shows them again).

System messages name users by id (`user_refs`): they are rendered with the current
usernames when read, one lookup of the names per listing. A move's message is not stored:
it is made from the move's action (`move_messages`, which also says where it stands among
the stored ones).

Writing a message never changes the game's revision (it is not game state). A player
writes at most MESSAGE_LIMIT messages per game (the `message_limit` server value, when an
administrator set one, wins over the setting): over it, 409 `message_limit_reached` and
nothing is stored. System messages are written by `system_messages`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from corridorquest.events import MessagePosted
from corridorquest.security.policy import has_control_characters
from corridorquest.services import move_messages
from corridorquest.services.auth import CurrentUser
from corridorquest.services.context import ServiceContext
from corridorquest.services.errors import Conflict, NotFound, Unprocessable
from corridorquest.services.game_access import LoadedGame, load_visible, require_player
from corridorquest.services.iso_times import iso
from corridorquest.services.server import get_value
from corridorquest.services.system_messages import PLAYER, SYSTEM
from corridorquest.services.unit_of_work import GameWrite, write_game
from corridorquest.services.user_refs import ids_in, render, usernames
from corridorquest.store.game_rows import ActionRow, MessageRow, messages_after
from corridorquest.store.models import Game, GameMessage, MessageMute, User, utcnow

MAX_TEXT = 500
ADMIN_PREFIX = "Message from the administrators: "


def checked_text(text: str) -> str:
    text = text.strip()
    if not text:
        raise Unprocessable("invalid_message", "a message needs some text")
    if len(text) > MAX_TEXT:
        raise Unprocessable("invalid_message", f"a message has at most {MAX_TEXT} characters")
    if has_control_characters(text):
        raise Unprocessable(
            "invalid_message",
            "a message is one line of text without control or invisible characters",
        )
    return text


def message_limit(default: int) -> int:
    """Messages a player may write per game (inside a transaction)."""
    value = get_value("message_limit")
    if value is not None and value.strip().isdigit():
        return int(value)
    return default


def _player_user(loaded: LoadedGame, username: str, role: str) -> User:
    """A player of the game by username: 404 for an unknown user, 422 for a non-player."""
    user = User.find_by_name(username)
    if user is None:
        raise NotFound("user_not_found", f"no user {username}")
    if not loaded.is_player(user.id):
        raise Unprocessable(
            "not_a_player_of_game",
            f"{user.username} is not a player of game {loaded.game.id}: {role}",
        )
    return user


def _muted_ids(game_id: int, user_id: int) -> set[int]:
    query = MessageMute.select(MessageMute.muted).where(
        (MessageMute.game == game_id) & (MessageMute.user == user_id)
    )
    return {row.muted_id for row in query}


def _usernames(loaded: LoadedGame, ids: set[int]) -> dict[int, str]:
    """The current usernames of `ids` (the players' from `loaded`, the others: one query)."""
    return usernames(ids, {p.user_id: p.user.username for p in loaded.players})


def _party_to(row: GameMessage | MessageRow, viewer_id: int) -> bool:
    """Whether everybody reads `row` or `viewer_id` is party to it: what its numbers count."""
    recipient_id = row.recipient_id
    return recipient_id is None or viewer_id == recipient_id or viewer_id == row.sender_id


def _in_order(game: Game, viewer_id: int) -> list[MessageRow]:
    """Every message of the game `viewer_id` is party to, in the order they were written:
    the stored ones and those made from the moves (`move_messages`)."""
    stored = [row for row in messages_after(game.id) if _party_to(row, viewer_id)]
    return move_messages.in_order(stored, move_messages.of_game(game))


def _number_of(game: Game, row_id: int, viewer_id: int) -> int:
    """The number `viewer_id` reads the stored message `row_id` under (0: not party to it)."""
    for number, row in enumerate(_in_order(game, viewer_id), start=1):
        if row.id == row_id:
            return number
    return 0


def message_view(
    row: GameMessage | MessageRow,
    number: int,
    names: dict[int, str],
    viewer_id: int,
    revealed: bool,
) -> dict[str, Any]:
    """One message as `viewer_id` reads it (docs/api.md, Messages).

    `number`: its number for this reader; `names`: the current usernames of its sender,
    recipient and of the users its text names.
    """
    recipient_id = row.recipient_id
    if row.kind == SYSTEM:
        kind = "system"
        sender = None
        stored = row.detail if row.detail and (revealed or row.sender_id == viewer_id) else row.text
        text = render(stored, names)
    else:
        kind = "dm" if recipient_id is not None else "broadcast"
        sender = names.get(row.sender_id) if row.sender_id is not None else None
        text = row.text
    other = None  # of a private message: the other one of its two readers
    if recipient_id is not None:
        other_id = row.sender_id if viewer_id == recipient_id else recipient_id
        other = names.get(other_id) if other_id is not None else None
    return {
        "id": number,
        "at": iso(row.at),
        "kind": kind,
        "from": sender,
        "to": names.get(recipient_id) if recipient_id is not None else None,
        "with": other,
        "text": text,
    }


def _names_for(loaded: LoadedGame, rows: Sequence[GameMessage | MessageRow]) -> dict[int, str]:
    """The current usernames every row's view needs: one lookup for the whole listing."""
    ids = {i for row in rows for i in (row.sender_id, row.recipient_id) if i is not None}
    ids |= ids_in(text for row in rows if row.kind == SYSTEM for text in (row.text, row.detail))
    return _usernames(loaded, ids)


def readable_messages(loaded: LoadedGame, viewer_id: int, after: int = 0) -> list[dict[str, Any]]:
    """The game's messages `viewer_id` may read, oldest first, those numbered above `after`
    (inside a transaction)."""
    return messages_since(loaded, viewer_id, after)[0]


def messages_since(
    loaded: LoadedGame,
    viewer_id: int,
    after: int,
    after_row: int | None = None,
    newer_actions: Sequence[tuple[int | None, ActionRow]] = (),
) -> tuple[list[dict[str, Any]], int | None]:
    """`readable_messages` after number `after`, and the row id of the last stored message
    the reader is party to so far (None: unknown). `after_row`, when known, is that row id
    for `after` (a live stream's position, taken with the game's revision then), and
    `newer_actions` the actions played since that revision (with the revision each made):
    the stored rows after it are read by id, the moves' messages made from those actions,
    not counted from the game's first message."""
    game = loaded.game
    if game.private and not loaded.is_player(viewer_id):
        return [], after_row
    rows: Sequence[MessageRow]
    if after_row is None:  # numbered from the game's first message
        rows = _in_order(game, viewer_id)[after:]
    else:  # the game's rows after that one (the few since), as plain values
        stored = [row for row in messages_after(game.id, after_row) if _party_to(row, viewer_id)]
        rows = move_messages.in_order(stored, move_messages.made_from(game, newer_actions))
    last_row = next((row.id for row in reversed(rows) if row.id is not None), after_row)
    return _views(loaded, viewer_id, list(enumerate(rows, start=after + 1))), last_row


def _views(
    loaded: LoadedGame, viewer_id: int, numbered: list[tuple[int, MessageRow]]
) -> list[dict[str, Any]]:
    """The numbered messages `viewer_id` is party to, as it reads them: without those of
    players it muted, and, once it plays no more, without its own DMs."""
    game = loaded.game
    if loaded.is_player(viewer_id):
        muted = _muted_ids(game.id, viewer_id)
        if muted:
            numbered = [
                (n, row)
                for n, row in numbered
                if row.kind == SYSTEM or row.sender_id not in muted
            ]
    else:  # a former player's own DMs keep their numbers, but it reads them no more
        numbered = [(n, row) for n, row in numbered if row.recipient_id is None]
    names = _names_for(loaded, [row for _, row in numbered])
    revealed = game.status == "finished"
    return [message_view(row, n, names, viewer_id, revealed) for n, row in numbered]


def chat_and_log(
    listed: Sequence[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Messages as read (`readable_messages`) in two lists, each oldest first: the chat
    (players' broadcasts and DMs, and the administrators' messages) and the game's log
    (the other system messages: moves, players coming and going, offers, trades), so
    that moves never push a player's message out of sight (the game page)."""
    chat: list[dict[str, Any]] = []
    log: list[dict[str, Any]] = []
    for message in listed:
        said = message["kind"] != "system" or message["text"].startswith(ADMIN_PREFIX)
        (chat if said else log).append(message)
    return chat, log


def reads_as_everybody(game: Game, viewer_id: int) -> bool:
    """Whether `viewer_id` is party to no message but those everybody reads (no DM or
    private offer was written by or to it): it reads the game's messages as any other
    non-player of a public game does."""
    return not any(
        row.recipient_id is not None and _party_to(row, viewer_id)
        for row in messages_after(game.id)
    )


def last_position(game: Game, viewer_id: int) -> tuple[int, int | None]:
    """(`last_number`, the row id of the last stored message it counts: None when none)."""
    rows = _in_order(game, viewer_id)
    return len(rows), next((row.id for row in reversed(rows) if row.id is not None), None)


def message_for(loaded: LoadedGame, message_id: int, viewer_id: int) -> dict[str, Any] | None:
    """One stored message (by row id) as `viewer_id` reads it, None if it may not (a live DM)."""
    game = loaded.game
    if game.private and not loaded.is_player(viewer_id):
        return None
    for number, row in enumerate(_in_order(game, viewer_id), start=1):
        if row.id == message_id:
            found = _views(loaded, viewer_id, [(number, row)])
            return found[0] if found else None
    return None


async def list_messages(
    ctx: ServiceContext,
    user: CurrentUser,
    game_id: int,
    after: int = 0,
    invitation_code: str | None = None,
) -> dict[str, Any]:
    def read() -> dict[str, Any]:
        loaded = load_visible(game_id, user, invitation_code)
        messages = readable_messages(loaded, user.id, after)
        muted = _muted_ids(game_id, user.id) if loaded.is_player(user.id) else set()
        names = _usernames(loaded, muted)
        return {"messages": messages, "muted": sorted(names[i] for i in muted)}

    return await ctx.store.transaction(read)


async def send_message(
    ctx: ServiceContext,
    user: CurrentUser,
    game_id: int,
    text: str,
    to: str | None = None,
    key: str | None = None,
) -> dict[str, Any]:
    """A player's broadcast (`to` None) or DM to another player of the game."""
    text = checked_text(text)

    def post(work: GameWrite) -> tuple[int, dict[str, Any]]:
        loaded = work.loaded
        require_player(loaded, user)
        if loaded.game.status == "cancelled":
            raise Conflict("game_cancelled", f"game {game_id} is cancelled")
        recipient = None
        if to is not None:
            recipient = _player_user(loaded, to, "a DM goes to a player of the game")
            if recipient.id == user.id:
                raise Unprocessable("invalid_recipient", "you cannot send a DM to yourself")
        limit = message_limit(ctx.settings.message_limit)
        sent = (
            GameMessage.select()
            .where(
                (GameMessage.game == game_id)
                & (GameMessage.sender == user.id)
                & (GameMessage.kind == PLAYER)
            )
            .count()
        )
        if sent >= limit:
            raise Conflict(
                "message_limit_reached",
                f"you have written {sent} messages in game {game_id}; the limit is {limit}",
                limit=limit,
            )
        row = GameMessage.create(
            game=game_id,
            kind=PLAYER,
            sender=user.id,
            recipient=recipient.id if recipient else None,
            text=text,
            at=utcnow(),
            revision=loaded.game.revision,
        )
        work.emit(
            MessagePosted(
                game_id=game_id,
                revision=loaded.game.revision,
                message_id=row.id,
                sender_id=user.id,
                recipient_id=row.recipient_id,
            )
        )
        names = _usernames(loaded, {user.id} | ({recipient.id} if recipient else set()))
        number = _number_of(loaded.game, row.id, user.id)
        return 201, message_view(row, number, names, user.id, False)

    return dict((await write_game(ctx, user, key, "post a message", game_id, post)).body)


async def set_mute(
    ctx: ServiceContext, user: CurrentUser, game_id: int, username: str, muted: bool
) -> dict[str, Any]:
    """Mute (or unmute) another player's messages for the caller in one game."""

    def write() -> dict[str, Any]:
        loaded = load_visible(game_id, user)
        require_player(loaded, user)
        target = _player_user(loaded, username, "only players of the game can be muted")
        if target.id == user.id:
            raise Unprocessable("invalid_mute", "you cannot mute yourself")
        match = (
            (MessageMute.game == game_id)
            & (MessageMute.user == user.id)
            & (MessageMute.muted == target.id)
        )
        exists = MessageMute.select().where(match).exists()
        if muted and not exists:
            MessageMute.create(game=game_id, user=user.id, muted=target.id)
        elif not muted and exists:
            MessageMute.delete().where(match).execute()
        ids = _muted_ids(game_id, user.id)
        names = _usernames(loaded, ids)
        return {"muted": sorted(names[i] for i in ids)}

    return await ctx.store.transaction(write)
