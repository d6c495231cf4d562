"""What a username, e-mail address, password, description and ntfy topic may be (SPEC §7).

Each ``check_*`` returns the cleaned value or raises ``InvalidValue`` (security/errors.py;
the services answer it with 422) with the stable reason clients switch on
(``invalid_username``, ``invalid_email``, ...).
"""

from __future__ import annotations

import re

from corridorquest.security.errors import InvalidValue

USERNAME_MAX = 10
GAME_TOPIC_PREFIX = "game_"  # the ntfy topics of games (notify/facts.py)
DESCRIPTION_MAX = 50
PASSWORD_MIN = 8
PASSWORD_MAX = 256
EMAIL_MAX = 254
THEMES = ("dark", "light", "translucent")
RESERVED_USERNAMES = frozenset({"me"})  # /users/me is the caller

# Patterns are used with `fullmatch`: with `match`, `$` also matches before a final "\n",
# so "bob\n" passed as a username (and "…topic\n" as an ntfy topic).
_USERNAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
# local@domain: a practical check of the format (the code mailed proves the address).
# A dotless domain (admin@localhost) is allowed: it is valid on a LAN.
_EMAIL = re.compile(
    r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@"
    r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*"
)
_NTFY_TOPIC = re.compile(r"[A-Za-z0-9_-]{1,64}")
# The names kept for the server's bots (docs/players-guide.md, "Bots"), in any case and
# with 0 for o: "bot" alone, "bot" then - or _ and anything ("bot-1", "bot_fan"), "bot"
# then a digit ("bot7", "bot-1b"). Not "bots", "botany", "robot-1".
_BOT_NAME = re.compile(r"b[o0]t(?:[-_]*(\d+).*|[-_].*)?", re.IGNORECASE)


def looks_like_a_bot(username: str) -> bool:
    """Whether `username` is one of the names kept for the server's bots."""
    return _BOT_NAME.fullmatch(username) is not None


def bot_name_level(username: str) -> int | None:
    """The level a bot's name announces ("bot-4" and "bot-4b": 4); None when it names none."""
    match = _BOT_NAME.fullmatch(username)
    return None if match is None or match.group(1) is None else int(match.group(1))


def check_username(username: str, *, for_bot: bool = False) -> str:
    """A username a person (or a guest) may take; `for_bot`: a bot's, which may look like
    one (an administrator renames the bots)."""
    if not username:
        raise InvalidValue("invalid_username", "the username must not be empty")
    if len(username) > USERNAME_MAX:
        raise InvalidValue(
            "invalid_username", f"the username may have at most {USERNAME_MAX} characters"
        )
    if not _USERNAME.fullmatch(username):
        raise InvalidValue(
            "invalid_username",
            "the username must start with a letter, followed by letters, digits, _ or -",
        )
    if username.lower() in RESERVED_USERNAMES:
        raise InvalidValue("invalid_username", f"the username {username!r} is reserved")
    if username.lower().startswith(GAME_TOPIC_PREFIX):
        # a user's ntfy topic is its username; game topics are game_<id> / game_<code>
        raise InvalidValue(
            "invalid_username", f"a username may not start with {GAME_TOPIC_PREFIX!r}"
        )
    if not for_bot and looks_like_a_bot(username):
        raise InvalidValue(
            "reserved_for_bots",
            f"the username {username!r} looks like a bot's: names that are 'bot' or begin "
            "with 'bot' and then -, _ or a digit are kept for the server's bots",
        )
    return username


def check_email(email: str) -> str:
    email = email.strip()
    local = email.rpartition("@")[0]
    if (
        len(email) > EMAIL_MAX
        or len(local) > 64
        or not _EMAIL.fullmatch(email)
        or local.startswith(".")
        or local.endswith(".")
        or ".." in local
    ):
        raise InvalidValue("invalid_email", f"{email!r} is not a valid e-mail address")
    return email


def check_password(password: str, username: str) -> str:
    if len(password) < PASSWORD_MIN:
        raise InvalidValue(
            "invalid_password", f"the password needs at least {PASSWORD_MIN} characters"
        )
    if len(password) > PASSWORD_MAX:
        raise InvalidValue(
            "invalid_password", f"the password may have at most {PASSWORD_MAX} characters"
        )
    if password.strip().lower() == username.lower():
        raise InvalidValue("invalid_password", "the password must not be the username")
    return password


