"""The templates' environment (corridorquest/web/templating.py): every template loads
from the package, values are escaped, and a missing value is an error rather than the
text "None" or nothing on a page."""

from __future__ import annotations

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
