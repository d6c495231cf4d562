"""Every server setting in one table.

The `Settings` class below IS the table: one line per setting with its type, default and
help text. It is a pydantic-settings model. The environment variable of a setting is its
name in upper case (`port` -> `PORT`). `Settings.from_env()` reads the process
environment, optionally a dotenv file first (the environment wins over the file), then
explicit overrides (they win over both). An empty value means "use the default".
Durations accept seconds (`90`) or a number with a unit: `s`, `m`, `h`, `d`, `w` (`30m`,
`2d`): see settings_values.py. `Settings(port=...)` takes only its arguments (and the
defaults), never the environment.

`docs/corridorquest.env.example` lists every setting; a test fails when one is missing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import platformdirs
from pydantic import BeforeValidator, Field, ValidationError, model_validator
from pydantic_settings import (
    BaseSettings,
    InitSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from corridorquest.settings_sources import Variables, dotenv_file
from corridorquest.settings_values import FractionalSeconds, PublicUrl, Seconds, lower


class SettingsError(ValueError):
    """A setting has a value that cannot be used (message names the variable)."""


def default_data_dir() -> str:
    return platformdirs.user_data_dir("corridorquest", appauthor=False)


class Settings(BaseSettings):
    """Server settings (name -> environment variable NAME)."""

    # case_sensitive: Settings(port=1), never Settings(PORT=1); validate_default off: the
    # defaults below are values already (both as before pydantic-settings)
    model_config = SettingsConfigDict(
        frozen=True, extra="forbid", case_sensitive=True, validate_default=False
    )

    # --- storage -----------------------------------------------------------------------
    data_dir: str = Field(
        default_factory=default_data_dir,
        description="Directory for the default SQLite database and other server files.",
    )
    database_url: str = Field(
        "",
        description="Database: sqlite:///path/to/file.db or postgresql://user:pw@host/db. "
        "Default: an SQLite file corridorquest.db in DATA_DIR.",
    )
    db_pool_size: int = Field(
        8, ge=1, le=200, description="PostgreSQL only: connections in the pool (and threads)."
    )
    database_busy_timeout: FractionalSeconds = Field(
        5.0,
        ge=0,
        le=600,
        description="SQLite: how long a write waits while another program holds the "
        "database's write lock (seconds, 2.5 or 500ms); then 503 database_busy.",
    )
    sqlite_synchronous: Annotated[Literal["normal", "full"], BeforeValidator(lower)] = Field(
        "normal",
        description="SQLite: normal (an acknowledged write survives a crash of the server; "
        "a power loss or OS crash may lose the last ones) or full (it also survives those; "
        "an fsync per commit).",
    )
    sqlite_wal_limit: int = Field(
        16,
        ge=1,
        le=4096,
        description="SQLite: the server starts the write-ahead log (the -wal file) over "
        "once it is this many MB long; the file stays about this size.",
    )
    # --- network -----------------------------------------------------------------------
    host: str = Field("0.0.0.0", description="Address to listen on (0.0.0.0: every interface).")
    port: int = Field(3000, ge=0, le=65535, description="TCP port to listen on.")
    require_https: bool = Field(
        False,
        description="Refuse plain HTTP unless it arrived over TLS or a proxy says https "
        "(X-Forwarded-Proto, RFC 7239 Forwarded).",
    )
    proxies_count: int = Field(
        0,
        ge=0,
        le=10,
        description="Reverse proxies in front of the server: the client address (for the "
        "login and password-change rate limits) is taken from the X-Forwarded-For entries "
        "they add. 0: the TCP peer.",
    )
    tls_cert: str | None = Field(None, description="PEM certificate file for direct HTTPS.")
    tls_key: str | None = Field(None, description="PEM private key file for direct HTTPS.")
    public_url: PublicUrl = Field(
        None,
        description="The address players reach the server at (https://cq.example.org): "
        "e-mails name it and link each public game's page there, ntfy messages open that "
        "page. None: e-mails name the server by its host name and port, and link nothing.",
    )
    discovery: Annotated[Literal["auto", "on", "off"], BeforeValidator(lower)] = Field(
        "auto",
        description="Announce the server on the local network (mDNS/DNS-SD, "
        "_corridorquest._tcp; `cq server find` lists it): auto (when HOST is not a "
        "loopback address), on (on loopback too), off.",
    )
    discovery_name: str | None = Field(
        None,
        max_length=40,
        description="The server's name in that announcement. None: this machine's host name.",
    )
    # --- process -----------------------------------------------------------------------
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        "INFO", description="Log level of the standard output log: DEBUG, INFO, WARNING, ERROR."
    )
    init: bool = Field(
        False, description="Re-create the admin user (new random password in the log) on start."
    )
    admin_username: str = Field("admin", description="Username of the initial system admin.")
    admin_email: str = Field(
        "admin@localhost", description="E-mail of the initial admin, shown by `server info`."
    )
    motd: str | None = Field(None, description="Message of the day, shown by `server info`.")
    # --- e-mail ------------------------------------------------------------------------
    email_backend: Literal["console", "file", "smtp"] = Field(
        "console",
        description="console: log each mail; file: one .eml file per mail in MAIL_DIR; "
        "smtp: send through SMTP_HOST.",
    )
    mail_dir: str | None = Field(
        None, description="Directory for EMAIL_BACKEND=file. Default: DATA_DIR/mail."
    )
    mail_from: str = Field(
        "Corridor Quest <corridorquest@localhost>", description="Sender address of every mail."
    )
    smtp_host: str = Field("localhost", description="SMTP server host.")
    smtp_port: int = Field(587, ge=1, le=65535, description="SMTP server port.")
    smtp_user: str | None = Field(None, description="SMTP login user (none: no login).")
    smtp_password: str | None = Field(None, repr=False, description="SMTP login password.")
    smtp_security: Literal["starttls", "tls", "none"] = Field(
        "starttls", description="SMTP transport security: starttls, tls or none."
    )
    smtp_timeout: Seconds = Field(30, description="SMTP connect/send timeout.")
    smtp_ca_file: str | None = Field(
        None, description="PEM CA bundle to verify the SMTP server's certificate (none: system)."
    )
    # --- ntfy --------------------------------------------------------------------------
    ntfy_url: str | None = Field(None, description="ntfy server URL (none: no ntfy).")
    ntfy_user: str | None = Field(None, description="ntfy user for publishing.")
    ntfy_token: str | None = Field(None, repr=False, description="ntfy access token.")
    # --- users and sessions -------------------------------------------------------------
    session_idle_timeout: Seconds = Field(
        7 * 86400, description="A session ends after this long without a request."
    )
    verification_code_ttl: Seconds = Field(
        3600, description="How long an e-mailed verification code stays valid."
    )
    signup_retention: Seconds = Field(
        86400,
        description="An unverified signup holds its username and e-mail address this long "
        "(at least VERIFICATION_CODE_TTL) after its last code; then anyone may take them.",
    )
    signup_limit_address: int = Field(
        20,
        ge=1,
        description="Signups (each e-mails a code) asked from one client address within "
        "SIGNUP_WINDOW before 429.",
    )
    signup_window: Seconds = Field(3600, description="Window of the signup limit.")
    limit_ipv6_prefix: int = Field(
        64,
        ge=1,
        le=128,
        description="The limits per client address (signups and guests, failed logins, "
        "password-change codes) count the IPv6 addresses of one network of this many bits "
        "as one address: a client is handed a whole /64 (128: each address alone).",
    )
    password_request_limit_user: int = Field(
        3,
        ge=1,
        description="Password-change codes per account within PASSWORD_REQUEST_WINDOW "
        "before 429 (and at most one a minute).",
    )
    password_request_limit_address: int = Field(
        10,
        ge=1,
        description="Password-change codes asked from one client address within "
        "PASSWORD_REQUEST_WINDOW before 429.",
    )
    password_request_window: Seconds = Field(
        3600, description="Window of the password-change request limits."
    )
    login_rate_limit_user: int = Field(
        5, ge=1, description="Failed logins per user within LOGIN_RATE_WINDOW before 429."
    )
    login_rate_limit_address: int = Field(
        20, ge=1, description="Failed logins per client address within LOGIN_RATE_WINDOW."
    )
    login_rate_window: Seconds = Field(900, description="Window of the login rate limits.")
    password_hash_threads: int = Field(
        1,
        ge=1,
        le=64,
        description="Threads per server process that hash and check passwords (argon2id, "
        "about 0.1 s of CPU each); the rest of the machine stays for the game.",
    )
    password_hash_time_cost: int = Field(
        3,
        ge=1,
        le=100,
        description="argon2id passes over memory per password hash (RFC 9106's low-memory "
        "profile: 3). Tests use 1.",
    )
    password_hash_memory_kib: int = Field(
        65536,
        ge=8,
        le=4_194_304,
        description="argon2id memory per password hash in KiB (default 64 MiB). Tests use 8, "
        "argon2's least; a server with 7168 or more refuses stored hashes made with less.",
    )
    password_hash_parallelism: int = Field(
        4,
        ge=1,
        le=64,
        description="argon2id lanes per password hash (default 4). Tests use 1. "
        "PASSWORD_HASH_MEMORY_KIB must be at least 8 times this.",
    )
    password_hash_queue: int = Field(
        4,
        ge=0,
        le=1000,
        description="Logins, signups and password changes that may wait for a hashing "
        "thread; beyond that they are refused at once: 503 password_hashing_busy with "
        "retry_after.",
    )
    password_hash_nice: int = Field(
        10,
        ge=0,
        le=19,
        description="How much lower the hashing threads' scheduling priority is (nice value "
        "added, where the system allows it per thread, as Linux): the game goes first.",
    )
    guests: Annotated[Literal["off", "on"], BeforeValidator(lower)] = Field(
        "off",
        description="Guest accounts (docs/players-guide.md): on lets a visitor who opens a "
        "game's page pick a name and play at once, without e-mail or password (an account "
        "bound to that browser, marked as a guest, never rated); off refuses them with 403 "
        "guests_off.",
    )
    guest_purge_after: Seconds = Field(
        7 * 86400,
        description="A guest account is removed after this long without play (no request "
        "of its session, no move); its finished games keep a deleted-user name.",
    )
    # --- games -------------------------------------------------------------------------
    message_limit: int = Field(
        100, ge=0, description="Messages a player may send per game (admins can change it)."
    )
    max_waiting_games: int = Field(
        10,
        ge=1,
        description="Games waiting for players that one user may have created at a time.",
    )
    analysis_queue: int = Field(
        20,
        ge=1,
        le=10000,
        description="Analyses of finished games one server process holds at a time, "
        "waiting or being computed (one at a time, in its analysis worker); a request for "
        "another is refused with 503 analysis_queue_full.",
    )
    analysis_per_user: int = Field(
        2,
        ge=1,
        le=1000,
        description="Analyses one user may have waiting or being computed at a time in "
        "one server process; another is refused with 429 too_many_analyses until one is "
        "done. Users take turns: the user whose analyses have had the least of the "
        "worker's time goes first.",
    )
    max_bots_only_games: int = Field(
        3,
        ge=0,
        description="Games of bots only (join: false) that one user may have being played "
        "at a time; one more is refused with 409 too_many_bots_only_games. 0: nobody may "
        "start one.",
    )
    invitation_mails_per_hour: int = Field(
        40, ge=1, description="Invitation e-mails one user may have sent per hour."
    )
    max_game_actions: int = Field(
        3000,
        ge=100,
        le=100_000,
        description="The most actions a game may have: a record with more is refused before "
        "it is replayed (422 too_many_actions), and a game in play that reaches it without "
        "a winner is cancelled. A real game of 17x17 with 4 players is far shorter.",
    )
    imports_per_day: int = Field(
        100,
        ge=0,
        description="Games one user may import from records in 24 hours (429 import_limit; "
        "0: importing is off).",
    )
    imported_actions_quota: int = Field(
        100_000,
        ge=0,
        description="The actions of all the games one user imported that the server keeps "
        "(the disk they take, about 100 bytes each); an import that would pass it is refused "
        "(409 import_quota_exceeded).",
    )
    stall_remind_after: Seconds = Field(
        2 * 86400,
        description="Remind a player whose turn has lasted this long (e-mail if the player "
        "wants turn mails, ntfy with tag maintenance).",
    )
    stall_remind_interval: Seconds = Field(
        86400, ge=1, description="Remind a stalling player again after this long."
    )
    stall_timeout: Seconds = Field(
        14 * 86400, description="Remove a player whose turn lasted this long (cancels the game)."
    )
    cancelled_retention: Seconds = Field(
        30 * 86400, description="Purge cancelled games this long after they were cancelled."
    )
    outbox_attempts: int = Field(
        12,
        ge=1,
        description="Delivery attempts of one e-mail or ntfy message before it is given up "
        "(with a log line); the wait doubles from OUTBOX_RETRY_DELAY up to an hour.",
    )
    outbox_retry_delay: Seconds = Field(
        5, description="Wait before the first retry of a failed e-mail or ntfy delivery."
    )
    outbox_retention: Seconds = Field(
        2 * 86400,
        description="Keep delivered and given-up outbox rows this long (their texts are "
        "dropped at delivery), then purge them.",
    )
    ntfy_timeout: Seconds = Field(
        10,
        description="The most one ntfy publish may take in all (connecting, sending, the "
        "answer); then it is retried later, and the other topics never wait for it.",
    )
    streams_per_user: int = Field(
        8,
        ge=1,
        description="Live event streams (server-sent events) one user may hold open at once "
        "on one server process; one more is refused with 429 too_many_streams.",
    )
    streams_per_address: int = Field(
        32,
        ge=1,
        description="Live streams watchers who are not logged in (WEB_WATCH_WITHOUT_LOGIN) "
        "may hold open at once from one client address on one server process; one more is "
        "refused with 429 too_many_streams.",
    )
    web_watch_without_login: bool = Field(
        True,
        description="Anyone who reaches the server may watch its public games on the web "
        "pages (/, /games/ID, /tv), with their streams and boards, without logging in. "
        "false: the pages ask for a login first. Private games are never shown.",
    )
    stream_keepalive: Seconds = Field(
        15,
        ge=1,
        description="An idle live stream gets a comment line this often, so that proxies "
        "keep it open.",
    )
    stream_buffer: int = Field(
        256,
        ge=16,
        description="KiB waiting to be written to one live stream (beyond the operating "
        "system's buffer, which the server keeps at 32 KiB); a reader that falls this far "
        "behind is disconnected (its client reconnects and resumes).",
    )
    stream_buffer_total: int = Field(
        64,
        ge=1,
        description="MiB waiting to be written to all the live streams of one server "
        "process; beyond it the streams that hold the most are disconnected (their "
        "clients reconnect and resume).",
    )
    stream_stall_timeout: Seconds = Field(
        5,
        ge=1,
        description="A live stream whose reader takes nothing of what waits for it for "
        "this long is disconnected (its client reconnects and resumes).",
    )
    streams_max: int = Field(
        0,
        ge=0,
        description="Live stream connections one server process holds at once; one more "
        "is refused with 503 too_many_streams_on_server and retry_after (its connection "
        "closed at once). 0: half the open-file limit (raised to its hard limit at start) "
        "less 100, kept for ordinary requests and the database. A value above the "
        "open-file limit less 100 is lowered to it at start (100 files are always kept "
        "for the listening sockets, the database, the log and mail).",
    )
    bot_workers: int = Field(
        1,
        ge=0,
        description="Worker processes that compute the bots' moves (SPEC §13), off the "
        "server's event loop; one more serves people's games only. 0: the bots play in no "
        "process of this server (another "
        "process of the same database plays them, or nobody: their games wait).",
    )
    bot_safety_interval: Seconds = Field(
        30,
        description="How often each server process looks for games where it is a bot's "
        "turn and nothing is computing it (a safety: a bot normally moves at once).",
    )
    bot_time_cap: Seconds = Field(
        30,
        description="A bot move whose search takes longer than this (a safety only: a "
        "level is a fixed search budget) is given up and a legal fallback is played "
        "(the first step of a shortest path), with a warning in the log.",
    )
    bots_only_pace: FractionalSeconds = Field(
        1.0,
        ge=0,
        le=60,
        description="In a game of bots only, a bot's move is played no sooner than this "
        "after the game's previous move (seconds, 0.5 or 500ms), a pace its spectators "
        "can follow; a game with a person in it is not paced (a bot answers a person at "
        "once). 0: as fast as the bots think.",
    )
    scheduler_interval: Seconds = Field(
        60,
        description="How often the scheduler purges (cancelled games, expired codes, "
        "sessions, records, old outbox rows) and sends the daily digests due; it also "
        "wakes at each stall and reminder deadline.",
    )

    @model_validator(mode="before")
    @classmethod
    def _fill_derived(cls, data: Any) -> Any:
        if isinstance(data, dict):
            data = dict(data)
            data_dir = data.get("data_dir") or default_data_dir()
            data["data_dir"] = str(data_dir)
            if not data.get("database_url"):
                data["database_url"] = "sqlite:///" + str(Path(data_dir) / "corridorquest.db")
            if not data.get("mail_dir"):
                data["mail_dir"] = str(Path(data_dir) / "mail")
            if isinstance(data.get("log_level"), str):
                data["log_level"] = data["log_level"].upper()
        return data

    @model_validator(mode="after")
    def _argon2_memory_per_lane(self) -> Settings:
        if self.password_hash_memory_kib < 8 * self.password_hash_parallelism:
            raise ValueError(
                "PASSWORD_HASH_MEMORY_KIB must be at least 8 times PASSWORD_HASH_PARALLELISM "
                "(argon2's least memory per lane)"
            )
        return self

    @classmethod
    def env_names(cls) -> list[str]:
        """Every environment variable, in table order."""
        return [name.upper() for name in cls.model_fields]

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """`Settings(...)` takes its arguments only; `from_env` names the other sources."""
        return (init_settings,)

    @classmethod
    def from_env(
        cls,
        env_file: str | os.PathLike[str] | None = None,
        overrides: Mapping[str, Any] | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> Settings:
        """Settings from a dotenv file, then the environment, then `overrides`.

        `overrides` keys may be field names (`port`) or variable names (`PORT`).
        Raises SettingsError naming the variable when a value is invalid.
        """
        if env_file is not None and not Path(env_file).is_file():
            raise SettingsError(f"env file {os.fspath(env_file)!r} does not exist")
        given: dict[str, Any] = {}
        for key, value in (overrides or {}).items():
            if key.lower() not in cls.model_fields:
                raise SettingsError(f"unknown setting {key!r}")
            given[key.lower()] = value
        # pydantic-settings' order: a source wins over the ones after it
        sources: tuple[PydanticBaseSettingsSource, ...] = (
            InitSettingsSource(cls, init_kwargs=given),
            Variables(cls, os.environ if environ is None else environ),
        )
        if env_file is not None:
            sources += (dotenv_file(cls, env_file),)
        try:
            # _build_sources: the sources of this one call (BaseSettings.__init__ documents
            # it; mypy without pydantic's plugin sees only the fields)
            return cls(_build_sources=(sources, given))  # type: ignore[call-arg]
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']).upper() or 'settings'}: {err['msg']}"
                for err in exc.errors()
            )
            raise SettingsError(f"invalid setting: {problems}") from None

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite:")

    @property
    def tls_enabled(self) -> bool:
        return bool(self.tls_cert and self.tls_key)
