"""Password hashing with argon2id, run off the event loop.

An argon2id hash or verify costs about 0.1 s of CPU on purpose; running it on the event
loop would stall every other request. The server runs the `*_sync` functions through
`ServiceContext.password_work`, a bounded pool of their own (security/hashing_pool.py);
the async helpers at the end use the loop's default executor, for scripts and tests only.
"""

from __future__ import annotations

import asyncio
import functools

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_HASHER = PasswordHasher(type=Type.ID)


def hash_password_sync(password: str) -> str:
    """The argon2id hash string (with its salt and parameters) of ``password``."""
    return _HASHER.hash(password)


def verify_password_sync(stored_hash: str, password: str) -> bool:
    """Whether ``password`` matches ``stored_hash``; a malformed hash never matches."""
    try:
        return _HASHER.verify(stored_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def check_login_password(stored_hash: str | None, password: str) -> bool:
    """Whether ``password`` matches ``stored_hash``; with no hash (an unknown username) the
    password is checked against a dummy hash and never matches, so that the answer takes
    as long as for a known user (no telling which usernames exist by timing)."""
    matches = verify_password_sync(stored_hash or dummy_hash(), password)
    return matches and bool(stored_hash)


def needs_rehash(stored_hash: str) -> bool:
    """Whether the hash was made with weaker parameters than the current ones."""
    try:
        return _HASHER.check_needs_rehash(stored_hash)
    except InvalidHashError:
        return True


async def hash_password(password: str) -> str:
    """:func:`hash_password_sync` in the loop's default executor (not for the server)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, hash_password_sync, password)


async def verify_password(stored_hash: str, password: str) -> bool:
    """:func:`verify_password_sync` in the loop's default executor (not for the server)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, verify_password_sync, stored_hash, password)


@functools.cache
def dummy_hash() -> str:
    """A hash to verify against when the username is unknown, so that a login for an
    unknown user costs as much time as one with a wrong password."""
    return hash_password_sync("corridorquest-dummy-password")
