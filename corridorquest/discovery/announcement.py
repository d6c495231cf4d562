"""Announcing the server on the local network with python-zeroconf, in a thread.

Where it is announced: bound to every interface (HOST=0.0.0.0 or ::), on every interface;
bound to one address, on that address alone (127.0.0.1 too, with DISCOVERY=on: a
listener on the same machine hears it). The URL in the TXT record is PUBLIC_URL when set,
else the address others reach the server at (as the start log names it).
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import threading
from dataclasses import dataclass, field
from typing import Any

from corridorquest import __version__
from corridorquest.listening import ALL_INTERFACES, machine_addresses, url
from corridorquest.settings import Settings

log = logging.getLogger("corridorquest.discovery")

SERVICE_TYPE = "_corridorquest._tcp.local."
START_WAIT = 5.0  # seconds `stop` waits for an announcement still being made
_INSTANCE_MAX = 63  # bytes of a DNS-SD instance name


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False  # a host name: the administrator meant the network


def enabled(settings: Settings) -> bool:
    """DISCOVERY=on, or auto and bound to an address other machines may reach."""
    if settings.discovery == "auto":
        return not _is_loopback(settings.host)
    return settings.discovery == "on"


def served_port(app: Any, settings: Settings) -> int:
    """The port the server listens on (PORT=0: the one the system chose)."""
    for info in getattr(app.state, "server_info", []) or []:
        sock = (getattr(info, "settings", None) or {}).get("sock")
        if sock is not None:
            return int(sock.getsockname()[1])
    return settings.port


def _addresses(host: str) -> list[str]:
    """The addresses announced for the server (no loopback unless bound there)."""
    if host in ALL_INTERFACES:
        return machine_addresses(ipv6=host == "::") or ["127.0.0.1"]
    try:
        return [str(ipaddress.ip_address(host.split("%")[0]))]
    except ValueError:
        try:
            return sorted({str(i[4][0]) for i in socket.getaddrinfo(host, None)})
        except OSError:
            return []


def announced_url(settings: Settings, port: int, addresses: list[str]) -> str:
    """PUBLIC_URL, else the URL at the first address others reach the server at."""
    if settings.public_url:
        return settings.public_url
    scheme = "https" if settings.tls_enabled else "http"
    if settings.host not in ALL_INTERFACES and not _is_ip(settings.host):
        return url(scheme, settings.host, port)  # a host name: the administrator's choice
    return url(scheme, addresses[0] if addresses else "127.0.0.1", port)


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return False
    return True


def server_name(settings: Settings) -> str:
    return settings.discovery_name or socket.gethostname() or "Corridor Quest"


@dataclass
class Announcement:
    """One announcement: made in `thread`; `zeroconf`/`info` set once it is made."""

    settings: Settings
    port: int
    thread: threading.Thread | None = None
    zeroconf: Any = None
    info: Any = None
    url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def announce(self) -> None:
        from zeroconf import IPVersion, ServiceInfo, Zeroconf

        settings = self.settings
        addresses = _addresses(settings.host)
        self.url = announced_url(settings, self.port, addresses)
        name = server_name(settings)
        instance = f"{name} ({self.port})".encode()[:_INSTANCE_MAX].decode(errors="ignore")
        info = ServiceInfo(
            SERVICE_TYPE,
            f"{instance}.{SERVICE_TYPE}",
            parsed_addresses=addresses,
            port=self.port,
            properties={
                "version": __version__,
                "name": name,
                "url": self.url,
                "tls": "1" if self.url.startswith("https:") else "0",
            },
        )
        ipv6 = any(":" in a for a in addresses)
        interfaces: Any = None
        if settings.host not in ALL_INTERFACES:
            interfaces = addresses  # that address alone
        kwargs: dict[str, Any] = {
            "ip_version": IPVersion.All if ipv6 else IPVersion.V4Only
        }
        if interfaces:
            kwargs["interfaces"] = interfaces
        zeroconf = Zeroconf(**kwargs)
        try:
            zeroconf.register_service(info, allow_name_change=True)
        except BaseException:
            zeroconf.close()
            raise
        with self.lock:
            self.zeroconf, self.info = zeroconf, info
        log.info(
            "announced on the local network as %r (%s): %s",
            name, SERVICE_TYPE.removesuffix(".local."), self.url,
        )

    def run(self) -> None:
        try:
            self.announce()
        except Exception as error:  # no multicast here, say: the server runs on
            log.warning("cannot announce the server on the local network: %s", error)

    def withdraw(self) -> None:
        if self.thread is not None:
            self.thread.join(START_WAIT)
        with self.lock:
            zeroconf, info, self.zeroconf = self.zeroconf, self.info, None
        if zeroconf is None:
            return
        try:
            zeroconf.unregister_service(info)
        except Exception as error:
            log.warning("cannot withdraw the announcement: %s", error)
        finally:
            zeroconf.close()


def start(settings: Settings, port: int) -> Announcement | None:
    """Announce the server (in a thread) if DISCOVERY says so; None when it does not."""
    if not enabled(settings):
        return None
    announcement = Announcement(settings, port)
    announcement.thread = threading.Thread(
        target=announcement.run, name="discovery", daemon=True
    )
    announcement.thread.start()
    return announcement


async def stop(announcement: Announcement | None) -> None:
    """Withdraw the announcement (a goodbye packet), off the event loop."""
    if announcement is None:
        return
    import asyncio

    await asyncio.to_thread(announcement.withdraw)
