"""Security raises its own refusals; the services answer them as before (422 / 403, the
same reason and message): the HTTP side is in tests/api/test_users.py and test_https.py."""

from __future__ import annotations

import pytest

from corridorquest.security import policy
from corridorquest.security.errors import HttpsRequired, InvalidValue
from corridorquest.services.errors import (
    Forbidden,
    Unprocessable,
    security_refusals_as_service_errors,
    service_error_for,
)


def test_the_policy_refuses_with_its_own_error_and_a_stable_reason() -> None:
    with pytest.raises(InvalidValue) as refused:
        policy.check_username("9lives")
    assert refused.value.reason == "invalid_username"
    assert not isinstance(refused.value, Unprocessable)  # no service error below the services


def test_a_refused_value_is_answered_422_with_the_policy_s_reason_and_message() -> None:
    with pytest.raises(InvalidValue) as refused:
        policy.check_password("short", "alice")
    answer = service_error_for(refused.value)
    assert isinstance(answer, Unprocessable) and answer.status == 422
    assert answer.to_json() == {
        "reason": "invalid_password",
        "message": refused.value.message,
    }
    assert "at least" in answer.message


def test_plain_http_is_answered_403_https_required() -> None:
    answer = service_error_for(HttpsRequired())
    assert isinstance(answer, Forbidden) and answer.status == 403
    assert answer.to_json() == {
        "reason": "https_required",
        "message": "this server accepts HTTPS only: use an https:// server URL",
    }


def test_inside_a_service_a_refusal_becomes_the_service_error() -> None:
    with pytest.raises(Unprocessable) as raised, security_refusals_as_service_errors():
        policy.check_email("not an address")
    assert raised.value.reason == "invalid_email"
    assert raised.value.__cause__ is None


def test_other_errors_pass_through_untouched() -> None:
    assert service_error_for(ValueError("x")) is None
    with pytest.raises(ValueError), security_refusals_as_service_errors():
        raise ValueError("not security's")
