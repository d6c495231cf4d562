"""Every endpoint the server serves is described in docs/api.md (ARCHITECTURE habit 6)."""

from __future__ import annotations

import re
from pathlib import Path

from corridorquest.composition import create_app
from corridorquest.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTED = re.compile(r"`(GET|POST|PUT|PATCH|DELETE) (/[^`?\s]*)")


def _normalise(path: str) -> str:
    path = re.sub(r"<[^>]+>", "{}", path)
    return re.sub(r"\{[^}]*\}", "{}", path).rstrip("/")


def served_endpoints(tmp_path: Path) -> set[tuple[str, str]]:
    settings = Settings.from_env(
        overrides={"DATABASE_URL": f"sqlite:///{tmp_path}/unused.db", "DATA_DIR": str(tmp_path)},
        environ={},
    )
    app = create_app(settings)
    found = set()
    for route in app.router.routes:
        path = "/" + route.path
        if not path.startswith("/api/v1/"):
            continue
        for method in route.methods - {"HEAD", "OPTIONS"}:
            found.add((method, _normalise(path.removeprefix("/api/v1"))))
    return found


def documented_endpoints() -> set[tuple[str, str]]:
    text = (ROOT / "docs/api.md").read_text(encoding="utf-8")
    return {(method, _normalise(path)) for method, path in DOCUMENTED.findall(text)}


def test_every_served_endpoint_is_in_the_api_docs(tmp_path: Path) -> None:
    served = served_endpoints(tmp_path)
    assert ("POST", "/games/{}/actions") in served  # the walk over the routes works
    missing = sorted(served - documented_endpoints())
    assert not missing, f"endpoints missing from docs/api.md: {missing}"


def test_the_api_docs_describe_no_endpoint_that_does_not_exist(tmp_path: Path) -> None:
    extra = sorted(documented_endpoints() - served_endpoints(tmp_path))
    assert not extra, f"docs/api.md describes endpoints the server does not serve: {extra}"
