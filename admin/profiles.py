"""The administrator's profiles: the same files as ``cq``'s, kept apart from them.

They live beside ``cq``'s profiles (``$CQ_CONFIG_DIR`` or the user config directory)
in ``admin-profiles/``; ``admin-current`` names the profile in use unless
``CQ_ADMIN_PROFILE`` is set for one command. An administrator's session is thus never
the one ``cq`` plays with, nor the other way round.
"""

from __future__ import annotations

import os
from pathlib import Path

from client.errors import InputError
from client.profiles import DEFAULT_PROFILE, ProfileStore, check_profile_name

PROFILE_ENV = "CQ_ADMIN_PROFILE"


class AdminProfileStore(ProfileStore):
    """``cq``'s profile store, in ``admin-profiles/`` with ``admin-current``."""

    @property
    def profiles_dir(self) -> Path:
        return self.directory / "admin-profiles"

    @property
    def marker(self) -> Path:
        return self.directory / "admin-current"

    def _switched(self) -> str | None:
        if self.marker.is_file():
            return self.marker.read_text(encoding="utf-8").strip() or None
        return None

    def current_name(self) -> str:
        from_env = os.environ.get(PROFILE_ENV)
        if from_env:
            return check_profile_name(from_env)
        switched = self._switched()
        return check_profile_name(switched) if switched else DEFAULT_PROFILE

    def current_source(self) -> str | None:
        if os.environ.get(PROFILE_ENV):
            return PROFILE_ENV
        return "switch" if self._switched() else None

    def missing_current(self) -> str | None:
        source = self.current_source()
        name = self.current_name()
        if source is None or self.exists(name):
            return None
        how = (f"{PROFILE_ENV}={name}" if source == PROFILE_ENV
               else "chosen with 'cq-admin profile switch'")
        return (f"the admin profile {name!r} does not exist ({how}; profiles: {self.known()}); "
                f"'cq-admin login -P {name}' creates it")

    def switched_name(self) -> str:
        return self._switched() or DEFAULT_PROFILE

    def switch(self, name: str) -> None:
        if not self.exists(name):
            raise InputError(f"no admin profile named {name!r} (profiles: {self.known()})",
                             reason="no_profile")
        self._write_private(self.marker, name + "\n")
