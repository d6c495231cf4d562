"""The one error a record raises: a machine-readable reason, a message, and where."""

from __future__ import annotations


class RecordError(ValueError):
    """A record that cannot be read or does not replay.

    ``reason`` is a short code (docs/records.md lists them); ``line`` the line of the text
    (1-based) and ``action`` the number of the action (1-based), where known.
    """

    def __init__(
        self, reason: str, message: str, line: int | None = None, action: int | None = None
    ) -> None:
        where = []
        if line is not None:
            where.append(f"line {line}")
        if action is not None:
            where.append(f"action {action}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.reason = reason
        self.line = line
        self.action = action

    def to_dict(self) -> dict[str, object]:
        return {
            "reason": self.reason,
            "message": str(self),
            "line": self.line,
            "action": self.action,
        }
