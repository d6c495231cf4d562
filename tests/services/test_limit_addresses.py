"""The key a client address is counted under by the limits per address
(services/limit_addresses.py): an IPv6 /64 is one address (LIMIT_IPV6_PREFIX), an IPv4
address is itself. The limits themselves, keyed so, are tested through the API
(tests/api/test_signup_limit.py, tests/api/test_sessions.py)."""

from __future__ import annotations

import pytest

from corridorquest.services.limit_addresses import limit_address
from corridorquest.settings import Settings

pytestmark = pytest.mark.backend_neutral  # no database: a pure function


def settings(**values: object) -> Settings:
    return Settings.from_env(overrides=values, environ={})


def test_two_addresses_of_one_ipv6_64_count_as_one_and_another_64_apart() -> None:
    default = settings()
    assert default.limit_ipv6_prefix == 64
    one = limit_address("2001:db8:1:2::1", default)
    assert one == "2001:db8:1:2::/64"
    assert limit_address("2001:db8:1:2:ffff:aaaa:bbbb:cccc", default) == one
    assert limit_address("2001:DB8:1:2:0:0:0:7", default) == one  # any spelling
    assert limit_address("2001:db8:1:3::1", default) != one


def test_the_prefix_is_a_setting_and_128_counts_each_address_alone() -> None:
    assert limit_address("2001:db8:1:2::1", settings(LIMIT_IPV6_PREFIX=48)) == (
        "2001:db8:1::/48"
    )
    alone = settings(LIMIT_IPV6_PREFIX=128)
    assert limit_address("2001:db8:1:2::1", alone) == "2001:db8:1:2::1"
    assert limit_address("2001:db8:1:2::2", alone) == "2001:db8:1:2::2"
    for bad in ("0", "129", "sixty-four"):
        with pytest.raises(Exception, match="LIMIT_IPV6_PREFIX|limit_ipv6_prefix"):
            settings(LIMIT_IPV6_PREFIX=bad)


def test_ipv4_counts_alone_also_written_in_ipv6_and_other_text_as_it_is() -> None:
    default = settings()
    assert limit_address("192.0.2.1", default) == "192.0.2.1"
    assert limit_address("192.0.2.2", default) == "192.0.2.2"
    assert limit_address("::ffff:192.0.2.1", default) == "192.0.2.1"
    assert limit_address("fe80::1%eth0", default) == "fe80::/64"
    assert limit_address("::1", default) == "::/64"
    assert limit_address(None, default) == limit_address("", default) == "unknown"
    assert limit_address("x" * 100, default) == "x" * 64  # stored at most 64 characters
