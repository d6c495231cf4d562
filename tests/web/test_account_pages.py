"""The account pages as a browser sends them (form posts, cookies kept): signup, the
e-mailed code, the login after it, a new code, a forgotten password. Every refusal is
the page again with the service's words and its 4xx status, and changes nothing."""

from __future__ import annotations

import httpx
import pytest

from corridorquest.web.login import safe_next
from tests.support.server import RunningServer
from tests.support.users import CODE_SUBJECTS, DEFAULT_PASSWORD, insert_users, latest_code, mails_to

NEW_PASSWORD = "a much newer secret"
JOIN_LINK = "/games/7?code=k3J9&x=1"  # a private game's join link, where a signup goes on to


def _browser(server: RunningServer) -> httpx.Client:
    return httpx.Client(base_url=server.base_url, timeout=10)


def _me(browser: httpx.Client) -> httpx.Response:
    return browser.get("/api/v1/users/me")  # the session cookie counts for reads


def _signup(browser: httpx.Client, name: str, next_path: str = "/") -> httpx.Response:
    form = {"username": name, "email": f"{name}@example.test", "password": DEFAULT_PASSWORD,
            "next": next_path}
    return browser.post("/signup", data=form)


def _wrong(code: str) -> str:
    return "000000" if code != "000000" else "111111"


def test_signup_then_the_code_logs_the_browser_in_and_goes_on_to_next(
    server: RunningServer,
) -> None:
    with _browser(server) as browser:
        started = _signup(browser, "pia", JOIN_LINK)
        assert started.status_code == 303, started.text
        assert started.headers["location"] == "/verify?next=/games/7%3Fcode%3Dk3J9%26x%3D1"
        page = browser.get(started.headers["location"])
        assert f'name="next" value="{JOIN_LINK.replace("&", "&amp;")}"' in page.text
        assert "pia@example.test" in page.text and 'action="/verify"' in page.text
        code = latest_code(server.mail_dir, "pia@example.test")
        form = {"code": _wrong(code), "password": DEFAULT_PASSWORD, "next": JOIN_LINK}
        wrong = browser.post("/verify", data=form)
        assert wrong.status_code == 422
        assert "wrong verification code (2 attempts left" in wrong.text
        assert _me(browser).status_code == 401  # not logged in
        done = browser.post("/verify", data={**form, "code": code})
        assert done.status_code == 303, done.text
        assert done.headers["location"] == JOIN_LINK
        me = _me(browser)
        assert me.status_code == 200 and me.json()["username"] == "pia"
        assert "cq_signup" not in browser.cookies  # the token is spent: let go
        lobby = browser.get("/")
        assert 'href="/users/pia"' in lobby.text and "log out" in lobby.text


def test_a_refused_signup_says_why_and_creates_nothing(server: RunningServer) -> None:
    insert_users(server.database_url, ["quin"])
    with _browser(server) as browser:
        taken = browser.post("/signup", data={
            "username": "QUIN", "email": "other@example.test", "password": DEFAULT_PASSWORD,
            "next": "/",
        })
        assert taken.status_code == 409
        assert "the username &#39;QUIN&#39; is taken" in taken.text  # the API's message
        assert 'value="other@example.test"' in taken.text  # typed values kept...
        assert DEFAULT_PASSWORD not in taken.text  # ...never the password
        bad = browser.post("/signup", data={
            "username": "9lives", "email": "nine@example.test", "password": DEFAULT_PASSWORD,
        })
        assert bad.status_code == 422 and 'class="problem"' in bad.text
        short = browser.post("/signup", data={
            "username": "rex", "email": "rex@example.test", "password": "short",
        })
        assert short.status_code == 422 and "at least 8" in short.text
        assert "cq_signup" not in browser.cookies
    for address in ("other@example.test", "nine@example.test", "rex@example.test"):
        assert mails_to(server.mail_dir, address) == []  # no code: no account
    assert httpx.get(server.api + "/users/rex").status_code == 404


def test_a_form_from_another_site_is_refused(server: RunningServer) -> None:
    with _browser(server) as browser:
        answer = browser.post(
            "/signup",
            data={"username": "sly", "email": "sly@example.test", "password": DEFAULT_PASSWORD},
            headers={"Sec-Fetch-Site": "cross-site"},
        )
        assert answer.status_code == 403
        assert "only be sent from this site" in answer.text
    assert httpx.get(server.api + "/users/sly").status_code == 404


