"""The web pages call the services, never the api's modules (issue 26: arrows that run
one way); what both need of a request (who calls, from where) is in corridorquest/callers.py."""

from __future__ import annotations

from tests.support.import_graph import imported_modules


def test_web_imports_nothing_of_the_api() -> None:
    modules = imported_modules("corridorquest.web")
    assert modules, "the web package has no modules"
    for module, names in modules.items():
        for name in names:
            assert not name.startswith("corridorquest.api"), f"{module} imports {name}"


def test_web_imports_no_store() -> None:
    for module, names in imported_modules("corridorquest.web").items():
        for name in names:
            assert not name.startswith("corridorquest.store"), f"{module} imports {name}"
            assert name.split(".")[0] != "peewee", f"{module} imports {name}"
