"""The layers call only the layer below them (ARCHITECTURE.md): checked by walking the imports.

Each "never" of the layering is a test of its own, so that a broken rule names itself.
Most read the import graph of our three packages (`import_graph`): every import
statement anywhere in a module (inside functions and `if TYPE_CHECKING:` blocks too),
relative ones resolved, each pointing at the module of ours it names.
"""

from __future__ import annotations

import ast

from tests.support.import_graph import (
    ROOT,
    _trees,
    _within,
    arrows_from,
    broken,
    circles,
    import_graph,
    imported_modules,
)

SERVER_ROOMS_ABOVE_THE_SERVICES = ("api", "web", "live", "notify", "scheduler", "bot_play")


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


# --- the nevers ---------------------------------------------------------------------------


def test_the_import_graph_sees_our_modules_and_their_imports() -> None:
    graph = import_graph()
    assert "corridorquest.store.models" in graph["corridorquest.store.check"]
    assert "corridorquest.engine" in graph["client.legal"]
    assert {"client", "admin", "corridorquest.engine"} <= set(graph)


def test_engine_imports_nothing_of_ours() -> None:
    problems = [
        f"{module} imports {target}"
        for module, target in arrows_from(["corridorquest.engine"])
        if not _within(target, ["corridorquest.engine"])
    ]
    assert not problems, "\n".join(problems)


def test_store_imports_no_service_api_web_live_notify_or_scheduler() -> None:
    rooms = ("services", *SERVER_ROOMS_ABOVE_THE_SERVICES)
    problems = broken(["corridorquest.store"], [f"corridorquest.{room}" for room in rooms])
    assert not problems, "\n".join(problems)


def test_services_import_no_api_web_live_notify_or_scheduler() -> None:
    # Holds today without exceptions (no allow-list): the services publish events
    # (corridorquest.events) and live/notify subscribe to them.
    problems = broken(
        ["corridorquest.services"],
        [f"corridorquest.{room}" for room in SERVER_ROOMS_ABOVE_THE_SERVICES],
    )
    assert not problems, "\n".join(problems)


def test_security_imports_no_services_nor_anything_above_them() -> None:
    rooms = ("services", *SERVER_ROOMS_ABOVE_THE_SERVICES)
    problems = broken(["corridorquest.security"], [f"corridorquest.{room}" for room in rooms])
    assert not problems, "\n".join(problems)


def test_clients_import_nothing_of_the_server_but_the_engine() -> None:
    # Holds today without exceptions (no allow-list): cq, cq-shell and cq-admin talk
    # HTTP; the engine (pure rules) draws boards and lists legal moves.
    problems = [
        f"{module} imports {target}"
        for module, target in arrows_from(["client", "admin"])
        if _within(target, ["corridorquest"]) and not _within(target, ["corridorquest.engine"])
    ]
    assert not problems, "\n".join(problems)


def test_the_player_client_imports_nothing_of_the_admin_tool() -> None:
    problems = broken(["client"], ["admin"])
    assert not problems, "\n".join(problems)


# What the cq command modules share: imported by them, importing none of them.
CQ_COMMAND_HELPERS = ("options", "game_group", "sessions")


def test_no_cq_command_module_imports_another() -> None:
    helpers = [f"client.commands.{name}" for name in CQ_COMMAND_HELPERS]
    commands = [
        module for module in import_graph()
        if _within(module, ["client.commands"]) and module != "client.commands"
        and module not in helpers
    ]
    assert "client.commands.game" in commands and "client.commands.watch" in commands
    problems = broken(commands, commands) + broken(helpers, commands)
    assert not problems, "\n".join(problems)

def test_no_circles_among_our_modules() -> None:
    found = circles(import_graph())
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {
        "a": frozenset({"b"}),
        "b": frozenset({"c"}),
        "c": frozenset({"a", "d"}),
        "d": frozenset(),
        "e": frozenset({"e"}),
    }
    assert circles(graph) == [["a", "b", "c"]]



def _event_classes_declared(package: str = "corridorquest") -> dict[str, str]:
    """Class name -> module path, for every class of `package` that subclasses `Event`
    (directly or through another event class), read from the source."""
    trees = {
        str(path.relative_to(ROOT)): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted((ROOT / package).rglob("*.py"))
    }
    found: dict[str, str] = {}
    names = {"Event"}
    grew = True
    while grew:
        grew = False
        for module, tree in trees.items():
            for node in ast.walk(tree):
                if not isinstance(node, ast.ClassDef) or node.name in found:
                    continue
                bases = {
                    base.id if isinstance(base, ast.Name) else getattr(base, "attr", "")
                    for base in node.bases
                }
                if bases & names:
                    found[node.name] = module
                    names.add(node.name)
                    grew = True
    return found


