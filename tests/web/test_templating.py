"""The templates' environment (corridorquest/web/templating.py): every template loads
from the package, values are escaped, and a missing value is an error rather than the
text "None" or nothing on a page."""

from __future__ import annotations

import re

import pytest
from jinja2 import UndefinedError
from markupsafe import Markup

from corridorquest.web.templating import environment, render


def test_every_template_loads_from_the_package() -> None:
    names = environment.list_templates()
    assert "base.html" in names and "game_live.html" in names
    for name in names:
        environment.get_template(name)


def test_values_are_escaped_and_markup_of_our_own_is_not() -> None:
    page = environment.from_string("<p>{{ text }}</p>{{ svg }}").render(
        text="<script>x</script> & \"q\"", svg=Markup("<svg></svg>")
    )
    assert page == "<p>&lt;script&gt;x&lt;/script&gt; &amp; &#34;q&#34;</p><svg></svg>"


def test_a_template_printing_none_fails_instead_of_showing_it() -> None:
    with pytest.raises(TypeError, match="printed None"):
        environment.from_string("<p>{{ owner }}</p>").render(owner=None)
    assert environment.from_string('<p>{{ owner or "someone" }}</p>').render(owner=None) == (
        "<p>someone</p>"
    )


def test_a_name_the_handler_did_not_pass_fails() -> None:
    with pytest.raises(UndefinedError):
        render("problem_text.html")


def test_line_breaks_of_the_template_text_are_dropped_spaces_on_a_line_kept() -> None:
    template = environment.from_string("<ul>\n  <li>a</li> <li>{{ b }}</li>\n</ul>\n")
    assert template.render(b="x\ny") == "<ul><li>a</li> <li>x\ny</li></ul>"


def test_prose_wrapped_over_lines_keeps_a_space_between_its_words() -> None:
    template = environment.from_string(
        "<p>\n  A guest has no password:\n  once you log out, {{ name }}\n  goes.\n"
        "  {% if name %}\n  <b>x</b>\n  {% endif %}\n</p>\n"
    )
    assert template.render(name="Zoe") == (
        "<p>A guest has no password: once you log out, Zoe goes.<b>x</b></p>"
    )


def test_no_template_runs_the_words_of_its_wrapped_prose_together() -> None:
    """In every template, two words on either side of a line break of its text come out
    with one space between them (the guest log-out page read "password:once")."""
    wrapped = re.compile(r"(\S+)[ \t]*\n\s*(\S+)")
    checked = 0
    loader = environment.loader
    assert loader is not None
    for name in environment.list_templates():
        source = loader.get_source(environment, name)[0]
        raw = [t.value for t in environment.lexer.tokenize(source, name) if t.type == "data"]
        built = [t.value for t in environment._tokenize(source, name) if t.type == "data"]
        assert len(raw) == len(built), name
        for text, out in zip(raw, built, strict=True):
            for match in wrapped.finditer(text):
                before, after = match.groups()
                if before.endswith(">") or after.startswith("<"):
                    continue  # between elements: dropped, as intended
                assert f"{before} {after}" in out, f"{name}: {before!r} and {after!r} joined"
                checked += 1
    assert checked >= 3  # the guest log-out page's paragraph at least
