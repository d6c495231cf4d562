"""How ``cq-admin`` prints: ``--json`` (the server's answer, for scripts) or text."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def json_option(function: F) -> F:
    """``--json``: print the server's answer as JSON instead of text."""
    return click.option("--json", "as_json", is_flag=True,
                        help="Print the server's answer as JSON (for scripts)")(function)


def emit(data: Any, as_json: bool, text: Callable[[], str]) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=True) if as_json else text())


def table(header: Sequence[str], rows: Sequence[Sequence[Any]], empty: str) -> str:
    """Left-aligned columns, two spaces apart."""
    if not rows:
        return empty
    cells = [list(header)] + [["" if c is None else str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in cells
    )


def yes(value: Any) -> str:
    return "yes" if value else "no"
