"""docs/cli-reference.md and docs/cq-admin-reference.md are generated from --help and must
be current."""

from __future__ import annotations

import pytest

from gen_reference import ADMIN_REFERENCE, REFERENCE, generate, generate_admin

pytestmark = pytest.mark.backend_neutral  # no database: the generated CLI references


def test_cli_reference_is_current() -> None:
    assert REFERENCE.read_text(encoding="utf-8") == generate(), (
        "docs/cli-reference.md is stale: run python gen_reference.py"
    )


def test_cli_reference_covers_every_command() -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    for heading in ("## `cq game move`", "## `cq user ntfy-dm-topic`", "## `cq profile switch`",
                    "## `cq server info`", "## `cq-shell`"):
        assert heading in text


def test_cq_admin_reference_is_current() -> None:
    assert ADMIN_REFERENCE.read_text(encoding="utf-8") == generate_admin(), (
        "docs/cq-admin-reference.md is stale: run python gen_reference.py"
    )


def test_cq_admin_reference_covers_every_command() -> None:
    text = ADMIN_REFERENCE.read_text(encoding="utf-8")
    for heading in ("## `cq-admin`\n", "## `cq-admin login`", "## `cq-admin user delete`",
                    "## `cq-admin game cancel`", "## `cq-admin player remove`",
                    "## `cq-admin server settings`", "## `cq-admin audit`",
                    "## `cq-admin profile switch`"):
        assert heading in text
