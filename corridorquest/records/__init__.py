"""Game records in the common Quoridor notation (SPEC §16): tags, movetext, conversion.

Pure: imports nothing of ours but the engine. The format and the orientation rule are
described in docs/records.md.
"""

from corridorquest.records.errors import RecordError
from corridorquest.records.orientation import from_record, to_record, turns_for
from corridorquest.records.text import (
    MAX_RECORD_CHARS,
    TAG_ORDER,
    Record,
    format_json,
    format_records,
    format_text,
    parse_records,
    played,
    record_from_json,
    replay,
)

__all__ = [
    "MAX_RECORD_CHARS",
    "TAG_ORDER",
    "Record",
    "RecordError",
    "format_json",
    "format_records",
    "format_text",
    "from_record",
    "parse_records",
    "played",
    "record_from_json",
    "replay",
    "to_record",
    "turns_for",
]