def test_every_event_is_declared_in_the_events_module_and_notify_and_live_take_it_there() -> None:
    import importlib

    from corridorquest import events

    declared = _event_classes_declared()
    assert "ActionPlayed" in declared and "SessionsEnded" in declared
    elsewhere = [f"{module}: {name}" for name, module in declared.items()
                 if module != "corridorquest/events.py"]
    assert not elsewhere, "events declared outside events.py:\n" + "\n".join(elsewhere)
    missing = [name for name in declared if name != "Event" and not hasattr(events, name)]
    assert not missing, f"not importable from corridorquest.events: {missing}"

    # notify and live take no event class from the services: what they import from
    # corridorquest.services is use cases, views and helpers (context, errors, presence,
    # live_views, session_ends.session_key_of, ...), never a subclass of Event.
    problems = []
    for package in ("corridorquest.notify", "corridorquest.live"):
        for module, tree in _trees(package):
            for node in ast.walk(tree):
                if not (isinstance(node, ast.ImportFrom) and node.module
                        and node.module.startswith("corridorquest.services")):
                    continue
                source = importlib.import_module(node.module)
                for alias in node.names:
                    value = getattr(source, alias.name, None)
                    if isinstance(value, type) and issubclass(value, events.Event):
                        problems.append(f"{module} imports {alias.name} from {node.module}")
                    if alias.name in declared:  # by name too (a module attribute)
                        problems.append(f"{module} imports {alias.name} from {node.module}")
            for node in ast.walk(tree):  # `live_views.MessagePosted` through a module
                if isinstance(node, ast.Attribute) and node.attr in declared and not (
                    isinstance(node.value, ast.Name) and node.value.id == "events"
                ):
                    problems.append(f"{module} uses {ast.unparse(node)}")
    assert not problems, "\n".join(sorted(set(problems)))


# --- the composition and the rooms above the services (issue 26, item 4) -----------------
# corridorquest/composition builds the server: it alone imports api, web and the side
# rooms together. Below it, api and web are two doors that know nothing of each other,
# the side rooms know neither door, and what several rooms share lives in a neutral
# module (json_encoding.py, drawing/, callers.py, events.py).

COMPOSITION = "corridorquest.composition"
SIDE_ROOMS = ("corridorquest.notify", "corridorquest.scheduler", "corridorquest.live")


def test_api_and_web_import_no_store() -> None:
    problems = broken(["corridorquest.api", "corridorquest.web"], ["corridorquest.store"])
    assert not problems, "\n".join(problems)


def test_api_imports_no_web() -> None:
    problems = broken(["corridorquest.api"], ["corridorquest.web"])
    assert not problems, "\n".join(problems)


def test_web_imports_no_api() -> None:
    problems = broken(["corridorquest.web"], ["corridorquest.api"])
    assert not problems, "\n".join(problems)


def test_live_imports_no_api() -> None:
    problems = broken(["corridorquest.live"], ["corridorquest.api"])
    assert not problems, "\n".join(problems)


def test_side_rooms_import_neither_api_nor_web() -> None:
    problems = broken(SIDE_ROOMS, ["corridorquest.api", "corridorquest.web"])
    assert not problems, "\n".join(problems)


def test_the_shared_pieces_import_nothing_above_the_engine() -> None:
    # the board drawing (api's board.svg and web's pages) and the JSON encoder (api's
    # answers and live's events): a plain dict in, text out
    problems = [
        f"{module} imports {target}"
        for module, target in arrows_from(["corridorquest.drawing", "corridorquest.json_encoding"])
        if not _within(target, ["corridorquest.drawing", "corridorquest.engine"])
    ]
    assert not problems, "\n".join(problems)


def test_only_the_composition_imports_api_web_and_the_side_rooms_together() -> None:
    rooms = ("corridorquest.api", "corridorquest.web", *SIDE_ROOMS)
    assert set(rooms) <= {
        room for room in rooms if broken([COMPOSITION], [room])
    }, "the composition no longer imports every room it wires"
    problems = []
    for module, targets in sorted(import_graph().items()):
        if _within(module, [COMPOSITION]):
            continue
        reached = {room for room in rooms for target in targets if _within(target, [room])}
        if {"corridorquest.api", "corridorquest.web"} <= reached:
            problems.append(f"{module} imports both api and web")
        if set(rooms) <= reached:
            problems.append(f"{module} imports every room")
    assert not problems, "\n".join(problems)


def test_only_the_serve_command_imports_the_composition() -> None:
    problems = [
        f"{module} imports {target}"
        for module, target in arrows_from(["corridorquest", "client", "admin"])
        if _within(target, [COMPOSITION]) and not _within(module, [COMPOSITION])
        and module != "corridorquest.server_cli"
    ]
    assert not problems, "\n".join(problems)


# --- use cases read as rules (issue 26) ---------------------------------------------------

# The services that implement rules. They receive the loaded game from the unit of work
# (services/unit_of_work.py) and return their answer and events.
USE_CASE_MODULES = (
    "corridorquest.services.play",
    "corridorquest.services.trading",
    "corridorquest.services.markers",
    "corridorquest.services.stalls",
    "corridorquest.services.games",
    "corridorquest.services.admin_games",
)
# What this process remembers of its games, and the fast paths under it: only the unit
# of work, game_access (loading) and the views may use them.
CACHE_MODULES = (
    "corridorquest.services.last_commit",
    "corridorquest.services.state_cache",
    "corridorquest.services.game_cache",
    "corridorquest.services.view_cache",
    "corridorquest.store.fast",
    "corridorquest.store.transaction_memo",
)


def test_use_cases_import_no_cache_module() -> None:
    graph = import_graph()
    for module in USE_CASE_MODULES:
        assert module in graph, f"{module} is gone: update USE_CASE_MODULES"
    problems = broken(list(USE_CASE_MODULES), list(CACHE_MODULES))
    assert not problems, "\n".join(problems)


def test_no_service_passes_an_http_route_as_a_scope() -> None:
    """Services name use cases ("play game 12"), never routes ("POST /games/12/actions"):
    a route string is the API's business."""
    import re

    route = re.compile(r"""["'](GET|POST|PUT|PATCH|DELETE) /""")
    problems = []
    for path in sorted((ROOT / "corridorquest" / "services").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if route.search(line):
                problems.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not problems, "\n".join(problems)
