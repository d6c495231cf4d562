"""REQUIRE_HTTPS: direct TLS, X-Forwarded-Proto, and RFC 7239 Forwarded parsed properly."""

from __future__ import annotations

import pytest

from corridorquest.security.https import forwarded_proto, is_https, parse_forwarded


def test_forwarded_elements_parameters_and_quoting() -> None:
    header = 'for=192.0.2.60;PROTO=https;by=203.0.113.43, for="[2001:db8:cafe::17]:4711"'
    assert parse_forwarded([header]) == [
        {"for": "192.0.2.60", "proto": "https", "by": "203.0.113.43"},
        {"for": "[2001:db8:cafe::17]:4711"},
    ]


def test_forwarded_quoted_values_may_hold_separators_and_escapes() -> None:
    header = r'for="a,b;c";proto="https", host="x\"y"'
    assert parse_forwarded([header]) == [
        {"for": "a,b;c", "proto": "https"},
        {"host": 'x"y'},
    ]


def test_several_forwarded_headers_are_one_list() -> None:
    assert parse_forwarded(["proto=https", "for=10.0.0.1;proto=http"]) == [
        {"proto": "https"},
        {"for": "10.0.0.1", "proto": "http"},
    ]


def test_malformed_forwarded_pieces_are_skipped_not_raised() -> None:
    assert parse_forwarded(["garbage;;proto=https,,=x, for=1"]) == [
        {"proto": "https"},
        {"for": "1"},
    ]
    assert parse_forwarded(['proto="unterminated']) == []


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({}, None),
        ({"X-Forwarded-Proto": "https"}, "https"),
        ({"x-forwarded-proto": "HTTPS, http"}, "https"),
        ({"Forwarded": "for=1.2.3.4;proto=https"}, "https"),
        ({"Forwarded": 'for=1.2.3.4;Proto="HTTPS"'}, "https"),
        ({"Forwarded": "for=1.2.3.4, for=5.6.7.8;proto=http"}, "http"),
        # The element nearest the client wins (the first one with a proto).
        ({"Forwarded": "proto=https, proto=http"}, "https"),
        # Forwarded wins over X-Forwarded-Proto when it says a proto.
        ({"Forwarded": "proto=http", "X-Forwarded-Proto": "https"}, "http"),
        ({"Forwarded": "for=1.2.3.4", "X-Forwarded-Proto": "https"}, "https"),
    ],
)
def test_forwarded_proto(headers: dict[str, str], expected: str | None) -> None:
    assert forwarded_proto(headers) == expected


def test_is_https_needs_tls_or_a_proxy_saying_https() -> None:
    assert is_https(True, {})
    assert not is_https(False, {})
    assert not is_https(False, {"X-Forwarded-Proto": "http"})
    assert is_https(False, {"Forwarded": "proto=https"})
