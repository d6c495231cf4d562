"""The layers call only the layer below them (ARCHITECTURE.md): checked by walking the imports."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(package: str) -> dict[str, set[str]]:
    """module path -> names of the modules it imports (absolute form)."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
        found[str(path.relative_to(ROOT))] = names
    return found


def test_engine_imports_nothing_outside_itself_and_the_standard_library() -> None:
    import sys

    allowed_stdlib = sys.stdlib_module_names
    for module, names in imported_modules("corridorquest.engine").items():
        for name in names:
            top = name.split(".")[0]
            assert name.startswith("corridorquest.engine") or (
                top in allowed_stdlib and top != "corridorquest"
            ), f"{module} imports {name}"


def test_api_never_imports_the_store_or_peewee() -> None:
    modules = imported_modules("corridorquest.api")
    assert modules, "the api package has no modules"
    for module, names in modules.items():
        for name in names:
            assert not name.startswith("corridorquest.store"), f"{module} imports {name}"
            assert name.split(".")[0] != "peewee", f"{module} imports {name}"


def test_only_the_store_imports_peewee() -> None:
    for module, names in imported_modules("corridorquest").items():
        if module.startswith("corridorquest/store/"):
            continue
        assert "peewee" not in {name.split(".")[0] for name in names}, f"{module} imports peewee"


def test_clients_talk_http_only_and_never_import_server_code() -> None:
    for package in ("client", "admin"):
        assert imported_modules(package), f"the {package} package has no modules"
        for module, names in imported_modules(package).items():
            for name in names:
                if name.startswith("corridorquest"):
                    assert name.startswith("corridorquest.engine"), f"{module} imports {name}"


def test_bots_import_nothing_of_ours_but_the_engine() -> None:
    import sys

    modules = imported_modules("corridorquest.bots")
    assert modules, "the bots package has no modules"
    for module, names in modules.items():
        for name in names:
            top = name.split(".")[0]
            assert name.startswith(("corridorquest.engine", "corridorquest.bots")) or (
                top in sys.stdlib_module_names and top != "corridorquest"
            ), f"{module} imports {name}"
