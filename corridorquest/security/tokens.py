"""Random secrets and how they are stored.

Session tokens and verification tokens are long random strings handed to the client once;
the database stores only their SHA-256 digest, so a leaked database does not give working
tokens. Verification codes are short (6 digits, typed by a person): they are stored as a
digest keyed by their verification token, so guessing a code offline needs the token too,
and online guessing is stopped by the two-retries-then-lock rule.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 32
CODE_DIGITS = 6


def new_token() -> str:
    """A fresh random token (URL-safe text, 256 bits of entropy)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """The digest stored for a token (hex SHA-256)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_code() -> str:
    """A fresh verification code: CODE_DIGITS decimal digits, leading zeros kept."""
    return f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"


def hash_code(code: str, token: str) -> str:
    """The digest stored for a verification code, bound to its verification token."""
    return hmac.new(token.encode("utf-8"), code.strip().encode("utf-8"), "sha256").hexdigest()


def code_matches(code: str, token: str, stored_digest: str) -> bool:
    """Whether ``code`` is the code whose digest (made with ``token``) is ``stored_digest``."""
    return hmac.compare_digest(hash_code(code, token), stored_digest)


def new_password(length: int = 20) -> str:
    """A random password for generated accounts (the initial administrator)."""
    return secrets.token_urlsafe(length)[:length]
