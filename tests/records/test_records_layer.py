"""The records package is pure: it imports nothing of ours but the engine."""

from __future__ import annotations

import sys

from tests.support.import_graph import imported_modules


def test_records_import_only_the_engine_and_the_standard_library() -> None:
    modules = imported_modules("corridorquest.records")
    assert modules
    for module, names in modules.items():
        for name in names:
            top = name.split(".")[0]
            assert name.startswith(("corridorquest.engine", "corridorquest.records")) or (
                top in sys.stdlib_module_names and top != "corridorquest"
            ), f"{module} imports {name}"
