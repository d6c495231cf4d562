"""The sliding-window login limit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from corridorquest.security.ratelimit import RateLimit

NOW = datetime(2026, 11, 22, 10, 0, 0, tzinfo=UTC)


def ago(seconds: float) -> datetime:
    return NOW - timedelta(seconds=seconds)


def test_attempts_below_the_limit_are_allowed() -> None:
    limit = RateLimit(limit=3, window_seconds=60)
    assert limit.retry_after([], NOW) is None
    assert limit.retry_after([ago(10), ago(5)], NOW) is None


def test_reaching_the_limit_says_when_the_oldest_failure_leaves_the_window() -> None:
    limit = RateLimit(limit=3, window_seconds=60)
    assert limit.retry_after([ago(50), ago(10), ago(5)], NOW) == 10
    # Order does not matter; failures older than the window do not count.
    assert limit.retry_after([ago(5), ago(500), ago(50), ago(10)], NOW) == 10
    assert limit.retry_after([ago(61), ago(10), ago(5)], NOW) is None


def test_more_failures_than_the_limit_wait_for_enough_to_expire() -> None:
    limit = RateLimit(limit=2, window_seconds=100)
    assert limit.retry_after([ago(90), ago(40), ago(30)], NOW) == 60


def test_retry_after_is_at_least_one_second() -> None:
    limit = RateLimit(limit=1, window_seconds=60)
    assert limit.retry_after([ago(59.9)], NOW) == 1
