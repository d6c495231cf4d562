"""Records as text (tag lines and movetext, like PGN) and as JSON; reading and replaying.

A record keeps its actions in the server's notation (``Record.actions``); the text and the
JSON carry them in the record's orientation (orientation.py). docs/records.md describes
the format.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from corridorquest.engine import (
    PLAYER_COUNTS,
    SIZES,
    EngineError,
    GameState,
    NotationError,
    Seat,
    seats_for,
)
from corridorquest.records.errors import RecordError
from corridorquest.records.orientation import from_record, to_record

# a longer text is refused before it is read: 100 real games with their tags fit, and
# a game of MAX_GAME_ACTIONS (3,000) actions takes about 20,000
MAX_RECORD_CHARS = 200_000
HIDDEN = "?"  # an action the viewer of a game in play may not see (an invisible wall)
SEAT_TAGS = ("North", "East", "South", "West")
# every tag a record may carry, in the order they are written
TAG_ORDER = (
    "Game",
    "Server",
    "Date",
    "Size",
    "Players",
    "First",
    *SEAT_TAGS,
    "Mode",
    "Status",
    "Result",
    "Scores",
    "Imported",
)
_KNOWN = {name.lower(): name for name in TAG_ORDER}
_TAG_LINE = re.compile(r'\[\s*([A-Za-z]+)\s+"([^"\\\n]*)"\s*\]')
_NUMBER = re.compile(r"([0-9]+)\.(.*)")  # ASCII digits only (str.isdigit is wider)
_COUNT = re.compile(r"[0-9]{1,3}")  # a Size or Players value: ASCII digits
_LINE_WIDTH = 79
_LONGEST_WORD = 12  # an action is 2 to 4 characters (`q17h`)
_NAMES = re.compile(r"\b[a-z]\d{1,2}[hv]?\b")


@dataclass
class Record:
    """One game: its variant, first mover (a server seat), actions in the server's notation
    (None: hidden from the viewer), and its other tags by name (``TAG_ORDER``)."""

    size: int
    players: int
    first: Seat
    actions: list[str | None] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    # the line of the text each action was read from (empty, or None: not from a text)
    lines: list[int | None] = field(default_factory=list, compare=False, repr=False)

    def all_tags(self) -> dict[str, str]:
        tags = dict(self.tags)
        tags.update(Size=str(self.size), Players=str(self.players), First=self.first.value)
        return {name: tags[name] for name in TAG_ORDER if name in tags}

    def record_actions(self) -> list[str | None]:
        """The actions in the record's orientation (the first mover starts on the south)."""
        return [
            None if text is None else to_record(text, self.size, self.first)
            for text in self.actions
        ]

    def movetext(self) -> str:
        words: list[str] = []
        for index, text in enumerate(self.record_actions()):
            if index % self.players == 0:
                words.append(f"{index // self.players + 1}.")
            words.append(HIDDEN if text is None else text)
        lines: list[str] = []
        line = ""
        for word in words:
            if line and len(line) + 1 + len(word) > _LINE_WIDTH:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        if line:
            lines.append(line)
        return "\n".join(lines)


# -- writing ------------------------------------------------------------------------------


def _quoted(value: str) -> str:
    return value.replace('"', "'").replace("\\", "/").replace("\n", " ")


def format_text(record: Record) -> str:
    """The record as tag lines, a blank line and the movetext (ends with a newline)."""
    tags = "".join(f'[{name} "{_quoted(value)}"]\n' for name, value in record.all_tags().items())
    movetext = record.movetext()
    return f"{tags}\n{movetext}\n" if movetext else tags


def format_records(records: list[Record]) -> str:
    """Several records as one file: each after a blank line."""
    return "\n".join(format_text(record) for record in records)


def format_json(record: Record) -> dict[str, Any]:
    return {
        "tags": record.all_tags(),
        "actions": record.record_actions(),
        "movetext": record.movetext(),
    }


