"""Profiles: files in the config directory, private, selected by switch or CQ_PROFILE."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from client.errors import CqError
from client.profiles import DEFAULT_SERVER_URL, Profile, ProfileStore

pytestmark = pytest.mark.backend_neutral  # no database: profile files


def test_a_missing_profile_is_a_fresh_default(config_dir: Path) -> None:
    store = ProfileStore()
    profile = store.load()
    assert profile.name == "default"
    assert profile.server_url == DEFAULT_SERVER_URL
    assert profile.token is None
    assert store.names() == []


def test_saved_profile_round_trips_and_is_private(config_dir: Path) -> None:
    store = ProfileStore()
    store.save(Profile(name="work", server_url="http://h:1", username="alice", token="t",
                       verification_token="v", verification_purpose="signup", theme="light"))
    path = config_dir / "profiles" / "work.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    loaded = store.load("work")
    assert (loaded.username, loaded.token, loaded.verification_token, loaded.theme) == (
        "alice", "t", "v", "light")
    assert store.names() == ["work"]


def test_switch_is_permanent_and_cq_profile_wins_for_one_command(
    config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ProfileStore()
    store.save(Profile(name="a"))
    store.save(Profile(name="b"))
    assert store.current_name() == "default"
    store.switch("b")
    assert ProfileStore().current_name() == "b"
    monkeypatch.setenv("CQ_PROFILE", "a")
    assert ProfileStore().current_name() == "a"
    assert ProfileStore().switched_name() == "b"


def test_switch_to_unknown_profile_is_refused_and_changes_nothing(config_dir: Path) -> None:
    store = ProfileStore()
    store.save(Profile(name="a"))
    with pytest.raises(CqError, match="no profile named 'zz'"):
        store.switch("zz")
    assert store.current_name() == "default"


@pytest.mark.parametrize("name", ["../evil", "", "a/b", "-x", "x" * 41, "home\n", "home\n.json"])
def test_profile_names_must_be_plain_file_names(config_dir: Path, name: str) -> None:
    with pytest.raises(CqError, match="not a valid profile name"):
        ProfileStore().path(name)
