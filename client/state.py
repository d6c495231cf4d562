"""The state one command runs with: profile store, the profile in use, its API client.

``cq`` builds a fresh :class:`AppState` per run; ``cq-shell`` keeps one for the session
(and sets ``current_game`` with ``use``).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import Any

import click

from client.api import ApiClient
from client.errors import CqError
from client.profiles import Profile, ProfileStore


@dataclass
class AppState:
    """What commands share: where profiles live, which one is in use, the current game."""

    store: ProfileStore = field(default_factory=ProfileStore)
    profile_name: str | None = None
    current_game: int | None = None
    force_color: bool | None = None
    # The game views whose board a command drew, by game id (not a past position: ``show
    # --at``); cq-shell takes them after each command (client/shell/live.py).
    drawn_boards: dict[int, dict[str, Any]] = field(default_factory=dict)
    _profile: Profile | None = None
    _stamp: tuple[int, int] | None = None  # the profile file's (inode, mtime) when read

    @property
    def profile(self) -> Profile:
        """The profile in use; a profile chosen by name (CQ_PROFILE, ``cq profile
        switch``) that does not exist is an :class:`~client.errors.InputError`.

        Read again when its file changed (``cq login`` in another terminal gave the
        profile a new session: the shell uses it rather than the ended one)."""
        if self._profile is None or (
            self.profile_name is None and self._profile.name != self.store.current_name()
        ) or self._file_stamp(self._profile.name) != self._stamp:
            if self.profile_name is None:
                self.store.check_current()
            name = self.profile_name or self.store.current_name()
            self._stamp = self._file_stamp(name)
            self._profile = self.store.load(name)
        return self._profile

    def _file_stamp(self, name: str) -> tuple[int, int] | None:
        try:
            found = self.store.path(name).stat()  # a save replaces the file: a new inode
            return found.st_ino, found.st_mtime_ns
        except (OSError, CqError):
            return None

    def reload(self) -> Profile:
        self._profile = None
        return self.profile

    def save(self, profile: Profile) -> None:
        self.store.save(profile)
        self._profile = profile
        self._stamp = self._file_stamp(profile.name)

    def api(self, server_url: str | None = None, profile: Profile | None = None) -> ApiClient:
        """A client for the profile's server and session; for ``server_url`` alone, a
        client without a session (the profile is not needed, nor its token sent)."""
        if profile is None and server_url is not None:
            return ApiClient(server_url, on_busy=say_busy)
        chosen = profile or self.profile
        return ApiClient(server_url or chosen.server_url, chosen.token, on_busy=say_busy)

    def use_color(self) -> bool:
        """Colour unless NO_COLOR is set or standard output is not a terminal."""
        if self.force_color is not None:
            return self.force_color
        if os.environ.get("NO_COLOR"):
            return False
        if os.environ.get("CQ_FORCE_COLOR"):
            return True
        return bool(sys.stdout.isatty())


def say_busy(seconds: int, reason: str) -> None:
    """A busy server's 503: cq sends the request again after `seconds` (client.api)."""
    click.echo(f"the server is busy ({reason}): trying again in {seconds} s", err=True)


pass_state = click.make_pass_decorator(AppState, ensure=True)
