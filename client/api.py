"""A thin wrapper over httpx for the server's HTTP API (docs/api.md).

Each method is one endpoint and returns the decoded JSON. Failures become the client's
errors: 401 -> :class:`AuthError`, other 4xx -> :class:`RefusedError` carrying the
server's ``reason``, ``message`` and extra fields, no answer -> :class:`ConnectionFailed`.

:meth:`ApiClient.game_events` opens a game's live stream (server-sent events, read by
:mod:`client.sse`; :mod:`client.live_follow` reconnects it).

A 503 whose answer says ``retry_after`` (the server busy: ``database_busy``,
``password_hashing_busy``; nothing was changed) is sent again after that many seconds, up
to BUSY_RETRIES times, when the wait is at most BUSY_WAIT_LIMIT seconds; ``on_busy`` hears
of each wait (cq says so on stderr). The request goes again unchanged, its
``Idempotency-Key`` included. A login goes again up to LOGIN_BUSY_RETRIES times, after
up to a second more than asked, at random: when a room full of players logs in at once,
their password checks take turns and the retries do not all arrive together again.

A server URL without a scheme (``localhost:3000``) means ``http://``
(:func:`normalize_server_url`). An ``https://`` URL of a server that speaks plain HTTP
fails at once with "the server ... does not speak HTTPS" (:mod:`client.tls_check`).
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote, urlsplit

import httpx

from client import __version__, tls_check
from client.errors import AuthError, ConnectionFailed, CqError, InputError, RefusedError
from client.safe_text import visible_json
from client.sse import EventStream, StreamPosition

API_PREFIX = "/api/v1"
SCHEMES = ("http", "https")
# A live stream sends at least a comment line every 15 s (STREAM_KEEPALIVE): a stream
# silent for this long is a lost connection.
STREAM_READ_TIMEOUT = 45.0
BUSY_RETRIES = 3  # a busy server's 503 (with retry_after) is sent again this many times
BUSY_WAIT_LIMIT = 10  # seconds: a longer retry_after is not waited for (cq says it)
LOGIN_BUSY_RETRIES = 10  # a login's password check waits for the others' (LAN party)
LOGIN_SPREAD = 1.0  # seconds: at most this much added at random to a login's wait
Json = dict[str, Any]
BusyHandler = Callable[[int, str], None]  # (seconds to wait, the server's reason)


def normalize_server_url(url: str) -> str:
    """``url`` with ``http://`` added when it has no scheme, without a trailing ``/``.

    Raises :class:`ValueError` for another scheme or a URL without a host.
    """
    text = url.strip()
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018  (raises ValueError for a port that is not a number)
    except ValueError as exc:
        raise ValueError(f"{url!r} is not a server URL: {exc}") from exc
    if parts.scheme.lower() not in SCHEMES:
        raise ValueError(f"{url!r} is not a server URL: use http:// or https:// "
                         f"(not {parts.scheme}://)")
    if not parts.hostname:
        raise ValueError(f"{url!r} is not a server URL: it names no host")
    return parts.scheme.lower() + text[len(parts.scheme):].rstrip("/")


def _busy_wait(response: httpx.Response) -> tuple[int, str] | None:
    """(seconds to wait before sending again, reason) for a busy server's 503; else None."""
    if response.status_code != 503:
        return None
    try:
        body = response.json()
        wait, reason = body.get("retry_after"), str(body.get("reason", "busy"))
    except (ValueError, AttributeError):
        return None
    if type(wait) is not int or not 0 <= wait <= BUSY_WAIT_LIMIT:
        return None
    return wait, reason


def _not_https(exc: httpx.ConnectError) -> bool:
    """httpx raises its ConnectError from httpcore's, here :class:`tls_check.NotHttps`."""
    return isinstance(exc.__cause__, tls_check.NotHttps)


