"""Tokens and codes: random, stored only as digests, codes bound to their token."""

from __future__ import annotations

import asyncio

from corridorquest.security.passwords import (
    hash_password,
    needs_rehash,
    verify_password,
    verify_password_sync,
)
from corridorquest.security.tokens import (
    code_matches,
    hash_code,
    hash_token,
    new_code,
    new_password,
    new_token,
)


def test_tokens_are_long_random_and_their_digest_is_stable() -> None:
    tokens = {new_token() for _ in range(100)}
    assert len(tokens) == 100
    token = tokens.pop()
    assert len(token) >= 40
    assert hash_token(token) == hash_token(token) != token
    assert hash_token(token) != hash_token(token + "x")


def test_codes_are_six_digits_and_only_match_with_their_token() -> None:
    codes = [new_code() for _ in range(200)]
    assert all(len(c) == 6 and c.isdigit() for c in codes)
    assert len(set(codes)) > 150
    token, other_token = new_token(), new_token()
    digest = hash_code("012345", token)
    assert code_matches("012345", token, digest)
    assert code_matches(" 012345 ", token, digest)
    assert not code_matches("012346", token, digest)
    assert not code_matches("012345", other_token, digest)


def test_generated_passwords_are_long_enough_to_be_accepted() -> None:
    assert len(new_password()) == 20 and new_password() != new_password()


def test_argon2id_hash_verifies_only_the_right_password() -> None:
    async def scenario() -> tuple[str, bool, bool]:
        stored = await hash_password("correct horse")
        return (
            stored,
            await verify_password(stored, "correct horse"),
            await verify_password(stored, "wrong horse"),
        )

    stored, right, wrong = asyncio.run(scenario())
    assert stored.startswith("$argon2id$")
    assert (right, wrong) == (True, False)
    assert not needs_rehash(stored)


def test_a_malformed_stored_hash_never_matches() -> None:
    assert verify_password_sync("not-a-hash", "anything") is False
    assert needs_rehash("not-a-hash") is True
