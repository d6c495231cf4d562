"""cq against the real server: signup, verify, login, logout, user and profile commands."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from click.testing import Result

from client.profiles import ProfileStore
from tests.client.conftest import make_runner
from tests.support.server import RunningServer, running_server
from tests.support.users import latest_code

pytestmark = pytest.mark.backend_neutral  # cq's output; the server: tests/api on both backends

Cq = Callable[..., Result]
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("server"), MOTD="Welcome, players") as running:
        yield running


@pytest.fixture
def cq(config_dir: Path, server: RunningServer) -> Cq:
    run = make_runner(config_dir)

    def with_server(*args: str, **kwargs: object) -> Result:
        return run(*args, **kwargs)  # type: ignore[arg-type]

    return with_server


def signup_and_verify(cq: Cq, server: RunningServer, name: str, profile: str | None = None,
                      ) -> None:
    extra = ["-P", profile] if profile else []
    email = f"{name}@example.test"
    result = cq("signup", "-s", server.base_url, "-u", name, "-e", email, "-p", PASSWORD,
                "-d", f"{name} the tester", *extra)
    assert result.exit_code == 0, result.output
    assert f"Signed up as {name} on {server.base_url}." in result.output
    code = latest_code(server.mail_dir, email)
    verified = cq("verify", "-c", code, profile=profile)
    assert verified.exit_code == 0, verified.output
    assert verified.output == f"{name} is verified. Log in with: cq login -u {name}\n"


def test_server_info_needs_no_login(cq: Cq, server: RunningServer) -> None:
    result = cq("server", "info", "-s", server.base_url)
    assert result.exit_code == 0, result.output
    assert "Message of the day: Welcome, players" in result.output
    assert "Administrator e-mail: " in result.output
    only_motd = cq("server", "info", "--server-url", server.base_url, "-m")
    assert only_motd.output == "Message of the day: Welcome, players\n"


def test_signup_verify_login_show_logout(cq: Cq, server: RunningServer, config_dir: Path) -> None:
    signup_and_verify(cq, server, "alice")
    before = cq("user", "show")
    assert before.exit_code == 3
    login = cq("login", "-p", PASSWORD)
    assert login.exit_code == 0, login.output
    assert login.output == f"Logged in as alice on {server.base_url}.\n"
    shown = cq("user", "show")
    assert shown.exit_code == 0, shown.output
    assert "Username: alice\nEmail Address: alice@example.test\n" in shown.output
    assert "Description: alice the tester" in shown.output
    assert "Notify on Turn: true\nNotify on Action: false\nNotify on Game: true\n" \
        "Daily digest: false\n" in shown.output
    assert cq("logout").output == "Logged out.\n"
    assert ProfileStore(config_dir).load("default").token is None
    assert cq("user", "show").exit_code == 3
    assert cq("logout").exit_code == 3


def test_login_prompts_for_the_password_without_echo(cq: Cq, server: RunningServer) -> None:
    signup_and_verify(cq, server, "prompty")
    result = cq("login", "-u", "prompty", input=PASSWORD + "\n")
    assert result.exit_code == 0, result.output
    assert PASSWORD not in result.output
    assert "Password: \nLogged in as prompty" in result.output
    cq("logout")


def test_wrong_password_and_active_session_are_auth_errors(cq: Cq, server: RunningServer
                                                           ) -> None:
    signup_and_verify(cq, server, "carl")
    wrong = cq("login", "-p", "not the password")
    assert wrong.exit_code == 3
    assert wrong.stderr == "Error: unknown username or wrong password\n"
    assert cq("login", "-p", PASSWORD).exit_code == 0
    second = cq("login", "-u", "carl", "-p", PASSWORD, "-s", server.base_url, profile="second")
    assert second.exit_code == 3
    assert "--replace" in second.stderr
    replaced = cq("login", "-u", "carl", "-p", PASSWORD, "-s", server.base_url, "--replace",
                  profile="second")
    assert replaced.exit_code == 0, replaced.output
    stale = cq("user", "show")
    assert stale.exit_code == 3
    assert stale.stderr.startswith("Error: ")


def works(server: RunningServer, token: str | None) -> bool:
    """Whether the session of `token` is still open on the server."""
    assert token
    answer = httpx.get(server.base_url + "/api/v1/users/me",
                       headers={"Authorization": f"Bearer {token}"})
    return answer.status_code == 200


def test_logging_in_again_in_the_same_profile_replaces_its_own_session(
    cq: Cq, server: RunningServer, config_dir: Path
) -> None:
    """Issue 25, item 9: the profile holds the session the login would replace, so it is
    not "elsewhere"; a session held by another profile still is."""
    signup_and_verify(cq, server, "ernie")
    assert cq("login", "-p", PASSWORD).exit_code == 0
    first = ProfileStore(config_dir).load().token
    again = cq("login", "-p", PASSWORD)
    assert again.exit_code == 0, again.output
    assert again.output == f"Logged in as ernie on {server.base_url}.\n"
    second = ProfileStore(config_dir).load().token
    assert second != first and works(server, second) and not works(server, first)
    assert cq("user", "show").exit_code == 0
    elsewhere = cq("login", "-u", "ernie", "-p", PASSWORD, "-s", server.base_url,
                   profile="laptop")
    assert elsewhere.exit_code == 3
    assert elsewhere.stderr == ("Error: you are already logged in elsewhere; log in with "
                                "replace to end that session (cq login --replace)\n")
    assert works(server, second)
    cq("logout")


def test_a_profile_that_changes_user_ends_the_session_it_held(
    cq: Cq, server: RunningServer, config_dir: Path
) -> None:
    """A login as another user (or a signup) in a profile that holds a session ends that
    session: it is not left open to make the next login elsewhere "elsewhere"."""
    signup_and_verify(cq, server, "fritz", profile="fritzp")
    signup_and_verify(cq, server, "gwen", profile="gwenp")
    assert cq("login", "-p", PASSWORD, profile="fritzp").exit_code == 0
    fritzs = ProfileStore(config_dir).load("fritzp").token
    switched = cq("login", "-u", "gwen", "-p", PASSWORD, profile="fritzp")
    assert switched.exit_code == 0, switched.output
    assert not works(server, fritzs)
    phone = cq("login", "-u", "fritz", "-p", PASSWORD, "-s", server.base_url, profile="phone")
    assert phone.exit_code == 0, phone.output  # no --replace needed
    fritzs = ProfileStore(config_dir).load("phone").token
    signup = cq("signup", "-u", "hugo", "-e", "hugo@example.test", "-p", PASSWORD,
                profile="phone")
    assert signup.exit_code == 0, signup.output
    assert not works(server, fritzs)
    assert cq("login", "-u", "fritz", "-p", PASSWORD, "-s", server.base_url,
              profile="desk").exit_code == 0


def test_user_settings_commands(cq: Cq, server: RunningServer, config_dir: Path) -> None:
    signup_and_verify(cq, server, "dora")
    assert cq("login", "-p", PASSWORD).exit_code == 0
    assert cq("user", "description", "Dora the explorer").output == (
        "Description of dora is now: Dora the explorer\n")
    assert cq("user", "theme", "light").output == "Theme set to light.\n"
    assert ProfileStore(config_dir).load().theme == "light"
    notify = cq("user", "notify", "-a", "--turn")
    assert notify.output == ("Notify on Turn: false\nNotify on Action: true\n"
                             "Notify on Game: true\nDaily digest: false\n")
    digest = cq("user", "notify", "--digest")
    assert digest.output.endswith("Notify on Game: true\nDaily digest: true\n")
    assert "Daily digest: true" in cq("user", "show").output
    assert cq("user", "notify").exit_code == 2  # nothing to toggle: a usage error
    assert cq("user", "ntfy-dm-topic", "-n", "dora-secret-1").exit_code == 0
    shown = cq("user", "show").output
    assert "Theme: light" in shown and "ntfy DM topic: dora-secret-1" in shown
    public = cq("user", "show", "alice")
    assert public.exit_code == 0 and "Email" not in public.output
    assert "Username: alice" in public.output
    missing = cq("user", "show", "nobody")
    assert missing.exit_code == 4
    assert missing.stderr.startswith("Error: ")
    renamed = cq("user", "username", "dora2")
    assert renamed.output == "Your username is now dora2.\n"
    assert ProfileStore(config_dir).load().username == "dora2"
    bad = cq("user", "username", "9lives")
    assert bad.exit_code == 4
    assert ProfileStore(config_dir).load().username == "dora2"
    botlike = cq("user", "username", "bot-7")  # kept for the server's bots (issue 48 item 21)
    assert botlike.exit_code == 4
    assert "looks like a bot's" in botlike.stderr
    assert ProfileStore(config_dir).load().username == "dora2"
    cq("logout")


def test_email_change_and_password_change_are_verified(cq: Cq, server: RunningServer) -> None:
    signup_and_verify(cq, server, "erin")
    assert cq("login", "-p", PASSWORD).exit_code == 0
    changed = cq("user", "email-address", "erin.new@example.test")
    assert changed.exit_code == 0, changed.output
    code = latest_code(server.mail_dir, "erin.new@example.test")
    wrong_code = "000000" if code != "000000" else "111111"
    assert cq("user", "verify", "-c", wrong_code).stderr == (
        "Error: wrong verification code (2 attempts left before the account is locked)\n")
    assert cq("user", "verify", "-c", code).output == (
        "The e-mail address of erin is changed.\n")
    assert "Email Address: erin.new@example.test" in cq("user", "show").output
    assert cq("logout").exit_code == 0
    new_password = "a much better secret"
    asked = cq("user", "password", new_password, "-u", "erin", "-s", server.base_url)
    assert asked.exit_code == 0, asked.output
    code = latest_code(server.mail_dir, "erin.new@example.test", count=2)
    wrong_code = "000000" if code != "000000" else "111111"
    wrong = cq("verify", "-c", wrong_code)
    assert wrong.exit_code == 4
    # The server's words, once; a password change (anyone may ask) threatens no lock.
    assert wrong.stderr == (
        "Error: wrong verification code (2 attempts left; then this request is void)\n")
    again = cq("verify", "-c", wrong_code)
    assert again.exit_code == 4
    assert again.stderr == (
        "Error: wrong verification code (1 attempt left; then this request is void)\n")
    assert cq("verify", "--code", code).output == "The password of erin is changed.\n"
    assert cq("login", "-p", PASSWORD).exit_code == 3
    assert cq("login", "-p", new_password).exit_code == 0
    cq("logout")


def test_two_users_on_one_machine_with_profiles(cq: Cq, server: RunningServer) -> None:
    signup_and_verify(cq, server, "fred")
    signup_and_verify(cq, server, "gina", profile="gina")
    assert cq("login", "-p", PASSWORD).exit_code == 0
    hinted = cq("login", "-p", PASSWORD, "-P", "gina")
    assert hinted.exit_code == 0, hinted.output
    assert "profile 'gina': run 'cq profile switch gina' or set CQ_PROFILE=gina" in hinted.output
    assert "Username: fred" in cq("user", "show").output
    assert "Username: gina" in cq("user", "show", profile="gina").output
    assert cq("profile", "switch", "gina").exit_code == 0
    assert "Username: gina" in cq("user", "show").output
    assert "Username: fred" in cq("user", "show", profile="default").output
    listed = cq("profile", "list").output
    assert "* gina: gina on" in listed and "  default: fred on" in listed


def test_expired_session_says_so(cq: Cq, server: RunningServer) -> None:
    from corridorquest.store import Store
    from corridorquest.store.models import Session, User, utcnow

    signup_and_verify(cq, server, "hank")
    assert cq("login", "-p", PASSWORD).exit_code == 0
    store = Store.open(server.database_url, pool_size=1, migrate=False)
    try:
        def expire() -> None:
            hank = User.get(User.username == "hank")
            Session.update(expires_at=utcnow() - timedelta(minutes=1)).where(
                Session.user == hank).execute()

        store.run(expire)
    finally:
        store.close()
    result = cq("user", "show")
    assert result.exit_code == 3
    assert result.stderr == "Error: your session expired; log in again (run 'cq login')\n"


def test_a_signup_with_a_bots_name_is_refused_and_says_why(
    cq: Cq, server: RunningServer
) -> None:
    refused = cq("signup", "-s", server.base_url, "-u", "Bot_3", "-e", "b3@example.test",
                 "-p", PASSWORD)
    assert refused.exit_code != 0
    assert "the username 'Bot_3' looks like a bot's" in refused.stderr
    assert httpx.get(f"{server.api}/users/Bot_3").status_code == 404
