"""Did a request reach us over HTTPS? Direct TLS, or a reverse proxy that says so.

A proxy reports the client's protocol in ``X-Forwarded-Proto`` (de facto) or in the RFC
7239 ``Forwarded`` header. Each proxy on the way appends its own element, so the *first*
element describes the hop from the client. That is the one that matters: REQUIRE_HTTPS
exists to refuse clients that send passwords and tokens in clear text over the network.
A client that forges the header only exposes its own traffic, so the headers are trusted
as they come (document the proxy in front; see docs/administration-users.md).

``Forwarded`` wins over ``X-Forwarded-Proto`` when it carries a ``proto`` parameter.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

# RFC 7230 token characters and quoted-string (with quoted-pair escapes).
_TOKEN = r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+"
_QUOTED = r'"(?:[^"\\]|\\.)*"'
_PAIR = re.compile(rf"\s*({_TOKEN})\s*=\s*({_TOKEN}|{_QUOTED})\s*")


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return re.sub(r"\\(.)", r"\1", value[1:-1])
    return value


def parse_forwarded(values: Iterable[str]) -> list[dict[str, str]]:
    """The elements of one or more ``Forwarded`` header values, in order.

    Each element is a dict of lower-cased parameter names to unquoted values, e.g.
    ``for=192.0.2.43;PROTO="https", for=x`` -> ``[{"for": "192.0.2.43", "proto": "https"},
    {"for": "x"}]``. Malformed pairs are skipped, never raised: a bad header from a client
    must not turn into a server error.
    """
    elements: list[dict[str, str]] = []
    for header in values:
        element: dict[str, str] = {}
        pos = 0
        while pos < len(header):
            match = _PAIR.match(header, pos)
            if match:
                element.setdefault(match.group(1).lower(), _unquote(match.group(2)))
                pos = match.end()
            else:
                # Skip the malformed piece up to the next separator.
                nxt = re.search(r"[;,]", header[pos:])
                if nxt is None:
                    break
                pos += nxt.start()
            if pos < len(header) and header[pos] == ";":
                pos += 1
            elif pos < len(header) and header[pos] == ",":
                pos += 1
                if element:
                    elements.append(element)
                element = {}
        if element:
            elements.append(element)
    return elements


def _header_values(headers: Mapping[str, str] | object, name: str) -> list[str]:
    getall = getattr(headers, "getall", None)
    if callable(getall):
        return [str(v) for v in getall(name, [])]
    if isinstance(headers, Mapping):
        for key, value in headers.items():
            if str(key).lower() == name:
                return [str(value)]
    return []


def forwarded_proto(headers: Mapping[str, str] | object) -> str | None:
    """The client's protocol as reported by a proxy (lower case), or None if not reported."""
    for element in parse_forwarded(_header_values(headers, "forwarded")):
        if "proto" in element:
            return element["proto"].strip().lower()
    for value in _header_values(headers, "x-forwarded-proto"):
        first = value.split(",")[0].strip().lower()
        if first:
            return first
    return None


def is_https(direct_tls: bool, headers: Mapping[str, str] | object) -> bool:
    """Whether the request arrived over TLS, directly or according to a proxy."""
    if direct_tls:
        return True
    return forwarded_proto(headers) == "https"
