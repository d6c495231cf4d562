"""Fast paths for the hottest queries (a move, an authenticated request).

peewee rebuilds the SQL of every query from its expression tree; on this machine that
costs 0.3-1 ms for a row of a wide table, against ~15 µs for executing the statement.
The few queries every move runs therefore use these helpers: the SQL text is built once
per (model, clause) and cached, values go through the models' own field conversions
(`db_value` / `python_value`), and the results are ordinary model instances, so callers
cannot tell them from `Model.select()` rows. Clauses are written with `?` placeholders
and column names; on PostgreSQL `?` becomes `%s`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import peewee as pw

from corridorquest.store.models import database

M = TypeVar("M", bound=pw.Model)
R = TypeVar("R", bound=pw.Model)

_sql_cache: dict[tuple[Any, ...], str] = {}


def _db() -> pw.Database:
    db: pw.Database = database.obj
    return db


def _dialect(sql: str) -> str:
    return sql if isinstance(_db(), pw.SqliteDatabase) else sql.replace("?", "%s")


def for_update() -> str:
    """The row-lock suffix for a SELECT of a write: `FOR UPDATE` where it exists."""
    return "FOR UPDATE" if isinstance(_db(), pw.PostgresqlDatabase) else ""


def _fields(model: type[pw.Model], names: Sequence[str] | None = None) -> list[pw.Field]:
    if names is None:
        return list(model._meta.sorted_fields)
    return [model._meta.fields[name] for name in names]


def _columns(fields: Sequence[pw.Field], alias: str) -> str:
    return ", ".join(f'{alias}."{f.column_name}"' for f in fields)


def table(model: type[pw.Model]) -> str:
    return f'"{model._meta.table_name}"'


def hydrate(model: type[M], values: Sequence[Any], fields: Sequence[pw.Field] | None = None) -> M:
    """A model instance from a row of `fields` (default: every field) values."""
    data = {
        field.name: (field.python_value(value) if value is not None else None)
        for field, value in zip(fields or model._meta.sorted_fields, values, strict=True)
    }
    instance = model(__no_default__=1, **data)
    instance._dirty.clear()
    return instance


def select(model: type[M], where: str, params: Sequence[Any], tail: str = "") -> list[M]:
    """`SELECT every column FROM model WHERE <where> <tail>` as model instances."""
    key = ("select", model, where, tail, type(_db()))
    sql = _sql_cache.get(key)
    if sql is None:
        sql = _dialect(
            f"SELECT {_columns(_fields(model), 't')} FROM {table(model)} AS t WHERE {where} {tail}"
        )
        _sql_cache[key] = sql
    return [hydrate(model, row) for row in _db().execute_sql(sql, tuple(params))]


def select_with(
    model: type[M],
    related: type[R],
    join_on: str,
    where: str,
    params: Sequence[Any],
    tail: str = "",
    related_fields: Sequence[str] | None = None,
) -> list[tuple[M, R]]:
    """Rows of `model` (alias t) joined with `related` (alias r): (instance, related).

    `related_fields` limits the columns read of `related` (a partial instance).
    """
    fields = _fields(related, related_fields)
    key = ("join", model, related, join_on, where, tail, tuple(related_fields or ()), type(_db()))
    sql = _sql_cache.get(key)
    if sql is None:
        columns = f"{_columns(_fields(model), 't')}, {_columns(fields, 'r')}"
        sql = _dialect(
            f"SELECT {columns} FROM {table(model)} AS t JOIN {table(related)} AS r "
            f"ON {join_on} WHERE {where} {tail}"
        )
        _sql_cache[key] = sql
    width = len(model._meta.sorted_fields)
    return [
        (hydrate(model, row[:width]), hydrate(related, row[width:], fields))
        for row in _db().execute_sql(sql, tuple(params))
    ]


def insert(model: type[pw.Model], **values: Any) -> None:
    """INSERT one row (no id returned): `values` by field name."""
    fields = [model._meta.fields[name] for name in values]
    key = ("insert", model, tuple(values), type(_db()))
    sql = _sql_cache.get(key)
    if sql is None:
        names = ", ".join(f'"{f.column_name}"' for f in fields)
        marks = ", ".join("?" for _ in fields)
        sql = _dialect(f"INSERT INTO {table(model)} ({names}) VALUES ({marks})")
        _sql_cache[key] = sql
    params = tuple(f.db_value(v) for f, v in zip(fields, values.values(), strict=True))
    _db().execute_sql(sql, params)


def update(instance: pw.Model, *names: str) -> None:
    """UPDATE the named fields of `instance` (by primary key) from its current values."""
    model = type(instance)
    fields = [model._meta.fields[name] for name in names]
    key = ("update", model, names, type(_db()))
    sql = _sql_cache.get(key)
    if sql is None:
        assignments = ", ".join(f'"{f.column_name}" = ?' for f in fields)
        pk = model._meta.primary_key.column_name
        sql = _dialect(f'UPDATE {table(model)} SET {assignments} WHERE "{pk}" = ?')
        _sql_cache[key] = sql
    params = [f.db_value(instance.__data__.get(f.name)) for f in fields]
    params.append(instance._pk)
    _db().execute_sql(sql, tuple(params))
    instance._dirty.difference_update(names)