# -- reading ------------------------------------------------------------------------------


def _count(text: str) -> int:
    """A tag's small number in ASCII digits (0: anything else, e.g. other scripts' digits)."""
    text = text.strip()
    return int(text) if _COUNT.fullmatch(text) else 0


def _variant(tags: dict[str, str], line: int | None) -> tuple[int, int, Seat]:
    if "Size" not in tags:
        raise RecordError("missing_size", 'a record needs a size tag, e.g. [Size "9"]', line)
    size = _count(tags["Size"])
    if size not in SIZES:
        raise RecordError(
            "bad_tag", f"Size {tags['Size']!r}: must be one of 5, 7, 9, 11, 13, 15, 17", line
        )
    players = _count(tags.get("Players", "2"))
    if players not in PLAYER_COUNTS:
        raise RecordError("bad_tag", f"Players {tags.get('Players')!r}: must be 2 or 4", line)
    first_text = tags.get("First", "south").strip().lower()
    seats = {seat.value: seat for seat in seats_for(players)}
    if first_text not in seats:
        raise RecordError(
            "bad_tag",
            f"First {tags.get('First')!r}: must be a seat of the game ({', '.join(seats)})",
            line,
        )
    return size, players, seats[first_text]


def _build(
    tags: dict[str, str], tokens: list[tuple[str | None, int | None]], tag_line: int | None
) -> Record:
    """A record from its tags and its actions in record notation (with their lines)."""
    size, players, first = _variant(tags, tag_line)
    actions: list[str | None] = []
    for number, (text, line) in enumerate(tokens, start=1):
        if text is None or text == HIDDEN:
            raise RecordError(
                "hidden_action",
                "this action is hidden (the record was exported during play)",
                line,
                number,
            )
        if len(text) > _LONGEST_WORD:  # (not echoed whole)
            message = f"{text[:_LONGEST_WORD]}...: not a square or a wall of the board"
            raise RecordError("bad_notation", message, line, number)
        try:
            actions.append(from_record(text, size, first))
        except NotationError as error:
            raise RecordError("bad_notation", str(error), line, number) from None
    others = {k: v for k, v in tags.items() if k not in ("Size", "Players", "First")}
    return Record(size, players, first, actions, others, [line for _, line in tokens])


def _movetext_tokens(
    line_text: str,
    line: int,
    tokens: list[tuple[str | None, int | None]],
    players: int,
    max_actions: int | None,
) -> None:
    for word in line_text.split():
        match = _NUMBER.fullmatch(word)
        if match is not None:
            expected = len(tokens) // players + 1
            # compared as text: int() refuses more than 4,300 digits (and needs none)
            if len(tokens) % players != 0 or match[1].lstrip("0") != str(expected):
                raise RecordError(
                    "bad_move_number",
                    f"{match[1][:12]}.: expected {expected}. after {len(tokens)} actions "
                    f"({players} actions a number)",
                    line,
                )
            word = match[2]
            if not word:
                continue
        if word.startswith("[") or word.startswith("{") or word.startswith(";"):
            raise RecordError("bad_notation", f"{word[:20]}: not an action", line, len(tokens) + 1)
        if max_actions is not None and len(tokens) >= max_actions:
            raise RecordError(
                "too_many_actions",
                f"a game has at most {max_actions} actions (MAX_GAME_ACTIONS); "
                "nothing was replayed",
                line,
                len(tokens) + 1,
            )
        tokens.append((word, line))


