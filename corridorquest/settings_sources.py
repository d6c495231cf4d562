"""Where the settings come from: the process environment and a dotenv file.

Both are pydantic-settings sources over a mapping of variables, so that `from_env` can
read a given mapping (tests pass one instead of the process environment) and so that
they read what the server always read: a setting's variable is its name in upper case,
exactly (`PORT`, not `port`), other variables are ignored (a dotenv file may hold more
than settings), and an empty value means the default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from dotenv import dotenv_values
from pydantic_settings import EnvSettingsSource

if TYPE_CHECKING:
    from pydantic_settings import BaseSettings


class Variables(EnvSettingsSource):
    """The settings among `variables` (an environment), by their upper-case names."""

    def __init__(self, settings_cls: type[BaseSettings], variables: Mapping[str, str | None]):
        self._variables = variables  # read by _load_env_vars, which __init__ calls
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        found = {}
        for name in self.settings_cls.model_fields:
            value = self._variables.get(name.upper())
            if value is not None and value != "":
                found[name] = value
        return found


def dotenv_file(settings_cls: type[BaseSettings], path: str | os.PathLike[str]) -> Variables:
    """The settings in a dotenv file (read as python-dotenv reads it, `${VAR}` expanded)."""
    return Variables(settings_cls, dotenv_values(path))