# Characters that must never reach another user's screen, because they act on it or
# cannot be seen there: C0 controls (line breaks and tabs too), DEL, C1 controls; the
# line and paragraph separators (U+2028, U+2029); the bidirectional marks, embeddings,
# overrides and isolates (they reorder what one reads); the zero-width space, the word
# joiner and the invisible operators, the byte order mark, the soft hyphen and the other
# characters Unicode says to draw as nothing (its Default_Ignorable_Code_Point, the
# Hangul fillers among them); the noncharacters U+FFFE and U+FFFF, the interlinear
# annotation marks, and surrogates (no text holds one; PostgreSQL cannot store one).
# A message of one U+200B otherwise reached every game as an empty line.
_INVISIBLE = (
    (0x00, 0x1F), (0x7F, 0x9F), (0xAD, 0xAD), (0x34F, 0x34F), (0x61C, 0x61C),
    (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200B),
    (0x200E, 0x200F), (0x2028, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xD800, 0xDFFF), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFFB),
    (0xFFFE, 0xFFFF), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE001F),
    (0xE0080, 0xE00FF), (0xE01F0, 0xE0FFF),
)  # fmt: skip


def _class(ranges: tuple[tuple[int, int], ...], escape: bool) -> str:
    """A character class of the ranges: the characters themselves (Python), or four-digit
    \\u escapes of those below U+10000 but the surrogates (a JSON Schema pattern: ECMA-262
    regular expressions without the u flag have no notation for the others, and a JSON
    body with a lone surrogate is refused before any pattern, 400)."""
    parts = []
    for low, high in ranges:
        if escape and (high > 0xFFFF or 0xD800 <= low <= 0xDFFF):
            continue
        first, last = (f"\\u{low:04x}", f"\\u{high:04x}") if escape else (chr(low), chr(high))
        parts.append(first if low == high else f"{first}-{last}")
    return "".join(parts)


_CONTROL = re.compile(f"[{_class(_INVISIBLE, escape=False)}]")
# What the OpenAPI document declares for a text that may hold none of them (the joiners'
# rule below is the server's alone: a text the pattern allows may still be refused, 422).
VISIBLE_TEXT_PATTERN = f"^[^{_class(_INVISIBLE, escape=True)}]*$"
# The joiners and selectors that shape the character before them, which people do type:
# the zero-width non-joiner and joiner (Persian and Indic words, emoji sequences such as
# a family), the variation selectors (the emoji form of a heart) and the emoji tags
# (the flag of Scotland). Allowed after a visible character; at the start of the text or
# after a space they shape nothing and are refused like the characters above.
_SHAPING = "\u200c\u200d\ufe00-\ufe0f\U000e0020-\U000e007f\U000e0100-\U000e01ef"
_LONE_SHAPING = re.compile(f"(?:^|(?<=\\s))[{_SHAPING}]")


def has_control_characters(text: str) -> bool:
    """Whether `text` holds a character that must never reach another user's screen: a
    control or invisible character (the list above), or a joiner or selector that joins
    nothing. The one check of every text one user writes for others to read (messages,
    broadcasts, descriptions, the MOTD)."""
    return _CONTROL.search(text) is not None or _LONE_SHAPING.search(text) is not None


def check_description(description: str) -> str:
    if has_control_characters(description):
        raise InvalidValue(
            "invalid_description",
            "the description must be one line without control or invisible characters",
        )
    if len(description) > DESCRIPTION_MAX:
        raise InvalidValue(
            "invalid_description",
            f"the description may have at most {DESCRIPTION_MAX} characters",
        )
    return description


def check_ntfy_topic(topic: str | None) -> str | None:
    """A topic, or None to clear it (an empty string clears it too)."""
    if topic is None or topic == "":
        return None
    # Longer than any username and never game_...: a DM topic is never the (public) topic of
    # a user or a game, where other players' DMs would be read by anyone.
    if (
        not _NTFY_TOPIC.fullmatch(topic)
        or len(topic) <= USERNAME_MAX
        or topic.lower().startswith(GAME_TOPIC_PREFIX)
    ):
        raise InvalidValue(
            "invalid_ntfy_topic",
            f"a DM topic has {USERNAME_MAX + 1} to 64 letters, digits, _ or -, and does not "
            f"start with {GAME_TOPIC_PREFIX!r} (keep it secret: whoever knows it reads your DMs)",
        )
    return topic


def check_theme(theme: str) -> str:
    if theme not in THEMES:
        raise InvalidValue("invalid_theme", f"the theme must be one of {', '.join(THEMES)}")
    return theme
