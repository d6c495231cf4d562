"""Profiles: what the client remembers between commands, one JSON file per profile.

A profile holds the server URL, the username, the session token, a pending
verification token (signup, password or e-mail change) and the cached theme. Files live
in ``$CQ_CONFIG_DIR`` (tests) or the platform's user config directory, are private to
the user (mode 0600), and ``current`` names the profile in use unless ``CQ_PROFILE`` is
set for one command.

A profile chosen by name (``CQ_PROFILE`` or ``cq profile switch``) must exist for the
commands that use it (:meth:`ProfileStore.check_current`); only ``signup``, ``login`` and
``user password`` create one. The implicit ``default`` profile may be missing: that is a
fresh install, and its commands say "not logged in".
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import platformdirs

from client.errors import CqError, InputError

APP_NAME = "corridorquest"
DEFAULT_PROFILE = "default"
DEFAULT_SERVER_URL = "http://localhost:3000"
PROFILE_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")


def config_dir() -> Path:
    """Where profiles live: ``$CQ_CONFIG_DIR`` or the user config directory."""
    override = os.environ.get("CQ_CONFIG_DIR")
    return Path(override) if override else Path(platformdirs.user_config_dir(APP_NAME))


def data_dir() -> Path:
    """Where the shell keeps its history: ``$CQ_DATA_DIR`` or the user data directory."""
    override = os.environ.get("CQ_DATA_DIR")
    if override:
        return Path(override)
    if os.environ.get("CQ_CONFIG_DIR"):
        return Path(os.environ["CQ_CONFIG_DIR"])
    return Path(platformdirs.user_data_dir(APP_NAME))


@dataclass
class Profile:
    """The client's state for one (server, user) pair."""

    name: str
    server_url: str = DEFAULT_SERVER_URL
    username: str | None = None
    token: str | None = None
    verification_token: str | None = None
    verification_purpose: str | None = None
    theme: str | None = None

    def to_json(self) -> str:
        data = asdict(self)
        del data["name"]
        return json.dumps(data, indent=2, sort_keys=True) + "\n"


def check_profile_name(name: str) -> str:
    """A profile name is a file name: letters, digits, ``_``, ``-``, ``.``."""
    if not PROFILE_NAME_RE.fullmatch(name):  # ($ would let a final newline through)
        raise InputError(
            f"{name!r} is not a valid profile name (letters, digits, '_', '-', '.'; "
            "at most 40, starting with a letter or digit)",
            reason="invalid_profile",
        )
    return name


class ProfileStore:
    """The profile files in one directory."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or config_dir()

    @property
    def profiles_dir(self) -> Path:
        return self.directory / "profiles"

    def path(self, name: str) -> Path:
        return self.profiles_dir / f"{check_profile_name(name)}.json"

    def names(self) -> list[str]:
        if not self.profiles_dir.is_dir():
            return []
        return sorted(p.stem for p in self.profiles_dir.glob("*.json"))

    def exists(self, name: str) -> bool:
        return self.path(name).is_file()

    def current_name(self) -> str:
        """``CQ_PROFILE`` for one command, else the switched-to profile, else ``default``."""
        from_env = os.environ.get("CQ_PROFILE")
        if from_env:
            return check_profile_name(from_env)
        marker = self.directory / "current"
        if marker.is_file():
            name = marker.read_text(encoding="utf-8").strip()
            if name:
                return check_profile_name(name)
        return DEFAULT_PROFILE

    def current_source(self) -> str | None:
        """What chose the current profile: ``"CQ_PROFILE"``, ``"switch"`` or None
        (nothing: it is ``default``)."""
        if os.environ.get("CQ_PROFILE"):
            return "CQ_PROFILE"
        marker = self.directory / "current"
        if marker.is_file() and marker.read_text(encoding="utf-8").strip():
            return "switch"
        return None

    def known(self) -> str:
        """The existing profile names for a message: ``a, b`` or ``none yet``."""
        return ", ".join(self.names()) or "none yet"

    def missing_current(self) -> str | None:
        """Why the current profile cannot be used: it was chosen by name and does not
        exist. None when it exists or is the implicit ``default``."""
        source = self.current_source()
        name = self.current_name()
        if source is None or self.exists(name):
            return None
        if source == "CQ_PROFILE":
            how = f"CQ_PROFILE={name}"
        else:
            how = "chosen with 'cq profile switch'; another one: 'cq profile switch NAME'"
        return (f"the profile {name!r} does not exist ({how}; profiles: {self.known()}); "
                f"'cq login -P {name}' creates it")

    def check_current(self) -> None:
        """Raise :class:`InputError` when the current profile was chosen but is missing."""
        problem = self.missing_current()
        if problem is not None:
            raise InputError(problem, reason="no_profile")

    def switched_name(self) -> str:
        """The permanently selected profile (ignores ``CQ_PROFILE``)."""
        marker = self.directory / "current"
        if marker.is_file() and marker.read_text(encoding="utf-8").strip():
            return marker.read_text(encoding="utf-8").strip()
        return DEFAULT_PROFILE

    def switch(self, name: str) -> None:
        if not self.exists(name):
            raise InputError(f"no profile named {name!r} (profiles: {self.known()})",
                             reason="no_profile")
        self._write_private(self.directory / "current", name + "\n")

    def load(self, name: str | None = None) -> Profile:
        """The named (or current) profile; a fresh one when no file exists yet."""
        name = name or self.current_name()
        path = self.path(name)
        if not path.is_file():
            return Profile(name=name)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CqError(f"profile file {path} is unreadable: {exc}", "bad_profile") from exc
        known = {f.name for f in fields(Profile)} - {"name"}
        return Profile(name=name, **{k: v for k, v in data.items() if k in known})

    def save(self, profile: Profile) -> None:
        self._write_private(self.path(profile.name), profile.to_json())

    def _write_private(self, path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.chmod(path.parent, 0o700)
        tmp = path.with_suffix(path.suffix + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
