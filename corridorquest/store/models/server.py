"""The server's own tables: idempotent answers, server values, the durable outbox, the
administrators' audit log and the schema version."""

from __future__ import annotations

import peewee as pw

from corridorquest.store.models.accounts import User
from corridorquest.store.models.base import BaseModel, utcnow


class IdempotentResponse(BaseModel):
    """The first answer to a write that carried an Idempotency-Key, per user."""

    user_id: int
    user = pw.ForeignKeyField(User, backref="+", on_delete="CASCADE")
    key = pw.CharField(max_length=255)
    scope = pw.CharField(max_length=255)  # method and path of the first request
    status = pw.IntegerField()
    body = pw.TextField()  # JSON
    created_at = pw.DateTimeField(default=utcnow, index=True)

    class Meta:
        indexes = ((("user", "key"), True),)


class ServerValue(BaseModel):
    """Server-wide values an administrator changes at run time (MOTD, message limit)."""

    key = pw.CharField(max_length=64, primary_key=True)
    value = pw.TextField()



class OutboxItem(BaseModel):
    """The durable outbox (store/outbox.py): an event whose notifications are still to be
    worked out (kind `event`, written in the transaction of the change), or one e-mail or
    ntfy message to deliver (kind `mail` / `ntfy`), kept a while after delivery."""

    kind = pw.CharField(max_length=8)  # event | mail | ntfy
    payload = pw.TextField()  # JSON
    created_at = pw.DateTimeField()
    due_at = pw.DateTimeField()  # the next attempt
    attempts = pw.IntegerField(default=0)
    claimed_until = pw.DateTimeField(null=True)  # a worker is delivering it until then
    done_at = pw.DateTimeField(null=True)  # delivered, or given up (`failed`)
    failed = pw.BooleanField(default=False)
    error = pw.TextField(null=True)  # the last delivery error

    class Meta:
        table_name = "outbox"
        # every query of the worker: one kind, not done, by due time (store/outbox.py)
        indexes = ((("kind", "done_at", "due_at"), False),)


class AdminAction(BaseModel):
    """The audit log: one row per system administrator's action (services/admin_audit.py),
    written in the transaction of the action. `admin_name` keeps the name the admin had
    then; `target` names what was acted on ("user alice", "game 12", "server")."""

    admin_id: int | None
    admin = pw.ForeignKeyField(User, null=True, backref="+", on_delete="SET NULL")
    admin_name = pw.CharField(max_length=32)
    action = pw.CharField(max_length=32)
    target = pw.CharField(max_length=128, null=True)
    detail = pw.TextField(null=True)
    at = pw.DateTimeField(default=utcnow, index=True)

    class Meta:
        table_name = "admin_audit"


class SchemaVersion(BaseModel):
    version = pw.IntegerField(primary_key=True)
    description = pw.TextField()
    applied_at = pw.DateTimeField(default=utcnow)
