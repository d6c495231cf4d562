"""Where `corridorquest serve` listens: its socket, bound before the server starts (a busy
port is one line, not a traceback), and the addresses the start log gives for it.

Bound to every interface (HOST=0.0.0.0 or ::), the log names the URLs others on the
network may use: this machine's non-loopback addresses, found without any dependency and
without sending a packet (the address the machine would send from, and what its host name
resolves to, given a second at most).
"""

from __future__ import annotations

import errno
import ipaddress
import socket
import threading

ALL_INTERFACES = frozenset({"0.0.0.0", "::", ""})
BACKLOG = 100  # Sanic's default
HOST_NAME_WAIT = 1.0  # seconds the host name's addresses may take (a slow resolver)
# documentation addresses (RFC 5737, RFC 3849): a UDP "connect" to them sends nothing and
# tells which of the machine's addresses its route to the world leaves from
_PROBES = ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1"))


class ListenError(Exception):
    """The socket cannot be bound (the message says why in one line, naming what to change)."""


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on `host`:`port` (as Sanic binds it); ListenError otherwise."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family)
    except OSError as error:
        raise ListenError(f"cannot listen on {host}: {error.strerror or error}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except socket.gaierror:
        sock.close()
        raise ListenError(
            f"cannot listen on {host!r}: no such address or host name (set --host or HOST)"
        ) from None
    except OSError as error:
        sock.close()
        raise ListenError(_why(error, host, port)) from None
    sock.set_inheritable(True)
    return sock


def _why(error: OSError, host: str, port: int) -> str:
    if error.errno == errno.EADDRINUSE:
        return (
            f"port {port} is already in use (another server, or another program, listens"
            f" on it): stop that one, or start this one on another port with --port N"
            f" (or PORT)"
        )
    if error.errno == errno.EACCES:
        return (
            f"not allowed to listen on port {port} (ports below 1024 need privileges):"
            f" choose another port with --port N (or PORT)"
        )
    if error.errno == errno.EADDRNOTAVAIL:
        return f"cannot listen on {host}: it is not an address of this machine (--host or HOST)"
    return f"cannot listen on {host} port {port}: {error.strerror or error}"


def url(scheme: str, host: str, port: int) -> str:
    return f"{scheme}://[{host}]:{port}" if ":" in host else f"{scheme}://{host}:{port}"


def _reachable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def _route_addresses(families: tuple[int, ...]) -> list[str]:
    """The address each family's route to the world leaves from (no packet is sent)."""
    found = []
    for family, probe in _PROBES:
        if family not in families:
            continue
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))
                found.append(str(sock.getsockname()[0]))
        except OSError:
            continue  # no route of that family
    return found


def _host_name_addresses(families: tuple[int, ...]) -> list[str]:
    """What the machine's host name resolves to (within HOST_NAME_WAIT seconds)."""
    found: list[str] = []

    def resolve() -> None:
        try:
            infos = socket.getaddrinfo(socket.gethostname(), None, type=socket.SOCK_STREAM)
        except OSError:
            return
        found.extend(str(info[4][0]) for info in infos if info[0] in families)

    worker = threading.Thread(target=resolve, name="host-addresses", daemon=True)
    worker.start()
    worker.join(HOST_NAME_WAIT)
    return list(found) if not worker.is_alive() else []


def machine_addresses(ipv6: bool) -> list[str]:
    """This machine's addresses others may reach: IPv4 first, no loopback or link-local."""
    families = (socket.AF_INET, socket.AF_INET6) if ipv6 else (socket.AF_INET,)
    addresses: list[str] = []
    for address in _route_addresses(families) + _host_name_addresses(families):
        if _reachable(address) and address not in addresses:
            addresses.append(address)
    return sorted(addresses, key=lambda address: ":" in address)


def listening_line(scheme: str, host: str, port: int) -> str:
    """The start log's line: where the server listens, and where others reach it."""
    if host not in ALL_INTERFACES:
        return f"Corridor Quest listening on {url(scheme, host, port)}"
    others = [url(scheme, address, port) for address in machine_addresses(ipv6=host == "::")]
    where = (
        "others reach it at " + ", ".join(others)
        if others
        else "no address of this machine but loopback was found: others reach it at"
        " this machine's address on the network"
    )
    return (
        f"Corridor Quest listening on every interface ({url(scheme, host or '0.0.0.0', port)}):"
        f" {where}; this machine at {url(scheme, 'localhost', port)}"
    )
