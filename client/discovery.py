"""Corridor Quest servers heard on the local network (mDNS/DNS-SD, SPEC §15).

A server with DISCOVERY on announces `_corridorquest._tcp` with a TXT record: version,
name, url, tls. `find_servers(wait)` listens that long (python-zeroconf) and returns the
servers heard, one per URL, in the order of their names. What arrives is another
machine's text: every field is made safe for the terminal, and a URL that is not
http(s) is dropped.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from client.api import normalize_server_url
from client.errors import CqError
from client.safe_text import visible

SERVICE_TYPE = "_corridorquest._tcp.local."
FIND_WAIT = 2.0  # seconds `cq server find` listens
RESOLVE_WAIT_MS = 500  # for a service heard whose TXT record has not arrived yet


@dataclass(frozen=True)
class FoundServer:
    name: str
    url: str
    version: str
    tls: bool


def _text(properties: dict[bytes, bytes | None], key: str) -> str:
    value = properties.get(key.encode())
    return visible(value.decode("utf-8", errors="replace")) if value else ""


def _found(properties: dict[bytes, bytes | None], fallback_name: str) -> FoundServer | None:
    try:
        url = normalize_server_url(_text(properties, "url"))
    except ValueError:
        return None
    if "://" not in _text(properties, "url"):
        return None
    return FoundServer(
        name=_text(properties, "name") or visible(fallback_name),
        url=url,
        version=_text(properties, "version") or "?",
        tls=url.startswith("https://"),
    )


def find_servers(wait: float = FIND_WAIT) -> list[FoundServer]:
    """The servers that answer within `wait` seconds (CqError when the network cannot
    be listened to)."""
    try:
        from zeroconf import (
            IPVersion,
            ServiceBrowser,
            ServiceInfo,
            ServiceStateChange,
            Zeroconf,
        )
    except ImportError:
        raise CqError("this cq cannot listen on the local network: the zeroconf package is "
                      "not installed (pip install zeroconf)",
                      reason="discovery_unavailable") from None

    heard: dict[str, None] = {}

    def on_change(
        zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        if state_change is not ServiceStateChange.Removed:
            heard[name] = None

    try:
        zeroconf = Zeroconf(ip_version=IPVersion.V4Only)
    except OSError as exc:
        raise CqError(f"cannot listen on the local network for servers: {exc}",
                      reason="discovery_unavailable") from None
    try:
        browser = ServiceBrowser(zeroconf, SERVICE_TYPE, handlers=[on_change])
        time.sleep(wait)
        browser.cancel()
        servers: dict[str, FoundServer] = {}
        for name in list(heard):
            info = ServiceInfo(SERVICE_TYPE, name)
            if not info.load_from_cache(zeroconf):
                info.request(zeroconf, RESOLVE_WAIT_MS)
            instance = name.removesuffix("." + SERVICE_TYPE)
            server = _found(info.properties or {}, instance)
            if server is not None:
                servers.setdefault(server.url, server)
    finally:
        zeroconf.close()
    return sorted(servers.values(), key=lambda s: (s.name.lower(), s.url))


def describe(server: FoundServer) -> str:
    return f"{server.name}  {server.url}  (version {server.version})"


def offer_found_server(default_url: str) -> str:
    """For `cq signup`/`cq login` without a server URL: the servers heard, to choose from
    (one: confirm it; several: a number; none, or the network cannot be listened to:
    `default_url`, as before)."""
    import click

    click.echo("Looking for servers on the local network...", err=True)
    try:
        servers = find_servers()
    except CqError:
        servers = []
    if not servers:
        click.echo(f"None answered; using {default_url}.", err=True)
        return default_url
    if len(servers) == 1:
        click.echo(f"Found {describe(servers[0])}", err=True)
        if click.confirm("Use this server?", default=True, err=True):
            return servers[0].url
        return default_url
    click.echo("Found these servers:", err=True)
    for number, server in enumerate(servers, 1):
        click.echo(f"  {number}. {describe(server)}", err=True)
    choice = click.prompt(
        f"Which one (0: {default_url})", type=click.IntRange(0, len(servers)), default=1,
        err=True,
    )
    return servers[choice - 1].url if choice else default_url
