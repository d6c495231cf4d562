"""What a ``cq-admin`` command runs with: ``cq``'s state on the admin profiles."""

from __future__ import annotations

from dataclasses import dataclass, field

import click

from admin.api import AdminApi
from admin.profiles import AdminProfileStore
from client.profiles import Profile, ProfileStore
from client.state import AppState


@dataclass
class AdminState(AppState):
    store: ProfileStore = field(default_factory=AdminProfileStore)

    def api(self, server_url: str | None = None, profile: Profile | None = None) -> AdminApi:
        if profile is None and server_url is not None:
            return AdminApi(server_url)
        chosen = profile or self.profile
        return AdminApi(server_url or chosen.server_url, chosen.token)


pass_admin = click.make_pass_decorator(AdminState, ensure=True)