def test_the_code_page_without_a_signup_and_a_new_code_too_soon(server: RunningServer) -> None:
    with _browser(server) as browser:
        none = browser.post("/verify", data={"code": "123456", "password": DEFAULT_PASSWORD})
        assert none.status_code == 404
        assert "no signup is waiting for its code in this browser" in none.text
        assert _signup(browser, "tia").status_code == 303
        first = latest_code(server.mail_dir, "tia@example.test")
        again = browser.post("/verify/resend", data={"password": DEFAULT_PASSWORD, "next": "/"})
        assert again.status_code == 429  # one code a minute: the API's answer, in words
        assert "ask again in" in again.text
        assert len(mails_to(server.mail_dir, "tia@example.test", CODE_SUBJECTS)) == 1
        done = browser.post("/verify", data={"code": first, "password": DEFAULT_PASSWORD})
        assert done.status_code == 303 and _me(browser).status_code == 200  # still good


def test_a_right_code_with_a_wrong_password_verifies_and_asks_for_the_login(
    server: RunningServer,
) -> None:
    with _browser(server) as browser:
        assert _signup(browser, "uma", "/tv").status_code == 303
        code = latest_code(server.mail_dir, "uma@example.test")
        answer = browser.post("/verify", data={"code": code, "password": "not it!!", "next": "/tv"})
        assert answer.status_code == 401
        assert "Your account uma is verified" in answer.text and 'action="/login"' in answer.text
        assert 'name="next" value="/tv"' in answer.text
        login = browser.post("/login", data={"username": "uma", "password": DEFAULT_PASSWORD,
                                             "next": "/tv"})
        assert login.status_code == 303 and login.headers["location"] == "/tv"


def test_a_forgotten_password_is_reset_by_the_emailed_code(server: RunningServer) -> None:
    insert_users(server.database_url, ["val"])
    with _browser(server) as browser:
        unknown = browser.post("/forgot", data={"username": "nobody", "password": NEW_PASSWORD})
        assert unknown.status_code == 404 and "no user" in unknown.text
        asked = browser.post("/forgot", data={"username": "val", "password": NEW_PASSWORD,
                                              "next": "/leaderboard"})
        assert asked.status_code == 303, asked.text
        assert asked.headers["location"] == "/reset?next=/leaderboard"
        assert "val" in browser.get("/reset").text
        code = latest_code(server.mail_dir, "val@example.test")
        form = {"code": _wrong(code), "password": NEW_PASSWORD, "next": "/leaderboard"}
        wrong = browser.post("/reset", data=form)
        assert wrong.status_code == 422 and "then this request is void" in wrong.text
        old_login = {"username": "val", "password": DEFAULT_PASSWORD}
        with _browser(server) as other:  # the old password still counts
            assert other.post("/login", data=old_login).status_code == 303
        done = browser.post("/reset", data={**form, "code": code})
        assert done.status_code == 303 and done.headers["location"] == "/leaderboard"
        assert _me(browser).json()["username"] == "val"
        assert "cq_reset" not in browser.cookies
    with _browser(server) as other:
        assert other.post("/login", data=old_login).status_code == 401


@pytest.mark.parametrize(
    ("asked", "goes"),
    [("/games/3", "/games/3"), ("//evil.test/x", "/"), ("/\\evil.test", "/"),
     ("https://evil.test", "/"), ("", "/"), ("/a\nb", "/")],
)
def test_next_stays_on_this_server(asked: str, goes: str) -> None:
    assert safe_next(asked) == goes


def test_the_header_offers_sign_up_and_log_in_when_logged_out(server: RunningServer) -> None:
    page = httpx.get(server.base_url + "/", timeout=10)
    assert '<a href="/signup?next=/">Sign up</a> <a href="/login?next=/">Log in</a>' in page.text
    tv = httpx.get(server.base_url + "/tv", timeout=10)  # a page that does not say where
    assert '<a href="/signup">Sign up</a> <a href="/login">Log in</a>' in tv.text


def test_the_account_pages_send_the_pages_policy_and_hold_no_inline_code(
    server: RunningServer,
) -> None:
    for path in ("/signup", "/verify", "/forgot", "/reset", "/web/static/lobby.js"):
        answer = httpx.get(server.base_url + path, timeout=10)
        assert answer.status_code == 200, path
        policy = answer.headers.get("content-security-policy", "")
        assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy, path
        assert answer.headers.get("x-frame-options") == "DENY", path
        if path.endswith(".js"):
            continue
        assert " style=" not in answer.text and " onclick=" not in answer.text, path
        assert "<script>" not in answer.text, path


def test_logging_out_over_plain_http_removes_the_cookie(server: RunningServer) -> None:
    insert_users(server.database_url, ["wes"])
    with _browser(server) as browser:
        login = browser.post("/login", data={"username": "wes", "password": DEFAULT_PASSWORD})
        assert login.status_code == 303
        out = browser.post("/logout")
        assert out.status_code == 303
        removal = [c for c in out.headers.get_list("set-cookie") if c.startswith("cq_session=")]
        assert removal and "Max-Age=0" in removal[0]
        # a browser drops a removal marked Secure that comes over plain HTTP
        assert "secure" not in removal[0].lower()
        assert "cq_session" not in browser.cookies
