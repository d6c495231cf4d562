"""``cq``'s API client with the administrator's endpoints (/api/v1/admin/...)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from client.api import ApiClient, Json
from client.errors import AuthError


def _name(username: str) -> str:
    return quote(username, safe="")


class AdminApi(ApiClient):
    """One method per admin endpoint; errors as ``cq``'s (client/errors.py)."""

    def __enter__(self) -> AdminApi:
        return self

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            return super().request(method, path, **kwargs)
        except AuthError as exc:  # the hints name cq's login: name ours
            message = exc.message.replace("'cq login'", "'cq-admin login'")
            raise AuthError(message, reason=exc.reason, data=exc.data) from exc

    # -- users -------------------------------------------------------------------------------

    def users(self, **filters: Any) -> list[Json]:
        params = {k: ("true" if v is True else v) for k, v in filters.items() if v}
        return list(self.call("GET", "/admin/users", params=params)["users"])

    def user_detail(self, username: str) -> Json:
        return self.call("GET", f"/admin/users/{_name(username)}")

    def user_change(self, username: str, change: str) -> Json:
        return self.call("POST", f"/admin/users/{_name(username)}/{change}")

    def rename_bot(self, username: str, new_username: str) -> Json:
        return self.call("POST", f"/admin/users/{_name(username)}/rename",
                         json={"username": new_username})

    def convert_guest(self, username: str, email: str) -> Json:
        return self.call("POST", f"/admin/users/{_name(username)}/convert",
                         json={"email": email})

    def delete_user(self, username: str) -> Json:
        return self.call("DELETE", f"/admin/users/{_name(username)}")

    # -- games ---------------------------------------------------------------------------------

    def all_games(self, **filters: Any) -> list[Json]:
        return list(self.call("GET", "/admin/games", params=filters)["games"])

    def admin_game(self, game_id: int) -> Json:
        return self.call("GET", f"/admin/games/{game_id}")

    def cancel_game(self, game_id: int) -> Json:
        return self.call("POST", f"/admin/games/{game_id}/cancel")

    def remove_player(self, game_id: int, username: str) -> Json:
        return self.call("DELETE", f"/admin/games/{game_id}/players/{_name(username)}")

    # -- server and audit ----------------------------------------------------------------------

    def set_motd(self, text: str) -> Json:
        return self.call("PUT", "/admin/server/motd", json={"text": text})

    def clear_motd(self) -> Json:
        return self.call("DELETE", "/admin/server/motd")

    def set_message_limit(self, limit: int) -> Json:
        return self.call("PUT", "/admin/server/message-limit", json={"limit": limit})

    def broadcast(self, text: str) -> Json:
        return self.call("POST", "/admin/broadcasts", json={"text": text})

    def stats(self) -> Json:
        return self.call("GET", "/admin/server/stats")

    def settings(self) -> Json:
        return self.call("GET", "/admin/server/settings")

    def maintenance(self) -> Json:
        return self.call("POST", "/admin/server/maintenance")

    def audit(self, user: str | None, since: str | None, limit: int | None) -> list[Json]:
        params = {"user": user, "since": since, "limit": limit}
        return list(self.call("GET", "/admin/audit", params=params)["entries"])