class ApiClient:
    """The server at ``server_url``, as the holder of ``token`` (if any)."""

    def __init__(
        self,
        server_url: str,
        token: str | None = None,
        timeout: float = 15.0,
        on_busy: BusyHandler | None = None,
    ):
        try:
            self.server_url = normalize_server_url(server_url)
        except ValueError as exc:
            raise InputError(str(exc), reason="bad_server_url") from exc
        self.token = token
        self.timeout = timeout
        self.on_busy = on_busy
        self._http = httpx.Client(
            base_url=self.server_url + API_PREFIX,
            timeout=timeout,
            headers={"User-Agent": f"cq/{__version__}"},
        )
        tls_check.install(getattr(self._http, "_transport", None))

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> ApiClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transport -----------------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        *,
        json: Json | None = None,
        params: dict[str, Any] | None = None,
        auth: bool = True,
        headers: dict[str, str] | None = None,
        busy_retries: int = BUSY_RETRIES,
        spread: float = 0.0,
    ) -> Any:
        sent_headers = self._auth_headers(headers) if auth else dict(headers or {})
        clean = {k: v for k, v in (params or {}).items() if v is not None}
        response = self._send(
            method, path, busy_retries, spread, json=json, params=clean or None,
            headers=sent_headers,
        )
        return self._decode(response)

    def _send(
        self, method: str, path: str, busy_retries: int = BUSY_RETRIES, spread: float = 0.0,
        **kwargs: Any,
    ) -> httpx.Response:
        """The answer, after waiting out a busy server's 503s (see the module docstring):
        at most ``busy_retries`` times, each wait longer by up to ``spread`` seconds."""
        retries = 0
        while True:
            with self._transport_errors():
                response = self._http.request(method, path, **kwargs)
            busy = _busy_wait(response)
            if busy is None or retries == busy_retries:
                return response
            retries += 1
            if self.on_busy is not None:
                self.on_busy(*busy)
            time.sleep(busy[0] + random.uniform(0, spread))

    def _auth_headers(self, headers: dict[str, str] | None = None) -> dict[str, str]:
        if not self.token:
            raise AuthError("not logged in: run 'cq login' first", reason="not_logged_in")
        return {**(headers or {}), "Authorization": f"Bearer {self.token}"}

    @contextmanager
    def _transport_errors(self) -> Iterator[None]:
        """httpx's failures to reach the server as :class:`ConnectionFailed`."""
        try:
            yield
        except httpx.TimeoutException as exc:
            raise ConnectionFailed(
                f"the server at {self.server_url} did not answer in time", "timeout"
            ) from exc
        except httpx.ConnectError as exc:
            if _not_https(exc):
                plain = "http" + self.server_url[len("https"):]
                raise ConnectionFailed(
                    f"the server at {self.server_url} does not speak HTTPS (it answers plain "
                    f"HTTP at {plain})", "not_https"
                ) from exc
            raise ConnectionFailed(
                f"cannot reach the server at {self.server_url}: {exc}", "connection_failed"
            ) from exc
        except httpx.HTTPError as exc:
            raise ConnectionFailed(
                f"cannot reach the server at {self.server_url}: {exc}", "connection_failed"
            ) from exc

    def call(self, method: str, path: str, **kwargs: Any) -> Json:
        """``request`` for endpoints that answer with a JSON object."""
        body = self.request(method, path, **kwargs)
        if not isinstance(body, dict):
            raise CqError(f"the server sent an unexpected answer to {method} {path}")
        return body

    def _decode(self, response: httpx.Response) -> Any:
        if response.status_code == 204 or not response.content:
            if response.is_success:
                return None
        try:
            body = visible_json(response.json())  # nobody's text may act on the terminal
        except ValueError:
            body = None
        if response.is_success:
            if body is None:
                raise CqError(f"the server sent an unreadable answer ({response.status_code})")
            return body
        if isinstance(body, dict) and "message" in body:
            reason = str(body.get("reason", "error"))
            message = str(body["message"])
            if response.status_code == 401:
                hint = " (run 'cq login')" if reason == "session_expired" else ""
                raise AuthError(message + hint, reason=reason, data=body)
            if 400 <= response.status_code < 500:
                raise RefusedError(message, reason=reason, data=body)
            raise CqError(f"server error: {message}", reason=reason, data=body)
        raise CqError(
            f"the server answered {response.status_code} {response.reason_phrase}",
            reason="http_error",
        )

    # -- server, users, sessions -----------------------------------------------------------

    def server_info(self) -> Json:
        return self.call("GET", "/server/info", auth=False)

    def signup(self, body: Json) -> Json:
        return self.call("POST", "/users", json=body, auth=False)

    def verify(self, verification_token: str, code: str) -> Json:
        body = {"verification_token": verification_token, "code": code}
        return self.call("POST", "/verifications", json=body, auth=False)

    def request_password_change(self, username: str, new_password: str) -> Json:
        path = f"/users/{username}/password"
        return self.call("POST", path, json={"new_password": new_password}, auth=False)

    def request_email_change(self, email: str) -> Json:
        return self.call("POST", "/users/me/email", json={"email": email})

    def login(
        self, username: str, password: str, replace: bool = False, held_token: str | None = None
    ) -> Json:
        """Open a session. ``held_token``: the session this client holds now (sent as its
        Authorization); the server replaces it when it is the user's active session."""
        body = {"username": username, "password": password, "replace": replace}
        headers = {"Authorization": f"Bearer {held_token}"} if held_token else None
        return self.call("POST", "/sessions", json=body, auth=False, headers=headers,
                         busy_retries=LOGIN_BUSY_RETRIES, spread=LOGIN_SPREAD)

    def logout_token(self, token: str) -> None:
        """End the session of ``token`` (another one than this client's own)."""
        self.request("DELETE", "/sessions/current", auth=False,
                     headers={"Authorization": f"Bearer {token}"})

    def logout(self) -> None:
        self.request("DELETE", "/sessions/current")

    def me(self) -> Json:
        return self.call("GET", "/users/me")

    def user(self, username: str) -> Json:
        return self.call("GET", f"/users/{username}")

    def update_me(self, changes: Json) -> Json:
        return self.call("PATCH", "/users/me", json=changes)

    # -- games -------------------------------------------------------------------------------

    def games(
        self, status: str | None = None, user: str | None = None, relation: str | None = None
    ) -> list[Json]:
        params = {"status": status, "user": user, "relation": relation}
        return list(self.call("GET", "/games", params=params)["games"])

    def game(self, game_id: int, at: int | None = None) -> Json:
        """The game; with ``at``, the board after that many actions."""
        return self.call("GET", f"/games/{game_id}", params={"at": at})

    def board_svg(self, game_id: int, at: int | None = None) -> str:
        """The board as the server draws it for the caller: an SVG document (text);
        with ``at``, the board after that many actions."""
        path = f"/games/{game_id}/board.svg"
        clean = {"at": at} if at is not None else None
        response = self._send("GET", path, params=clean, headers=self._auth_headers())
        if not response.is_success:
            self._decode(response)  # raises the server's refusal
        if not response.headers.get("content-type", "").startswith("image/svg+xml"):
            raise CqError(f"the server sent no SVG picture for game {game_id}",
                          reason="not_svg")
        return response.text

    def new_game(self, body: Json) -> Json:
        return self.call("POST", "/games", json=body)

    def change_game(self, game_id: int, changes: Json) -> Json:
        return self.call("PATCH", f"/games/{game_id}", json=changes)

    def join_game(self, game_id: int, invitation_code: str | None = None) -> Json:
        body = {"invitation_code": invitation_code} if invitation_code else {}
        return self.call("POST", f"/games/{game_id}/players", json=body)

    def rematch(self, game_id: int) -> Json:
        return self.call("POST", f"/games/{game_id}/rematch")

    def seat_bot(self, game_id: int, level: int) -> Json:
        return self.call("POST", f"/games/{game_id}/bots", json={"level": level})

    def withdraw(self, game_id: int) -> Json:
        return self.call("DELETE", f"/games/{game_id}/players/me")

    def act(self, game_id: int, kind: str, to: str, base_revision: int | None = None) -> Json:
        body: Json = {"type": kind, "to": to}
        if base_revision is not None:
            body["base_revision"] = base_revision
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        return self.call("POST", f"/games/{game_id}/actions", json=body, headers=headers)

    def actions(self, game_id: int) -> list[Json]:
        """The whole history, page after page (`GET /games/{id}/actions?after=`)."""
        found: list[Json] = []
        while True:
            after = found[-1]["n"] if found else 0
            page = self.call("GET", f"/games/{game_id}/actions", params={"after": after})
            found.extend(page["actions"])
            if not page.get("more") or not page["actions"]:
                return found

    def game_events(
        self, game_id: int, position: StreamPosition, invitation_code: str | None = None
    ) -> EventStream:
        """Open the game's live stream, from ``position`` (Last-Event-ID) when it has an
        id; iterating the answer gives the events and keeps ``position`` current. Its
        refusals (404, 401, 429) are raised here, as every call raises them."""
        headers = {"Accept": "text/event-stream"}
        if position.last_id:
            headers["Last-Event-ID"] = position.last_id
        params = {"invitation_code": invitation_code} if invitation_code else None
        request = self._http.build_request(
            "GET", f"/games/{game_id}/events", params=params, headers=self._auth_headers(headers),
            timeout=httpx.Timeout(self.timeout, read=STREAM_READ_TIMEOUT),
        )
        with self._transport_errors():
            response = self._http.send(request, stream=True)
        try:
            if response.status_code != 200:
                with self._transport_errors():
                    response.read()
                self._decode(response)  # raises the server's refusal
                raise CqError(f"the server answered {response.status_code} to a stream request")
            if not response.headers.get("content-type", "").startswith("text/event-stream"):
                raise CqError("the server sent no event stream", reason="not_a_stream")
        except BaseException:
            response.close()
            raise
        return EventStream(response, position, self.server_url)

    # -- wall trading and messages -----------------------------------------------------------

    def offer(self, game_id: int, mode: str, partner: str | None = None) -> Json:
        body: Json = {"mode": mode}
        if partner:
            body["partner"] = partner
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        return self.call("POST", f"/games/{game_id}/offers", json=body, headers=headers)

    def withdraw_offer(self, game_id: int) -> Json:
        return self.call("DELETE", f"/games/{game_id}/offers/me")

    def trade(self, game_id: int, mode: str, partner: str) -> Json:
        body: Json = {"mode": mode, "partner": partner}
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        return self.call("POST", f"/games/{game_id}/trades", json=body, headers=headers)

    def messages(self, game_id: int, after: int = 0) -> Json:
        params = {"after": after or None}
        return self.call("GET", f"/games/{game_id}/messages", params=params)

    def send_message(self, game_id: int, text: str, to: str | None = None) -> Json:
        body: Json = {"text": text}
        if to:
            body["to"] = to
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        return self.call("POST", f"/games/{game_id}/messages", json=body, headers=headers)

    def mute(self, game_id: int, username: str, muted: bool = True) -> Json:
        body = {"username": username, "muted": muted}
        return self.call("POST", f"/games/{game_id}/mutes", json=body)

    def admin_broadcast(self, text: str) -> Json:
        return self.call("POST", "/admin/broadcasts", json={"text": text})

    # -- markers, legal actions, scores ---------------------------------------------------------

    def mark(self, game_id: int, marker: str) -> Json:
        return self.call("POST", f"/games/{game_id}/markers", json={"marker": marker})

    def unmark(self, game_id: int, marker: str) -> Json:
        return self.call("DELETE", f"/games/{game_id}/markers/{quote(marker, safe='')}")

    def legal_actions(self, game_id: int) -> Json:
        return self.call("GET", f"/games/{game_id}/legal-actions")

    def highscores(self, username: str) -> Json:
        path = f"/users/{quote(username, safe='')}/highscores"
        return self.call("GET", path, auth=bool(self.token))

    def leaderboard(self, size: int, players: int, masked: bool, invisible: bool) -> Json:
        params = {"size": size, "players": players, "masked": str(masked).lower(),
                  "invisible": str(invisible).lower()}
        return self.call("GET", "/leaderboards", params=params, auth=bool(self.token))

    def user_ratings(self, username: str) -> Json:
        path = f"/users/{quote(username, safe='')}/ratings"
        return self.call("GET", path, auth=bool(self.token))

    def game_ratings(self, game_id: int) -> Json:
        return self.call("GET", f"/games/{game_id}/ratings")

    def rating_leaderboard(self, pool: str) -> Json:
        params = {"pool": pool}
        return self.call("GET", "/leaderboards/ratings", params=params, auth=bool(self.token))

    # -- tournaments ----------------------------------------------------------------------------

    def _tournament_write(self, path: str, body: Json | None = None) -> Json:
        headers = {"Idempotency-Key": uuid.uuid4().hex}  # a retry after a lost answer
        return self.call("POST", path, json=body or {}, headers=headers)

    def new_tournament(self, body: Json) -> Json:
        return self._tournament_write("/tournaments", body)

    def tournaments(self) -> Json:
        return self.call("GET", "/tournaments")

    def tournament(self, tournament_id: int) -> Json:
        return self.call("GET", f"/tournaments/{tournament_id}")

    def join_tournament(self, tournament_id: int) -> Json:
        return self._tournament_write(f"/tournaments/{tournament_id}/join")

    def leave_tournament(self, tournament_id: int) -> Json:
        return self._tournament_write(f"/tournaments/{tournament_id}/leave")

    def add_tournament_bot(self, tournament_id: int, level: int) -> Json:
        return self._tournament_write(f"/tournaments/{tournament_id}/bots", {"level": level})

    def remove_from_tournament(self, tournament_id: int, username: str) -> Json:
        return self._tournament_write(
            f"/tournaments/{tournament_id}/remove", {"username": username}
        )

    def start_tournament(self, tournament_id: int) -> Json:
        return self._tournament_write(f"/tournaments/{tournament_id}/start")
