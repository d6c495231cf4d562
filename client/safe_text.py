"""Text from the server made safe for a terminal.

Whatever another user wrote reaches this client through the server: a message, a
username, a description, the MOTD. A control character in it (an escape sequence, a
carriage return, a bidirectional override) could rewrite the reader's terminal: recolour
it, move the cursor, hide or fake lines. The server refuses such characters in what users
write, but a client must not trust that (an older server, an edited database), so every
string of every JSON answer passes through `visible` as it arrives (`ApiClient`): each
such character is shown as an escape (`\\x1b`, `\\u202e`) instead of acting.
"""

from __future__ import annotations

import re
from typing import Any

# C0 controls (newlines and tabs too: no server text spans lines), DEL, C1 controls, and
# the bidirectional embedding, override and isolate characters.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with every control character replaced by its escape."""
    return _UNSAFE.sub(_escape, text)


def visible_json(value: Any) -> Any:
    """A decoded JSON value with `visible` applied to every string in it, keys too."""
    if isinstance(value, str):
        return visible(value) if _UNSAFE.search(value) else value
    if isinstance(value, list):
        return [visible_json(item) for item in value]
    if isinstance(value, dict):
        return {visible_json(key): visible_json(item) for key, item in value.items()}
    return value
