"""Who may read the server's files: the SQLite database holds password hashes and e-mail
addresses, so its file and its backups are created mode 600 (the owner alone) and a new
data directory mode 700.

SQLite gives the -wal, -shm and -journal files it makes the mode of their database file,
so they follow. Files and directories that exist already keep their mode (an
administrator may have chosen it): `corridorquest serve` warns when the database can be
read by other users (docs/administration.md says how to tighten it).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

PRIVATE_FILE = 0o600
PRIVATE_DIRECTORY = 0o700


def make_private_directory(path: Path) -> None:
    """Create `path` (mode 700) and its missing parents (ordinary mode) unless it exists."""
    path.mkdir(mode=PRIVATE_DIRECTORY, parents=True, exist_ok=True)


def create_private_file(path: Path) -> None:
    """Create the empty file `path` with mode 600, unless it exists (then it is left as it
    is); its directory is created (mode 700) when missing. SQLite takes an empty file for
    an empty database."""
    make_private_directory(path.parent)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))


def readable_by_others(path: Path) -> bool:
    """True when users other than the owner may read (or enter) `path`."""
    try:
        return bool(path.stat().st_mode & 0o077)
    except OSError:
        return False
