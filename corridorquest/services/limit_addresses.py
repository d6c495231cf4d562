"""The client address that the limits per address count under (SPEC §7's signup, guest,
login and password-change limits).

An IPv4 address counts alone. An IPv6 address counts by its network of
LIMIT_IPV6_PREFIX bits (default 64): a home, a phone or a rented server is handed a
whole /64 and may take any address in it, so counting each address alone would let one
client pass a limit by changing its address. An IPv4 address written in IPv6
(`::ffff:192.0.2.1`) counts as the IPv4 address. Anything that is not an IP address
(`unknown`, a test's name) counts as it is. Every limit per address takes its key here.
"""

from __future__ import annotations

import ipaddress

from corridorquest.settings import Settings

ADDRESS_MAX = 64  # the longest key stored (an IPv6 network is at most 43 characters)


def limit_address(address: str | None, settings: Settings) -> str:
    """The key the limits per address count `address` under: `192.0.2.1`, or for IPv6
    its network, `2001:db8:1:2::/64` (with LIMIT_IPV6_PREFIX=128: the address alone)."""
    text = (address or "unknown").strip()
    try:
        ip = ipaddress.ip_address(text.split("%", 1)[0])  # without an IPv6 zone (%eth0)
    except ValueError:
        return text[:ADDRESS_MAX]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        prefix = settings.limit_ipv6_prefix
        if prefix < 128:
            return str(ipaddress.IPv6Network((ip, prefix), strict=False))
    return str(ip)
