"""The templates' environment: the pages' HTML comes from corridorquest/web/templates/.

- Autoescape: every `{{ value }}` is escaped; markup made by our own code (the boards'
  SVG) is passed in as `Markup`, nothing else is trusted.
- StrictUndefined: a name the template uses and the handler did not pass is an error,
  not an empty string.
- A value of None is an error too (`finalize` below), never the text "None" on a page:
  a template says what a missing value shows (`{{ seat["username"] or "" }}`).
- A run of whitespace in a template's own text that holds a line break
  (`LineBreaksDropped`) is dropped where it touches markup: after a tag's `>`, before a
  tag's `<`, beside a `{% ... %}` statement, or all of a text between two of them. So
  templates are written one element per line and the pages come out without whitespace
  between elements; where a space belongs between two elements, it is written on the
  line (`</a> <a href="/tv">`). Between words (prose wrapped over lines, a word and a
  `{{ value }}`) the run is one space, as HTML reads it.

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
# the tokens beside a text that make its edge a word's edge: a `{{ value }}`
_VALUE_EDGES = ("variable_end", "variable_begin")


def _joined(text: str, value_before: bool, value_after: bool) -> str:
    """`text` with each run of whitespace holding a line break dropped, or one space where
    it stands between words (on this text's edges: a `{{ value }}` beside it)."""

    def one(match: re.Match[str]) -> str:
        start, end = match.span()
        if start == 0 and end == len(text):  # all of a text between two `{{ }}`/`{% %}`
            return ""
        markup_before = text[start - 1] == ">" if start else not value_before
        markup_after = text[end] == "<" if end < len(text) else not value_after
        return "" if markup_before or markup_after else " "

    return _LINE_BREAK.sub(one, text)


class LineBreaksDropped(Extension):
    """Drop each run of whitespace holding a line break from the templates' own text where
    it touches markup, one space between words (not in the values they print)."""

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        tokens = list(stream)
        for index, token in enumerate(tokens):
            if token.type == "data":
                before = index > 0 and tokens[index - 1].type in _VALUE_EDGES
                after = index + 1 < len(tokens) and tokens[index + 1].type in _VALUE_EDGES
                yield Token(token.lineno, "data", _joined(token.value, before, after))
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
