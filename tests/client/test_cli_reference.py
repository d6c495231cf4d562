"""docs/cli-reference.md is generated from --help and must be current."""

from __future__ import annotations

from client.gen_reference import REFERENCE, generate


def test_cli_reference_is_current() -> None:
    assert REFERENCE.read_text(encoding="utf-8") == generate(), (
        "docs/cli-reference.md is stale: run python -m client.gen_reference"
    )


def test_cli_reference_covers_every_command() -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    for heading in ("## `cq game move`", "## `cq user ntfy-dm-topic`", "## `cq profile switch`",
                    "## `cq server info`", "## `cq-shell`"):
        assert heading in text
