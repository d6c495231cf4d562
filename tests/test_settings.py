"""Settings: one table, read from the environment and dotenv files, documented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from corridorquest.settings import Settings, SettingsError

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "corridorquest.env.example"


def test_every_setting_is_listed_in_the_env_example() -> None:
    listed = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", EXAMPLE.read_text(), re.MULTILINE))
    missing = [name for name in Settings.env_names() if name not in listed]
    assert missing == [], f"add these to docs/corridorquest.env.example: {missing}"
    unknown = sorted(listed - set(Settings.env_names()))
    assert unknown == [], f"docs/corridorquest.env.example lists unknown settings: {unknown}"


def test_every_setting_has_help_text() -> None:
    assert all(field.description for field in Settings.model_fields.values())


def test_defaults_put_the_sqlite_database_in_the_data_dir(tmp_path: Path) -> None:
    settings = Settings.from_env(environ={"DATA_DIR": str(tmp_path)})
    assert settings.database_url == f"sqlite:///{tmp_path}/corridorquest.db"
    assert settings.port == 3000 and settings.host == "0.0.0.0"
    assert settings.message_limit == 100 and settings.email_backend == "console"


def test_environment_wins_over_env_file_and_overrides_win_over_both(tmp_path: Path) -> None:
    env_file = tmp_path / "server.env"
    env_file.write_text("PORT=4000\nMOTD=from the file\nSTALL_TIMEOUT=10m\n")
    settings = Settings.from_env(env_file, environ={"PORT": "5000"})
    assert (settings.port, settings.motd, settings.stall_timeout) == (5000, "from the file", 600)
    settings = Settings.from_env(env_file, overrides={"PORT": 6000}, environ={"PORT": "5000"})
    assert settings.port == 6000


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        ({"PORT": "three thousand"}, "PORT"),
        ({"EMAIL_BACKEND": "pigeon"}, "EMAIL_BACKEND"),
        ({"STALL_TIMEOUT": "soon"}, "STALL_TIMEOUT"),
        ({"REQUIRE_HTTPS": "perhaps"}, "REQUIRE_HTTPS"),
        ({"PUBLIC_URL": "cq.example.org"}, "PUBLIC_URL"),
        ({"PUBLIC_URL": "ftp://cq.example.org"}, "PUBLIC_URL"),
        ({"PUBLIC_URL": "https://cq.example.org/?x=1"}, "PUBLIC_URL"),
        ({"PUBLIC_URL": "https://cq.exämple.org"}, "PUBLIC_URL"),
    ],
)
def test_invalid_values_are_refused_naming_the_variable(
    environ: dict[str, str], named: str
) -> None:
    with pytest.raises(SettingsError, match=named):
        Settings.from_env(environ=environ)


def test_public_url_is_kept_without_its_trailing_slash() -> None:
    assert Settings.from_env(environ={}).public_url is None
    for given in ("https://cq.example.org/", " https://cq.example.org "):
        assert Settings.from_env(environ={"PUBLIC_URL": given}).public_url == (
            "https://cq.example.org"
        )
    with_path = Settings.from_env(environ={"PUBLIC_URL": "http://10.0.0.5:3000/cq/"})
    assert with_path.public_url == "http://10.0.0.5:3000/cq"


def test_missing_env_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="does not exist"):
        Settings.from_env(tmp_path / "nope.env", environ={})


def test_settings_are_immutable() -> None:
    settings = Settings.from_env(environ={})
    with pytest.raises(ValueError):
        settings.port = 1  # type: ignore[misc]


def test_an_empty_or_lower_case_variable_is_not_a_setting() -> None:
    settings = Settings.from_env(environ={"PORT": "", "motd": "lower case", "HOST": ""})
    assert (settings.port, settings.host, settings.motd) == (3000, "0.0.0.0", None)


def test_the_env_file_may_hold_other_variables(tmp_path: Path) -> None:
    env_file = tmp_path / "server.env"
    env_file.write_text(
        "# shared with another tool\nOTHER_TOOL_TOKEN=abc\nRELAY=mx.example.org\n"
        "SMTP_HOST=${RELAY}\nport=4000\nMOTD=\nSMTP_USER\n"
    )
    settings = Settings.from_env(env_file, environ={})
    assert settings.smtp_host == "mx.example.org"
    assert (settings.port, settings.motd, settings.smtp_user) == (3000, None, None)


def test_bad_values_make_one_line_naming_each_variable() -> None:
    with pytest.raises(SettingsError) as refused:
        Settings.from_env(environ={"PORT": "x", "STALL_TIMEOUT": "soon", "HOST": "::1"})
    message = str(refused.value)
    assert "\n" not in message and message.startswith("invalid setting: PORT: ")
    assert message.endswith(
        "; STALL_TIMEOUT: Value error, 'soon' is not a duration (examples: 90, 30m, 12h, 2d)"
    )


def test_overrides_name_settings_only() -> None:
    with pytest.raises(SettingsError, match="unknown setting 'PORTS'"):
        Settings.from_env(environ={}, overrides={"PORTS": 1})
    assert Settings.from_env(environ={"PORT": "5000"}, overrides={"port": 1}).port == 1


def test_settings_made_in_code_read_no_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PORT", "1234")
    monkeypatch.setenv("MOTD", "from the environment")
    settings = Settings(data_dir=str(tmp_path))
    assert (settings.port, settings.motd) == (3000, None)
    assert settings.mail_dir == str(tmp_path / "mail")
    assert Settings.from_env().port == 1234  # from_env reads the process environment
    with pytest.raises(ValueError):
        Settings(PORT=1)  # type: ignore[call-arg]
