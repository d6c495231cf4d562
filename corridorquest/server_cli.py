"""`corridorquest serve`: run the server (one process) until interrupted."""

from __future__ import annotations

import logging
import os
import ssl
import sys
from collections.abc import Mapping
from pathlib import Path

import click

from corridorquest.settings import Settings, SettingsError

log = logging.getLogger("corridorquest")

# Sanic reads SANIC_* variables of the environment into its configuration. With this one
# it takes every client's address from a request header that any client can send, and
# every per-address limit (logins, signups, streams) would trust it.
REFUSED_SANIC_VARIABLES = {
    "SANIC_REAL_IP_HEADER": (
        "Sanic would take each client's address from that header, which any client can"
        " set, and the per-address limits would trust it"
    ),
}

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure_logging(level: str) -> None:
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in ("sanic.root", "sanic.error", "sanic.server", "sanic.access"):
        sanic_logger = logging.getLogger(name)
        sanic_logger.handlers[:] = []
        sanic_logger.propagate = True
    logging.getLogger("sanic.access").setLevel(logging.WARNING)


def refuse_sanic_variables(environ: Mapping[str, str]) -> None:
    for name, why in REFUSED_SANIC_VARIABLES.items():
        if environ.get(name):
            raise click.ClickException(
                f"{name} is set in the environment: {why}. Unset it; behind a reverse proxy"
                " set PROXIES_COUNT instead (docs/administration.md, Behind a reverse proxy)"
            )


def warn_about_exposure(settings: Settings) -> None:
    """Warnings for settings that expose more than the administrator may think."""
    from corridorquest.listening import ALL_INTERFACES

    if settings.proxies_count >= 1 and settings.host in ALL_INTERFACES:
        log.warning(
            "PROXIES_COUNT=%d but the server listens on every interface (HOST=%s): a client"
            " that reaches it directly, not through the proxy, chooses with its own"
            " X-Forwarded-For the address the per-address limits count. Listen where only"
            " the proxy reaches the server (HOST=127.0.0.1, say) or firewall the port",
            settings.proxies_count,
            settings.host or "0.0.0.0",
        )
    database = _sqlite_database(settings)
    if database is None:
        return
    from corridorquest.store.file_modes import readable_by_others

    if readable_by_others(database):
        log.warning(
            "the database %s can be read by other users of this machine (mode %o): it holds"
            " password hashes and e-mail addresses; `chmod 600 %s` makes it the owner's"
            " alone (its -wal and -shm files follow on the next start)",
            database, database.stat().st_mode & 0o777, database,
        )


def _sqlite_database(settings: Settings) -> Path | None:
    from corridorquest.store.single_process import sqlite_file

    return sqlite_file(settings.database_url)


def tls_context(settings: Settings) -> ssl.SSLContext | None:
    """The server's TLS context from TLS_CERT/TLS_KEY (None: plain HTTP)."""
    if not settings.tls_enabled:
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(str(settings.tls_cert), str(settings.tls_key))
    except (OSError, ssl.SSLError) as error:
        raise click.ClickException(f"cannot use TLS_CERT/TLS_KEY: {error}") from None
    return context


@click.command()
@click.option(
    "--env-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Read settings from this dotenv file (the environment wins over it).",
)
@click.option("--host", help="Address to listen on (overrides HOST).")
@click.option("--port", type=click.IntRange(0, 65535), help="TCP port (overrides PORT).")
def serve(env_file: Path | None, host: str | None, port: int | None) -> None:
    """Start the Corridor Quest server (creates and migrates the database on first start).

    Settings come from environment variables (see docs/corridorquest.env.example).
    """
    refuse_sanic_variables(os.environ)
    overrides: dict[str, object] = {}
    if host:
        overrides["host"] = host
    if port is not None:
        overrides["port"] = port
    try:
        settings = Settings.from_env(env_file, overrides)
    except SettingsError as error:
        raise click.ClickException(str(error)) from None
    if bool(settings.tls_cert) != bool(settings.tls_key):
        raise click.ClickException("set both TLS_CERT and TLS_KEY for HTTPS (or neither)")
    for name in ("tls_cert", "tls_key"):
        value = getattr(settings, name)
        if value and not Path(value).is_file():
            raise click.ClickException(f"{name.upper()} file {value!r} does not exist")
    tls = tls_context(settings)
    configure_logging(settings.log_level)
    # the data directory (and the database's) are the owner's alone when new
    from corridorquest.store.file_modes import make_private_directory

    make_private_directory(Path(settings.data_dir))
    database = _sqlite_database(settings)
    if database is not None:
        make_private_directory(database.parent)
    warn_about_exposure(settings)
    # One server process per SQLite file (store/single_process.py), held until exit.
    from corridorquest.store.single_process import DatabaseInUse, lock_sqlite_file

    try:
        lock = lock_sqlite_file(settings.database_url, settings.port)
    except DatabaseInUse as error:
        raise click.ClickException(str(error)) from None
    except OSError as error:
        raise click.ClickException(f"cannot lock the SQLite database: {error}") from None

    from corridorquest import listening

    try:
        try:
            sock = listening.bind(settings.host, settings.port)
        except listening.ListenError as error:
            raise click.ClickException(str(error)) from None
        scheme = "https" if tls else "http"
        log.info(listening.listening_line(scheme, settings.host, sock.getsockname()[1]))

        from corridorquest.composition import create_app

        app = create_app(settings)
        app.run(
            sock=sock,
            ssl=tls,
            single_process=True,
            auto_reload=False,
            access_log=False,
            debug=False,
            motd=False,
        )
    finally:
        if lock is not None:
            lock.release()
