"""Migration step 8: stored texts name users by id, not by username (SPEC §7).

Before this step, system messages (and a cancelled game's reason) were stored with the
usernames of the moment: after a rename they kept the old name, and whoever took the old
name seemed to have played. Since then they are stored with `{user:12}` for user 12
(literal braces doubled) and rendered with the current names (`services.user_refs`).

This step rewrites the stored texts of older games. It knows what the server used to
write (the templates below) and maps a name in a name's place to a user:
- a user the row is about: the game's players, its admin and winner, the message's
  sender and recipient, by their current usernames;
- else the user that has that username now, if it existed when the text was written (a
  user created later took the name of somebody who had renamed: never them).
A name it cannot map stays as text, as does every text that is no known template (the
administrators' broadcasts; player messages are the players' own words and are not
touched at all). Frozen on purpose: it writes the stored format literally and keeps its
own copy of the templates, so that later changes of the services never change it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator, Sequence
from datetime import datetime

import peewee as pw

from corridorquest.store.models import Game, GameMessage, GamePlayer, User

_BATCH = 2000
_STORED = re.compile(r"\{user:\d+\}")  # a text in the stored format already
_NAME = r"[A-Za-z][A-Za-z0-9_-]*"
_SEAT = r"(?:North|East|South|West)"


def _compiled(template: str) -> re.Pattern[str]:
    """A template with `<>` for each name: a pattern with groups u0, u1, ... for them."""
    parts = template.split("<>")
    pattern = parts[0]
    for number, part in enumerate(parts[1:]):
        pattern += f"(?P<u{number}>{_NAME})" + part
    return re.compile(pattern)


_MESSAGES = [
    _compiled(template)
    for template in (
        r"<> created the game \(.*\)",
        r"<> invited \d+ users? by e-mail",
        r"<> joined the game",
        r"<> left the game",
        rf"<> \({_SEAT}\) (?:placed wall \S+|placed a wall|moved to \S+|jumped to \S+)",
        r"<> has no legal action and passes",
        r"<> offers to (?:buy|sell) a wall \(wall cost \d+\)",
        r"<> privately offers <> to (?:buy|sell) a wall \(wall cost \d+\)",
        r"<> withdrew the offer to (?:buy|sell) a wall",
        r"<> sold a wall to <> on <>'s offer \(wall cost \d+\)",
        r"The game was cancelled: <> withdrew",
        r"The game was cancelled: cancelled by <>",
    )
]
_REASONS = [_compiled(r"<> withdrew"), _compiled(r"cancelled by <>")]
# with a list of names: "The game started: a plays North, b plays South. a moves first."
_STARTED = re.compile(rf"The game started: (?P<list>.+)\. (?P<u>{_NAME}) moves first\.")
_STARTED_ITEM = re.compile(rf"(?P<u>{_NAME}) plays {_SEAT}")
# "a won the game. Scores: a 57, b 40"
_WON = re.compile(rf"(?P<u>{_NAME}) won the game\. Scores: (?P<list>.+)")
_WON_ITEM = re.compile(rf"(?P<u>{_NAME}) -?\d+")


def _listed(match: re.Match[str], item: re.Pattern[str]) -> list[tuple[int, int]] | None:
    """The spans of the names in a match's ", "-separated list and its `u` group."""
    spans = []
    at = match.start("list")
    for part in match.group("list").split(", "):
        found = item.fullmatch(part)
        if found is None:
            return None
        spans.append((at + found.start("u"), at + found.end("u")))
        at += len(part) + 2
    spans.append(match.span("u"))
    return sorted(spans)


def _name_spans(text: str, patterns: list[re.Pattern[str]]) -> list[tuple[int, int]] | None:
    """Where the names are in `text`, if it is one of the templates (else None)."""
    for pattern in patterns:
        match = pattern.fullmatch(text)
        if match is not None:
            return [match.span(group) for group in sorted(pattern.groupindex)]
    if patterns is _MESSAGES:
        for pattern, item in ((_STARTED, _STARTED_ITEM), (_WON, _WON_ITEM)):
            match = pattern.fullmatch(text)
            if match is not None:
                return _listed(match, item)
    return None


