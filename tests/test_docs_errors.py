"""Every error reason the server answers is in docs/api.md (clients switch on them).

The reasons are found in the code: every `ServiceError` (or subclass) built with a
literal reason, and every `error_response(status, "reason", ...)`. A few of them can
never reach a client over HTTP (the request model refuses the value first with 400
`bad_request`): those are listed below with why. The answers of the HTTP layer that
carry more than a reason (405 with `Allow`, 408) and the rule for message texts are
checked by phrase.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from corridorquest.services import errors

ROOT = Path(__file__).resolve().parent.parent
API_DOCS = ROOT / "docs" / "api.md"

# Reasons the code has but no request can bring about: the pydantic model of the body
# refuses the value before the service sees it (400 bad_request, documented as such).
UNREACHABLE = {
    "invalid_notify": "NotifyIn: StrictBool fields, extra keys forbidden",
    "invalid_trading_mode": "OfferIn/TradeIn: mode is Literal['buying', 'selling']",
    "invalid_message_limit": "AdminMessageLimitIn: StrictInt between 0 and the maximum",
}


def _error_classes() -> set[str]:
    found = set()
    todo = [errors.ServiceError]
    while todo:
        cls = todo.pop()
        found.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return found | {"ServiceError"}


def reasons_in_code() -> dict[str, str]:
    """reason -> where it is raised (the first place found)."""
    classes = _error_classes()
    found: dict[str, str] = {}
    for path in sorted((ROOT / "corridorquest").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in classes:
                keyword = [k.value for k in node.keywords if k.arg == "reason"]
                argument = node.args[0] if node.args else (keyword[0] if keyword else None)
            elif name == "error_response" and len(node.args) >= 2:
                argument = node.args[1]
            else:
                continue
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                found.setdefault(argument.value, where)
    return found


def test_the_scan_finds_the_reasons_of_services_and_of_the_http_layer() -> None:
    found = reasons_in_code()
    for reason in ("stale_revision", "not_a_player", "internal_error", "request_timeout"):
        assert reason in found, reason


def test_every_reason_the_server_answers_is_in_the_api_docs() -> None:
    text = API_DOCS.read_text(encoding="utf-8")
    missing = sorted(
        f"{reason} ({where})"
        for reason, where in reasons_in_code().items()
        if f"`{reason}`" not in text and reason not in UNREACHABLE
    )
    assert not missing, f"error reasons missing from docs/api.md: {missing}"


def test_the_unreachable_reasons_are_still_in_the_code() -> None:
    found = reasons_in_code()
    gone = sorted(reason for reason in UNREACHABLE if reason not in found)
    assert not gone, f"remove from UNREACHABLE: {gone}"


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_the_http_layer_answers_are_described() -> None:
    text = _flat(API_DOCS.read_text(encoding="utf-8"))
    assert "405 `method_not_allowed`" in text and "`Allow` header" in text
    assert "408 `request_timeout`" in text
    assert "422 `invalid_idempotency_key`" in text


def test_the_game_limits_are_described_under_their_endpoints() -> None:
    text = _flat(API_DOCS.read_text(encoding="utf-8"))
    create = text[text.index("- `POST /games` ") : text.index("- `GET /games?")]
    assert "409 `too_many_waiting_games`" in create
    assert "429 `invitation_limit`" in create
    change = text[text.index("- `PATCH /games/{id}`") : text.index("- `DELETE /games/{id}`")]
    assert "`invitation_limit`" in change


def test_message_texts_are_said_to_be_one_line_without_control_characters() -> None:
    text = _flat(API_DOCS.read_text(encoding="utf-8"))
    post = text[
        text.index("- `POST /games/{id}/messages`") : text.index("- `POST /games/{id}/mutes`")
    ]
    assert "one line without control characters" in post
    assert "`invalid_message`" in post
