"""`corridorquest serve`: run the server (one process) until interrupted."""

from __future__ import annotations

import logging
import ssl
import sys
from pathlib import Path

import click

from corridorquest.settings import Settings, SettingsError

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
    Path(settings.data_dir).mkdir(parents=True, exist_ok=True)
    # One server process per SQLite file (store/single_process.py), held until exit.
    from corridorquest.store.single_process import DatabaseInUse, lock_sqlite_file

    try:
        lock = lock_sqlite_file(settings.database_url, settings.port)
    except DatabaseInUse as error:
        raise click.ClickException(str(error)) from None
    except OSError as error:
        raise click.ClickException(f"cannot lock the SQLite database: {error}") from None

    from corridorquest.api.app import create_app

    try:
        app = create_app(settings)
        scheme = "https" if tls else "http"
        logging.getLogger("corridorquest").info(
            "Corridor Quest listening on %s://%s:%d", scheme, settings.host, settings.port
        )
        app.run(
            host=settings.host,
            port=settings.port,
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
