"""Password hashing with argon2id, run off the event loop.

An argon2id hash or verify costs about 0.1 s of CPU on purpose; running it on the event
loop would stall every other request. The server runs the `*_sync` functions through
`ServiceContext.password_work`, a bounded pool of their own (security/hashing_pool.py);
the async helpers at the end use the loop's default executor, for scripts and tests only.

The parameters come from the settings (PASSWORD_HASH_TIME_COST, PASSWORD_HASH_MEMORY_KIB,
PASSWORD_HASH_PARALLELISM; defaults: argon2-cffi's, RFC 9106's low-memory profile):
`ServiceContext.open` calls `configure` once per process. Tests run with the lowest
parameters argon2 allows (`TEST_PARAMETERS`). A server whose parameters are not that weak
(every real server: memory of at least `WEAK_MEMORY_KIB`) refuses a stored hash made with
weaker memory than that: a test database's hashes never open accounts in production.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from argon2 import PasswordHasher, Type, extract_parameters
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

log = logging.getLogger(__name__)

# OWASP's smallest argon2id configuration uses 7 MiB (with 5 passes); a hash made with
# less memory than this is a test hash, never accepted by a server configured above it.
WEAK_MEMORY_KIB = 7168


@dataclass(frozen=True)
class HashParameters:
    time_cost: int = 3
    memory_kib: int = 65536
    parallelism: int = 4

    @property
    def production(self) -> bool:
        """Whether these are real parameters (not the tests' cheap ones)."""
        return self.memory_kib >= WEAK_MEMORY_KIB


PRODUCTION_DEFAULTS = HashParameters()
# argon2's minimums: one pass, 8 KiB per lane, one lane (about 20 µs a hash)
TEST_PARAMETERS = HashParameters(time_cost=1, memory_kib=8, parallelism=1)


class _Hashing:
    """The process's parameters, hasher and dummy hash (replaced together by configure)."""

    def __init__(self, parameters: HashParameters) -> None:
        self.parameters = parameters
        self.hasher = PasswordHasher(
            time_cost=parameters.time_cost,
            memory_cost=parameters.memory_kib,
            parallelism=parameters.parallelism,
            type=Type.ID,
        )
        self._dummy: str | None = None

    def dummy(self) -> str:
        if self._dummy is None:
            self._dummy = self.hasher.hash("corridorquest-dummy-password")
        return self._dummy


_current = _Hashing(PRODUCTION_DEFAULTS)


def configure(parameters: HashParameters) -> None:
    """Hash with `parameters` from now on in this process (the server: from its settings)."""
    global _current
    if parameters != _current.parameters:
        _current = _Hashing(parameters)


def current_parameters() -> HashParameters:
    return _current.parameters


def hash_password_sync(password: str) -> str:
    """The argon2id hash string (with its salt and parameters) of ``password``."""
    return _current.hasher.hash(password)


def hash_password_with(parameters: HashParameters, password: str) -> str:
    """The argon2id hash of ``password`` with `parameters`, whatever this process's are
    (tests write users' hashes with TEST_PARAMETERS)."""
    return _Hashing(parameters).hasher.hash(password)


def _too_weak(stored_hash: str, hashing: _Hashing) -> bool:
    """A test hash (memory below WEAK_MEMORY_KIB) met by a server with real parameters."""
    if not hashing.parameters.production:
        return False
    try:
        weak = extract_parameters(stored_hash).memory_cost < WEAK_MEMORY_KIB
    except InvalidHashError:
        return False  # not an argon2 hash: verify refuses it anyway
    if weak:
        log.warning("a stored password hash has test parameters: refused")
    return weak


def verify_password_sync(stored_hash: str, password: str) -> bool:
    """Whether ``password`` matches ``stored_hash``; a malformed hash, or a test hash on a
    server with real parameters, never matches."""
    hashing = _current
    if _too_weak(stored_hash, hashing):
        return False
    try:
        return hashing.hasher.verify(stored_hash, password)
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
        return _current.hasher.check_needs_rehash(stored_hash)
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


def dummy_hash() -> str:
    """A hash to verify against when the username is unknown, so that a login for an
    unknown user costs as much time as one with a wrong password."""
    return _current.dummy()