def parse_records(text: str, max_actions: int | None = None) -> list[Record]:
    """Every record of ``text`` (one or several); RecordError at the first problem.

    Each record: tag lines ``[Name "value"]`` (a ``Size`` tag at least), then the
    movetext. Nothing is replayed here: ``replay`` checks the rules. ``max_actions``: a
    record with more actions is refused (``too_many_actions``) while it is read.
    """
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError("too_long", f"a record file has at most {MAX_RECORD_CHARS} characters")
    records: list[Record] = []
    tags: dict[str, str] = {}
    tag_line: int | None = None
    tokens: list[tuple[str | None, int | None]] = []
    raw_lines: list[tuple[str, int]] = []
    in_movetext = False
    after_blank = False  # a blank line since the last tag: a tag line begins a new record

    def finish() -> None:
        if not tags and not raw_lines:
            return
        players = 2
        if "Players" in tags and tags["Players"].strip() in ("2", "4"):
            players = int(tags["Players"].strip())
        for raw, number in raw_lines:
            _movetext_tokens(raw, number, tokens, players, max_actions)
        records.append(_build(tags, tokens, tag_line))

    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped:
            after_blank = True
            continue
        if stripped.startswith("["):
            if in_movetext or (tags and after_blank):  # the next record begins
                finish()
                tags, tokens, raw_lines, tag_line, in_movetext = {}, [], [], None, False
            match = _TAG_LINE.fullmatch(stripped)
            if match is None:
                raise RecordError(
                    "bad_tag",
                    f'{stripped[:40]}: not a tag line [Name "value"] (cut short?)',
                    number,
                )
            name = _KNOWN.get(match[1].lower())
            if name is None:
                raise RecordError(
                    "unknown_tag",
                    f"{match[1]}: not a tag of a record ({', '.join(TAG_ORDER)})",
                    number,
                )
            if name in tags:
                raise RecordError("duplicate_tag", f"{name}: given twice", number)
            tags[name] = match[2]
            tag_line = tag_line or number
            after_blank = False
            continue
        in_movetext = True
        raw_lines.append((stripped, number))
    finish()
    if not records:
        raise RecordError("empty", "no record in the text")
    return records


def record_from_json(data: Any) -> Record:
    """A record from its JSON form (``format_json``): the tags and the actions are used."""
    if not isinstance(data, dict) or not isinstance(data.get("tags"), dict):
        raise RecordError("bad_json", 'a JSON record is {"tags": {...}, "actions": [...]}')
    tags: dict[str, str] = {}
    for key, value in data["tags"].items():
        name = _KNOWN.get(str(key).lower())
        if name is None:
            raise RecordError("unknown_tag", f"{key}: not a tag of a record")
        if not isinstance(value, (str, int)):
            raise RecordError("bad_tag", f"{key}: a tag's value is a text")
        tags[name] = str(value)
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(
        item is None or isinstance(item, str) for item in actions
    ):
        raise RecordError("bad_json", "actions: a list of notations")
    return _build(tags, [(item, None) for item in actions], None)


# -- replaying ----------------------------------------------------------------------------


def replay(record: Record) -> list[GameState]:
    """The positions of the game: before the first action and after each one.

    RecordError (``illegal_action``, with its number and the engine's reason) at the
    first action the rules refuse.
    """
    return played(record)[0]


def played(record: Record) -> tuple[list[GameState], list[tuple[Seat, str]]]:
    """``replay``'s positions, and the seat and kind (move, jump, wall) of each action."""
    state = GameState.new(record.size, record.players, record.first)
    positions = [state.copy()]
    movers: list[tuple[Seat, str]] = []
    for number, text in enumerate(record.actions, start=1):
        if text is None:
            line = record.lines[number - 1] if number <= len(record.lines) else None
            raise RecordError("hidden_action", "this action is hidden", line, number)
        seat = state.turn
        try:
            action = state.play_notation(text)
        except EngineError as error:
            message = _NAMES.sub(
                lambda m: _record_name(m[0], record), str(error)
            )  # the engine names squares and walls on the server's board
            line = record.lines[number - 1] if number <= len(record.lines) else None
            raise RecordError("illegal_action", message, line, number) from None
        assert seat is not None
        movers.append((seat, action.kind))
        positions.append(state.copy())
    return positions, movers


def _record_name(name: str, record: Record) -> str:
    try:
        return to_record(name, record.size, record.first)
    except NotationError:
        return name
