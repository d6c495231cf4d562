"""/api-docs (sanic-ext's Swagger UI) and its assets: not to be framed nor sniffed, a
Content-Security-Policy, and the Swagger UI still works under it in chromium; the API's
own answers do not carry (nor pay for) these headers."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.support.server import RunningServer
from tests.web.browser import browser_page, chromium_missing

pytestmark = pytest.mark.backend_neutral  # headers, and the Swagger UI in chromium

DOCS = (
    "/api-docs",
    "/api-docs/swagger",
    "/api-docs/openapi.json",
    "/api-docs/static/swagger-ui-bundle.js",
    "/api-docs/static/swagger-ui-standalone-preset.js",
    "/api-docs/static/swagger-init.js",
    "/api-docs/static/swagger-ui.css",
)


def test_api_docs_and_assets_have_the_security_headers(server: RunningServer) -> None:
    for path in DOCS:
        answer = httpx.get(server.base_url + path, timeout=10)
        assert answer.status_code == 200, (path, answer.status_code)
        assert answer.headers.get("x-frame-options") == "DENY", path
        assert answer.headers.get("x-content-type-options") == "nosniff", path
        policy = answer.headers.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in policy, path
        assert "script-src 'self'" in policy and "unsafe-eval" not in policy, path
    missing = httpx.get(server.base_url + "/api-docs/static/nothing.js", timeout=10)
    assert missing.status_code == 404
    assert missing.headers.get("x-frame-options") == "DENY"


def test_an_api_answer_is_unchanged(server: RunningServer) -> None:
    answer = httpx.get(server.base_url + "/api/v1/server/info", timeout=10)
    assert answer.status_code == 200 and answer.json()
    for name in ("content-security-policy", "x-frame-options", "x-content-type-options",
                 "referrer-policy"):
        assert name not in answer.headers, name


RECORD = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


@pytest.mark.skipif(chromium_missing(), reason="needs /usr/bin/chromium")
def test_swagger_ui_renders_and_tries_an_operation_under_its_policy(
    server: RunningServer,
) -> None:
    with browser_page() as browser:
        page = browser.new_page()
        console: list[str] = []
        page.on("console", lambda message: console.append(message.text))
        page.add_init_script(RECORD)
        page.goto(server.base_url + "/api-docs")
        page.wait_for_selector(".opblock-summary-path", timeout=20_000)
        paths = page.eval_on_selector_all(
            ".opblock-summary-path", "nodes => nodes.map(n => n.textContent)"
        )
        assert "/api/v1/server/info" in [p.replace("\u200b", "") for p in paths]
        # open GET /api/v1/server, "Try it out", "Execute": the answer shows
        opblock = page.locator(".opblock-get", has_text="/api/v1/server/info").first
        opblock.locator(".opblock-summary").click()
        page.locator(".try-out__btn").first.click()
        page.locator(".execute").first.click()
        page.wait_for_selector(".responses-table .response-col_status", timeout=10_000)
        body = page.locator(".live-responses-table .microlight, .live-responses-table pre").first
        assert "version" in body.text_content()
        time.sleep(0.3)  # pacing: the CSP reports that must not come
        violations = page.evaluate("window.cspViolations")
        blocked = [t for t in console if "Content Security Policy" in t]
        assert not violations and not blocked, (violations, blocked)
