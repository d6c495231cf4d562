"""The templates' environment: the pages' HTML comes from corridorquest/web/templates/.

- Autoescape: every `{{ value }}` is escaped; markup made by our own code (the boards'
  SVG) is passed in as `Markup`, nothing else is trusted.
- StrictUndefined: a name the template uses and the handler did not pass is an error,
  not an empty string.
- A value of None is an error too (`finalize` below), never the text "None" on a page:
  a template says what a missing value shows (`{{ seat["username"] or "" }}`).
- A run of whitespace in a template's own text that holds a line break is dropped
  (`LineBreaksDropped`), so templates are written one element per line and the pages
  come out as before, without whitespace between elements; where a space belongs
  between two elements, it is written on the line (`</a> <a href="/tv">`).

The templates live in the package (pyproject.toml's package-data ships `*.html`), so the
wheel and the pyz carry them; they are loaded through the package, not a path.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream

_LINE_BREAK = re.compile(r"\s*\n\s*")


class LineBreaksDropped(Extension):
    """Drop every run of whitespace holding a line break from the templates' own text
    (not from the values they print)."""

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        for token in stream:
            if token.type == "data":
                yield Token(token.lineno, "data", _LINE_BREAK.sub("", token.value))
            else:
                yield token


def _refuse_none(value: Any) -> Any:
    if value is None:
        raise TypeError('a template printed None: say what a missing value shows (`or ""`)')
    return value


environment = Environment(
    loader=PackageLoader("corridorquest.web", "templates"),
    autoescape=True,
    undefined=StrictUndefined,
    finalize=_refuse_none,
    extensions=[LineBreaksDropped],
    keep_trailing_newline=False,
)


def render(template: str, **context: Any) -> str:
    """The HTML of `template` (a file name under templates/) with `context`."""
    return environment.get_template(template).render(**context)
