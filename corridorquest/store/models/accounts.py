"""Users and what their accounts keep: sessions, verification codes, login attempts,
password and signup requests, invitation mails sent (for their hourly limit)."""

from __future__ import annotations

import peewee as pw

from corridorquest.store.models.base import BaseModel, utcnow


class User(BaseModel):
    username = pw.CharField(max_length=32, unique=True)
    email = pw.CharField(max_length=254, unique=True)
    password_hash = pw.CharField(max_length=255)
    description = pw.CharField(max_length=100, default="")
    is_admin = pw.BooleanField(default=False)
    theme = pw.CharField(max_length=16, default="dark")
    notify_turn = pw.BooleanField(default=True)
    notify_action = pw.BooleanField(default=False)
    notify_game = pw.BooleanField(default=True)
    ntfy_dm_topic = pw.CharField(max_length=64, null=True)
    notify_digest = pw.BooleanField(default=False)  # one daily mail instead of one per event
    digest_sent_at = pw.DateTimeField(null=True)
    verified = pw.BooleanField(default=False)
    locked = pw.BooleanField(default=False)
    created_at = pw.DateTimeField(default=utcnow)
    password_changed_at = pw.DateTimeField(default=utcnow)
    # a bot (SPEC §13): its level 1..6; None for a person (migration step 16)
    bot_level = pw.IntegerField(null=True)
    # a guest (GUESTS=on): no e-mail, no password, its session bound to one browser; never
    # rated, purged after GUEST_PURGE_AFTER without play (migration step 20)
    guest = pw.BooleanField(default=False)

    @classmethod
    def find_by_name(cls, username: str) -> User | None:
        """The user with this username, compared without regard to case."""
        return cls.get_or_none(pw.fn.LOWER(cls.username) == username.lower())

    @classmethod
    def find_by_email(cls, email: str) -> User | None:
        """The user with this e-mail address, compared without regard to case."""
        return cls.get_or_none(pw.fn.LOWER(cls.email) == email.lower())


class Session(BaseModel):
    user_id: int
    token_hash = pw.CharField(max_length=128, unique=True)
    user = pw.ForeignKeyField(User, backref="sessions", on_delete="CASCADE")
    created_at = pw.DateTimeField(default=utcnow)
    last_seen_at = pw.DateTimeField(default=utcnow)
    expires_at = pw.DateTimeField()


class Verification(BaseModel):
    user_id: int
    token_hash = pw.CharField(max_length=128, unique=True)
    user = pw.ForeignKeyField(User, backref="verifications", on_delete="CASCADE")
    purpose = pw.CharField(max_length=16)  # signup | password | email
    code_hash = pw.CharField(max_length=255)
    new_value = pw.TextField(null=True)  # the new password hash or e-mail address
    attempts = pw.IntegerField(default=0)
    created_at = pw.DateTimeField(default=utcnow)
    expires_at = pw.DateTimeField()


class LoginAttempt(BaseModel):
    """One failed (or successful) login, for the per-user and per-address rate limits;
    `checking` while its password is being checked (it holds a slot of the limits)."""

    username = pw.CharField(max_length=64, index=True)
    address = pw.CharField(max_length=64, index=True)
    succeeded = pw.BooleanField(default=False)
    checking = pw.BooleanField(default=False)
    at = pw.DateTimeField(default=utcnow, index=True)


class PasswordRequest(BaseModel):
    """A password-change code sent (no login needed), for the per-account and per-address
    rate limits of such requests."""

    user_id: int
    user = pw.ForeignKeyField(User, backref="+", on_delete="CASCADE")
    address = pw.CharField(max_length=64, index=True)
    at = pw.DateTimeField(default=utcnow, index=True)


class SignupRequest(BaseModel):
    """A signup code sent, with the client address that asked, for the per-address limit
    of signups."""

    address = pw.CharField(max_length=64, index=True)
    at = pw.DateTimeField(default=utcnow, index=True)


class InvitationMail(BaseModel):
    """Invitation e-mails a user had sent (one row per invitation, with how many), for
    the per-user hourly limit of invitation mails."""

    user_id: int
    user = pw.ForeignKeyField(User, backref="+", on_delete="CASCADE")
    mails = pw.IntegerField()
    at = pw.DateTimeField(default=utcnow, index=True)
