"""Processes by their /proc entries (Linux): a server's children, and whether one ended."""

from __future__ import annotations

import time
from pathlib import Path


def _stat(pid: int | str) -> list[str] | None:
    """The fields after the command name of /proc/PID/stat (None: no such process)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def children(pid: int, name: str | None = None) -> list[int]:
    """The live processes whose parent is `pid` (zombies left out); with `name`, those
    whose command name (`ps`, /proc/PID/comm) it is: the server's helpers name themselves
    cq-stream-write and cq-stream-look."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat(entry.name)
        if fields is not None and int(fields[1]) == pid and fields[0] != "Z":
            if name is None or _comm(entry.name) == name:
                found.append(int(entry.name))
    return found


def _comm(pid: int | str) -> str | None:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return None


def gone(pid: int, within: float) -> bool:
    """Whether process `pid` ends (or is a zombie) within `within` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        fields = _stat(pid)
        if fields is None or fields[0] == "Z":
            return True
        time.sleep(0.05)
    return False