def _literal(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


class _Users:
    """Who a name in a text can be: the users a row is about, else the holder of the name
    if it existed when the text was written."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}
        self.holders: dict[str, tuple[int, datetime | None]] = {}
        query = User.select(User.id, User.username, User.created_at).tuples()
        for user_id, username, created in query:
            self.names[user_id] = username
            self.holders[username] = (user_id, created)

    def about(self, ids: Iterator[int | None]) -> dict[str, int]:
        return {self.names[i]: i for i in ids if i is not None and i in self.names}

    def find(self, name: str, about: dict[str, int], written: datetime | None) -> int | None:
        if name in about:
            return about[name]
        holder = self.holders.get(name)
        if holder is None:
            return None
        user_id, created = holder
        if created is not None and written is not None and created > written:
            return None
        return user_id

    def convert(
        self,
        text: str | None,
        patterns: list[re.Pattern[str]],
        about: dict[str, int],
        written: datetime | None,
    ) -> str | None:
        """`text` in the stored format: known names as references, the rest literal."""
        if text is None or _STORED.search(text):
            return text
        spans = _name_spans(text, patterns) or []
        out = []
        at = 0
        for start, end in spans:
            out.append(_literal(text[at:start]))
            user_id = self.find(text[start:end], about, written)
            out.append(f"{{user:{user_id}}}" if user_id is not None else text[start:end])
            at = end
        out.append(_literal(text[at:]))
        return "".join(out)


def _game_users(users: _Users) -> dict[int, dict[str, int]]:
    """By game id: the current usernames of its players, admin and winner, to user ids."""
    ids: dict[int, set[int | None]] = defaultdict(set)
    for game_id, user_id in GamePlayer.select(GamePlayer.game, GamePlayer.user).tuples():
        ids[game_id].add(user_id)
    for game_id, admin_id, winner_id in Game.select(Game.id, Game.admin, Game.winner).tuples():
        ids[game_id].update((admin_id, winner_id))
    return {game_id: users.about(iter(found)) for game_id, found in ids.items()}


_Message = tuple[int, int, int | None, int | None, str, str | None, datetime | None]


def _system_messages() -> Iterator[list[_Message]]:
    """Every system message, in batches (by id)."""
    last = 0
    while True:
        batch = list(
            GameMessage.select(
                GameMessage.id,
                GameMessage.game,
                GameMessage.sender,
                GameMessage.recipient,
                GameMessage.text,
                GameMessage.detail,
                GameMessage.at,
            )
            .where((GameMessage.kind == "system") & (GameMessage.id > last))
            .order_by(GameMessage.id)
            .limit(_BATCH)
            .tuples()
        )
        if not batch:
            return
        yield batch
        last = batch[-1][0]


def _update(
    db: pw.Database, table: str, columns: tuple[str, ...], rows: Sequence[Sequence[object]]
) -> None:
    if not rows:
        return
    sets = ", ".join(f'"{column}" = {db.param}' for column in columns)
    sql = f'UPDATE "{table}" SET {sets} WHERE "id" = {db.param}'
    db.cursor().executemany(sql, rows)


def name_users_by_id(db: pw.Database) -> None:
    """Rewrite the stored system messages and cancel reasons (see the module docstring)."""
    users = _Users()
    by_game = _game_users(users)
    table = GameMessage._meta.table_name
    for batch in _system_messages():
        changed = []
        for message_id, game_id, sender_id, recipient_id, text, detail, written in batch:
            about = {**by_game.get(game_id, {}), **users.about(iter((sender_id, recipient_id)))}
            new_text = users.convert(text, _MESSAGES, about, written)
            new_detail = users.convert(detail, _MESSAGES, about, written)
            if (new_text, new_detail) != (text, detail):
                changed.append((new_text, new_detail, message_id))
        _update(db, table, ("text", "detail"), changed)
    reasons = []
    cancelled = Game.select(Game.id, Game.cancel_reason, Game.cancelled_at).where(
        Game.cancel_reason.is_null(False)
    )
    for game_id, reason, written in cancelled.tuples():
        new_reason = users.convert(reason, _REASONS, by_game.get(game_id, {}), written)
        if new_reason != reason:
            reasons.append((new_reason, game_id))
    _update(db, Game._meta.table_name, ("cancel_reason",), reasons)
